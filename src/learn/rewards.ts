/**
 * The two rewards of ../shared/METHOD.md: the dense point reward that trains
 * the grounder (SE-GUI, §3) and the grounding-based plan reward that trains
 * the planner (Co-EPG's C-DREM, §2 "Planner reward").
 *
 * Points count as inside a box with its edges included (x1 ≤ x ≤ x2), as in
 * the acceptance numbers where (600, 500) on the edge of (400,400)-(600,600)
 * earns base 1.
 */
import type { ActionType, Box, Instruction } from '../world/types';
import { parseInstruction } from '../text/grammar';

export interface Point {
  x: number;
  y: number;
}

export function insideBox(p: Point, box: Box): boolean {
  return p.x >= box.x && p.x <= box.x + box.w && p.y >= box.y && p.y <= box.y + box.h;
}

// ---------------------------------------------------------------------------
// Dense point reward (SE-GUI)

/** Format : point = 1 : 2, which beat 1 : 1 in SE-GUI's ablation. */
export const FORMAT_WEIGHT = 1;
export const POINT_WEIGHT = 2;

export interface PointReward {
  format: number; // R_format: 1 when the output was a well-formed point
  base: number; // 1 inside the box (edges included), else 0
  decay: number; // 1 − (d / d_max)², 0 in sparse mode
  point: number; // R_point = base + decay, in [0, 2]
  total: number; // 1·R_format + 2·R_point
}

/**
 * R = 1·R_format + 2·R_point with R_point = base + (1 − (d/d_max)²), all in
 * coordinates normalised by the screen size; d_max is the distance from the
 * box centre to the farthest screen corner, so decay ∈ [0, 1] on the screen.
 * `sparse` keeps only the hit-or-miss base (the paper's ablation, about 4
 * points worse). A malformed output (formatOk false) earns nothing.
 */
export function densePointReward(
  point: Point,
  box: Box,
  screen: { width: number; height: number },
  opts: { sparse?: boolean; formatOk?: boolean } = {},
): PointReward {
  if (opts.formatOk === false) return { format: 0, base: 0, decay: 0, point: 0, total: 0 };
  const px = point.x / screen.width;
  const py = point.y / screen.height;
  const cx = (box.x + box.w / 2) / screen.width;
  const cy = (box.y + box.h / 2) / screen.height;
  const d = Math.hypot(px - cx, py - cy);
  const dMax = Math.max(Math.hypot(cx, cy), Math.hypot(1 - cx, cy), Math.hypot(cx, 1 - cy), Math.hypot(1 - cx, 1 - cy));
  const base = insideBox(point, box) ? 1 : 0;
  // Off-screen points could push (d/d_max)² past 1; clamp so the decay stays in [0, 1].
  const decay = opts.sparse ? 0 : Math.max(0, 1 - (d / dMax) ** 2);
  const r = base + decay;
  return { format: 1, base, decay, point: r, total: FORMAT_WEIGHT * 1 + POINT_WEIGHT * r };
}

// ---------------------------------------------------------------------------
// Plan reward (Co-EPG C-DREM)

/** Lower-case word tokens; quotes and punctuation are not words. */
function words(s: string): string[] {
  return s.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

/**
 * Token F1 of two strings (the Mind2Web / SQuAD measure): overlap counted as
 * a multiset. Two empty strings agree (1); one empty one does not (0).
 */
export function tokenF1(a: string, b: string): number {
  const ta = words(a);
  const tb = words(b);
  if (ta.length === 0 || tb.length === 0) return ta.length === tb.length ? 1 : 0;
  const counts = new Map<string, number>();
  for (const w of tb) counts.set(w, (counts.get(w) ?? 0) + 1);
  let common = 0;
  for (const w of ta) {
    const c = counts.get(w) ?? 0;
    if (c > 0) {
      common++;
      counts.set(w, c - 1);
    }
  }
  if (common === 0) return 0;
  const precision = common / ta.length;
  const recall = common / tb.length;
  return (2 * precision * recall) / (precision + recall);
}

/** The value an instruction carries, in the same sense as OracleStep.value. */
export function instructionValue(i: Instruction): string | undefined {
  switch (i.action) {
    case 'TYPE':
    case 'SELECT':
      return i.value;
    case 'SCROLL':
      return i.direction;
    case 'OPEN_APP':
      return i.app;
    default:
      return undefined;
  }
}

/**
 * Actions whose value must match: typed text, a chosen option, a scroll
 * direction, an app name. CLICK, BACK and DONE carry none (r_value = 1).
 */
export const VALUE_ACTIONS: readonly ActionType[] = ['TYPE', 'SELECT', 'SCROLL', 'OPEN_APP'];

/** The true next step, as far as the reward needs it (an OracleStep fits). */
export interface PlanTruth {
  type: ActionType;
  /** The target element's box; absent for actions without a target. */
  box?: Box;
  value?: string;
}

/** What one grounder of the pool did with the instruction. */
export interface Grounding {
  /** Its point, or null if it gave none. */
  point: Point | null;
  /** c_j ∈ [0, 1]: its confidence in that point (e.g. the probability mass of the chosen cell). */
  confidence: number;
  /** σ_j: the fixed prior trust in this grounder (paper 1 : 1 : 2, the current grounder largest). */
  prior: number;
}

/**
 * How the pool's hits are weighted (the paper's ablation, M2W step SR):
 * 'single' 56.50 (one grounder, `single` picks which; default the last)
 * → 'uniform' 57.01 → 'prior' (softmax σ) 57.67 → 'prior-confidence' (softmax σ·c) 58.41.
 */
export type PlanWeighting = 'prior-confidence' | 'prior' | 'uniform' | 'single';

export interface PlanRewardOptions {
  weighting?: PlanWeighting;
  /** Index of the grounder used by 'single'; defaults to the last (the current grounder). */
  single?: number;
  /** r_value needs token-F1 strictly above this (0.5 in Co-EPG). */
  valueF1?: number;
}

export interface PlanReward {
  parsed: Instruction | null;
  rType: number;
  rValue: number;
  /** Σ_j w_j · hit_j; 0 when the truth has no target box. */
  rPlan: number;
  weights: number[];
  hits: number[];
  total: number;
}

function softmax(xs: readonly number[]): number[] {
  const m = Math.max(...xs);
  const e = xs.map((x) => Math.exp(x - m));
  const z = e.reduce((a, b) => a + b, 0);
  return e.map((x) => x / z);
}

export function planWeights(groundings: readonly Grounding[], opts: PlanRewardOptions = {}): number[] {
  const n = groundings.length;
  if (n === 0) return [];
  switch (opts.weighting ?? 'prior-confidence') {
    case 'prior-confidence':
      return softmax(groundings.map((g) => g.prior * Math.min(1, Math.max(0, g.confidence))));
    case 'prior':
      return softmax(groundings.map((g) => g.prior));
    case 'uniform':
      return groundings.map(() => 1 / n);
    case 'single': {
      const j = opts.single ?? n - 1;
      if (!Number.isInteger(j) || j < 0 || j >= n) throw new Error(`planWeights: single must index one of ${n} grounders; got ${j}`);
      return groundings.map((_, i) => (i === j ? 1 : 0));
    }
  }
}

/**
 * The C-DREM reward of one sampled instruction: 0 if it does not parse;
 * otherwise r_type·r_value for actions without a target, and r_plan (the
 * weighted share of grounders that hit the true box) when both r_type and
 * r_value are 1.
 */
export function planReward(
  instructionText: string,
  truth: PlanTruth,
  groundings: readonly Grounding[],
  opts: PlanRewardOptions = {},
): PlanReward {
  const parsed = parseInstruction(instructionText);
  if (!parsed) return { parsed: null, rType: 0, rValue: 0, rPlan: 0, weights: [], hits: [], total: 0 };
  const rType = parsed.action === truth.type ? 1 : 0;
  let rValue = 1;
  if (VALUE_ACTIONS.includes(parsed.action)) {
    rValue = tokenF1(instructionValue(parsed) ?? '', truth.value ?? '') > (opts.valueF1 ?? 0.5) ? 1 : 0;
  }
  const box = truth.box;
  const weights = box ? planWeights(groundings, opts) : [];
  const hits = box ? groundings.map((g) => (g.point && insideBox(g.point, box) ? 1 : 0)) : [];
  const rPlan = weights.reduce((s, w, j) => s + w * hits[j], 0);
  const total = rType === 0 || rValue === 0 ? 0 : box ? rPlan : rType * rValue;
  return { parsed, rType, rValue, rPlan, weights, hits, total };
}
