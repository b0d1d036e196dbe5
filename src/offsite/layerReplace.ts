/**
 * ScaleOT's Dynamic LayerReplace, as METHOD.md §7 reads it: every middle unit
 * i has an importance score s_i. A mask is drawn per group of consecutive
 * units: u_i ~ U(0, sigmoid(s_i)), the units with the largest u_i are kept
 * (half of the group at α = 0.5) and the rest replaced by their harmonizers.
 * Harmonizers learn by gradient on the mixed model's loss under sampled
 * masks; every few steps a handful of candidate masks are scored on a
 * validation batch, r_j = exp(−loss_j) − mean_j exp(−loss_j), and each
 * candidate moves the scores of the units it kept by η·r_j / std_j r_j. A unit
 * whose replacement hurts keeps showing up in the better masks, so its score
 * rises.
 *
 * The division by the candidates' spread is ours, not the method's: exp(−loss)
 * scales with the loss's own level, so the same η moved the planner's scores
 * (losses near 1, exp(−loss) near 0.3) by 0.3–0.7 an update and the
 * grounder's (losses near 5, exp(−loss) near 0.005) by about 0.0015, and the
 * grounder's importance never left zero. Standardised, the update depends on
 * how the masks rank, not on how large the loss is.
 *
 * The engine is written over a loss function and batches, not over the
 * planner, so the grounder can use it too.
 */
import * as tf from '../models/tf';
import type { ParamMap, Params } from '../models/params';
import { applyStep } from '../learn/plannerSft';
import type { Random } from '../learn/random';
import { mixedParams } from './mixed';
import type { Unit } from './units';

const sigmoid = (x: number) => 1 / (1 + Math.exp(-x));

/** Consecutive runs of `size` middle units (the last may be shorter). */
export function groupsOf<T>(items: readonly T[], size: number): T[][] {
  if (!(size >= 1)) throw new Error(`groupsOf: group size ${size}`);
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** How many of `n` units a replace ratio α replaces (rounded, never all of a group of two or more). */
export function replacedCount(alpha: number, n: number): number {
  if (!(alpha >= 0 && alpha < 1)) throw new Error(`replace ratio ${alpha} outside [0, 1)`);
  return Math.min(n - (n > 1 ? 1 : 0), Math.round(alpha * n));
}

/**
 * One sampled mask: indices (Unit.index) of the units to replace. `scores`
 * is indexed by position in `middle`.
 */
export function sampleMask(rng: Random, middle: readonly Unit[], scores: readonly number[], groupSize: number, alpha: number): Set<number> {
  const replaced = new Set<number>();
  const draws = middle.map((u, i) => ({ u, draw: rng.next() * sigmoid(scores[i]) }));
  for (const group of groupsOf(draws, groupSize)) {
    const lowest = [...group].sort((a, b) => a.draw - b.draw).slice(0, replacedCount(alpha, group.length));
    for (const d of lowest) replaced.add(d.u.index);
  }
  return replaced;
}

/**
 * The REINFORCE step on the scores: candidate j, with validation loss
 * losses[j], moves the score of every unit it kept by lr·r_j, where
 * r_j = exp(−loss_j) minus the candidates' mean (the baseline), divided by
 * their standard deviation. Candidates that all score alike move nothing.
 * Returns new scores.
 */
export function reinforce(scores: readonly number[], middle: readonly Unit[], candidates: readonly ReadonlySet<number>[], losses: readonly number[], lr: number): number[] {
  if (candidates.length !== losses.length || candidates.length === 0) throw new Error(`reinforce: ${candidates.length} masks, ${losses.length} losses`);
  const rewards = losses.map((l) => Math.exp(-l));
  const mean = rewards.reduce((a, b) => a + b, 0) / rewards.length;
  const std = Math.sqrt(rewards.reduce((a, b) => a + (b - mean) ** 2, 0) / rewards.length);
  const out = [...scores];
  // Equal losses (the same mask drawn each time, or units that change nothing) carry no ranking.
  if (!(std > 1e-9 * Math.max(mean, Number.MIN_VALUE))) return out;
  candidates.forEach((replaced, j) => {
    const r = (rewards[j] - mean) / std;
    middle.forEach((u, i) => {
      if (!replaced.has(u.index)) out[i] += lr * r;
    });
  });
  return out;
}

export interface LayerReplaceOptions<B> {
  rng: Random;
  full: ParamMap;
  units: readonly Unit[];
  middle: readonly Unit[];
  /** Trainable harmonizer variables for every middle unit. */
  harmonizers: Params;
  lossOf: (p: ParamMap, batch: B) => tf.Scalar;
  /** What the harmonizers descend, when it is not `lossOf` (which always scores the masks). */
  trainLossOf?: (p: ParamMap, batch: B) => tf.Scalar;
  trainBatch: (step: number) => B;
  validationBatch: B;
  steps: number;
  /** Replace ratio within each group while training (0.5: keep half). */
  alpha: number;
  groupSize: number;
  /** Score the candidate masks every this many steps. */
  rlEvery: number;
  candidates: number;
  /** Harmonizers' Adam learning rate. */
  lr: number;
  /** Step size η of the score update. */
  scoreLr: number;
  /** Awaited: a caller in a worker may take an event turn here so that its messages get in. */
  onProgress?: (p: { step: number; loss: number; scores: readonly number[] }) => void | Promise<void>;
}

export interface LayerReplaceResult {
  /** Final importance score per middle unit (same order as `middle`). */
  scores: number[];
  /** Harmonizer training loss per step. */
  losses: number[];
  /** Scores after each RL update. */
  scoreHistory: number[][];
}

/** Harmonizers and importance scores, learned together. The full model's weights are only read. */
export async function dynamicLayerReplace<B>(o: LayerReplaceOptions<B>): Promise<LayerReplaceResult> {
  let scores = o.middle.map(() => 0);
  // tfjs's Adam keeps state per variable, so each step can update only the harmonizers its mask
  // used (FlatAdam wants the same set every step); unused ones must not drift on stale momentum.
  const opt = tf.train.adam(o.lr);
  const varsOf = (mask: ReadonlySet<number>) =>
    o.middle.filter((u) => mask.has(u.index)).flatMap((u) => Object.entries(o.harmonizers).filter(([k]) => k.startsWith(`${u.harmonizer}.`)).map(([, v]) => v));
  const losses: number[] = [];
  const scoreHistory: number[][] = [];
  try {
    for (let step = 0; step < o.steps; step++) {
      const mask = sampleMask(o.rng, o.middle, scores, o.groupSize, o.alpha);
      const batch = o.trainBatch(step);
      const vars = varsOf(mask);
      const train = o.trainLossOf ?? o.lossOf;
      const loss =
        vars.length > 0
          ? applyStep(opt, vars, () => train(mixedParams(o.full, o.units, o.harmonizers, mask), batch))
          : tf.tidy(() => train(mixedParams(o.full, o.units, o.harmonizers, mask), batch));
      losses.push((await loss.data())[0]);
      loss.dispose();
      if ((step + 1) % o.rlEvery === 0) {
        const masks = Array.from({ length: o.candidates }, () => sampleMask(o.rng, o.middle, scores, o.groupSize, o.alpha));
        const val: number[] = [];
        for (const m of masks) {
          const l = tf.tidy(() => o.lossOf(mixedParams(o.full, o.units, o.harmonizers, m), o.validationBatch));
          val.push((await l.data())[0]);
          l.dispose();
        }
        scores = reinforce(scores, o.middle, masks, val, o.scoreLr);
        scoreHistory.push([...scores]);
      }
      await o.onProgress?.({ step, loss: losses[losses.length - 1], scores });
    }
  } finally {
    opt.dispose();
  }
  return { scores, losses, scoreHistory };
}

/** The final choice: the round(α·n) middle units with the lowest scores are replaced. */
export function leastImportant(middle: readonly Unit[], scores: readonly number[], alpha: number): Set<number> {
  const order = middle.map((u, i) => ({ u, s: scores[i] })).sort((a, b) => a.s - b.s || a.u.index - b.u.index);
  return new Set(order.slice(0, replacedCount(alpha, middle.length)).map((d) => d.u.index));
}

/**
 * Offsite-Tuning's uniform layer drop at the same size: of the middle units
 * keep every k-th (positions 0, k, 2k, …), k = round(n / kept), and replace
 * the rest; no scores, no learning.
 */
export function uniformDrop(middle: readonly Unit[], alpha: number): Set<number> {
  const n = middle.length;
  const keep = n - replacedCount(alpha, n);
  const k = Math.max(1, Math.round(n / keep));
  const kept = new Set<number>();
  for (let i = 0; i < n && kept.size < keep; i += k) kept.add(i);
  // When n/keep is not whole, fill from the end so the count stays exact.
  for (let i = n - 1; kept.size < keep; i--) kept.add(i);
  return new Set(middle.filter((_, i) => !kept.has(i)).map((u) => u.index));
}
