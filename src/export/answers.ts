/**
 * What the exported models answer, and how the TypeScript rewards grade an
 * answer's text: the grounder answers a point "(x, y)" in screenshot pixels,
 * the planner one instruction in the grammar's words. rewards.py reads the
 * same text the same way (the parity test holds them to it).
 *
 * The point syntax is deliberately narrow (ASCII digits, ASCII spaces) so
 * that Python's and JavaScript's regular expressions accept the same strings.
 */
import { densePointReward, planReward, type Grounding, type PlanWeighting, type PointReward } from '../learn/rewards';
import type { ActionType, Box } from '../world/types';

const SPACE = '[ \\t\\n\\r]*';
const NUMBER = '(-?[0-9]+(?:\\.[0-9]+)?)';
/** Also written into rewards.py: keep the two in step (the parity test compares them on malformed answers). */
export const POINT_PATTERN = `^${SPACE}\\(${SPACE}${NUMBER}${SPACE},${SPACE}${NUMBER}${SPACE}\\)${SPACE}$`;
const POINT_RE = new RegExp(POINT_PATTERN);

/** The grounder's answer for a point: whole pixels, as a model would write them. */
export function printPoint(x: number, y: number): string {
  return `(${Math.round(x)}, ${Math.round(y)})`;
}

export function parsePoint(text: string): { x: number; y: number } | null {
  const m = POINT_RE.exec(text);
  return m ? { x: Number(m[1]), y: Number(m[2]) } : null;
}

/** The grounder's SFT target: the centre of the true box. */
export function boxCentreAnswer(box: Box): string {
  return printPoint(box.x + box.w / 2, box.y + box.h / 2);
}

/** SE-GUI's reward of one answer (METHOD.md §3): a malformed answer earns 0, a point 1·R_format + 2·R_point. */
export function gradeGrounding(text: string, box: Box, screen: { width: number; height: number }): PointReward {
  const p = parsePoint(text);
  return p ? densePointReward(p, box, screen) : densePointReward({ x: 0, y: 0 }, box, screen, { formatOk: false });
}

export interface PlanGrade {
  type: number;
  value: number;
  plan: number;
  total: number;
}

/** Co-EPG's C-DREM reward of one instruction (METHOD.md §2), given what each pool grounder did with it. */
export function gradePlan(
  text: string,
  truth: { type: ActionType; value?: string; box?: Box },
  groundings: readonly Grounding[],
  weighting: PlanWeighting = 'prior-confidence',
): PlanGrade {
  const r = planReward(text, truth, groundings, { weighting });
  return { type: r.rType, value: r.rValue, plan: r.rPlan, total: r.total };
}
