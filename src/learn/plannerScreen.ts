/**
 * Which training states planner GRPO spends its groups on. Where the planner
 * is sure of its greedy instruction, its G samples at T = 0.9 are nearly
 * always that instruction: the group's rewards are equal and its advantages
 * zero, so it costs a decode and the pool's grounding and teaches nothing.
 * As GRPO sharpens the planner, more of the training states become such
 * states (issue 27: informative groups fell from 44% to 28% over three
 * iterations). DAPO drops all-equal groups after sampling them; screening
 * instead ranks candidate states by how sure the planner is before sampling,
 * which costs one greedy decode per candidate and no grounding.
 *
 * Sureness is the log-probability (temperature 1, under the constraint when
 * it is on) of the greedy completion: the chance, roughly, that a sample
 * repeats it.
 */
import type { ParamMap } from '../models/params';
import type { PlannerConfig } from '../models/planner';
import type { Tokenizer } from '../text/tokenizer';
import { decodeStates } from './evalPlanner';
import { mean } from './stats';
import type { PlannerState } from './plannerStates';

export interface ScreenedStates {
  /** The `count` least sure candidates, in the candidates' order. */
  states: PlannerState[];
  /** Mean probability of the greedy completion, over all candidates and over the kept ones. */
  sureAll: number;
  sureKept: number;
}

export async function leastSureStates(
  p: ParamMap,
  cfg: PlannerConfig,
  tok: Tokenizer,
  candidates: readonly PlannerState[],
  count: number,
  opts: { constrained?: boolean; batchSize?: number } = {},
): Promise<ScreenedStates> {
  if (!Number.isInteger(count) || count < 0) throw new Error(`leastSureStates: count must be a whole number ≥ 0; got ${count}`);
  const decoded = await decodeStates(p, cfg, tok, candidates, { temperature: 0, constrained: opts.constrained, batchSize: opts.batchSize ?? 16 });
  const sure = decoded.map((d) => Math.exp(d.logProbs.reduce((a, b) => a + b, 0)));
  // Ties keep the candidates' order, so a seed fixes the choice on any backend that agrees on the values.
  const kept = sure
    .map((_, i) => i)
    .sort((a, b) => sure[a] - sure[b] || a - b)
    .slice(0, count)
    .sort((a, b) => a - b);
  return { states: kept.map((i) => candidates[i]), sureAll: mean(sure), sureKept: mean(kept.map((i) => sure[i])) };
}
