/**
 * The planner's own figures in the evaluation, per split (issue 27): the
 * web and mobile suites score the pair, so a planner that writes the right
 * step for a grounder that then misses looks the same there as one that
 * writes nonsense. These keys, `planner/<split>/<metric>`, score its text
 * alone on the same held-out states and the same greedy instructions:
 *
 * - exact: action type and target right (learn/evalPlanner matchStep: the
 *   verifier resolves the reference to the true element; for steps without
 *   a target, no reference and the same value);
 * - type_accuracy: action type right;
 * - value_f1: mean token F1 of the instruction's value against the true
 *   value, over steps whose truth has one (an unparseable instruction, or
 *   one without a value, scores 0);
 * - parse_sampled: share of instructions sampled at the loop's temperature
 *   (one per state) that parse, which is what GRPO has to learn from: a
 *   planner whose greedy text parses but whose samples do not gives
 *   groups of zero reward. Only for agents that can sample, with a seeded
 *   source;
 * - prompts_cut: share of states whose prompt was cut to fit the planner's
 *   prompt length (the screen description loses its end, so the target may
 *   not be in what the planner read). Only for agents with a prompt.
 *
 * A key whose denominator is empty is left out, as in evaluate.ts.
 */
import { matchStep } from '../learn/evalPlanner';
import type { PlannerState } from '../learn/plannerStates';
import { instructionValue, tokenF1 } from '../learn/rewards';
import { parseInstruction } from '../text/grammar';
import type { WebSplit } from '../world/suites';
import type { SuiteMetrics } from './records';

/** The suite name of these keys. */
export const PLANNER_SUITE = 'planner';

/** The web splits, and mobile (the `high` mode's states: the planner writes every step). */
export type PlannerSplit = WebSplit | 'mobile';

export interface PlannerStepScore {
  /** Action type and target right (matchStep's `exact`). */
  exact: boolean;
  typeRight: boolean;
  /** Token F1 of the value; absent when the true step has no value. */
  valueF1?: number;
  /** The sampled instruction parses; absent when nothing was sampled. */
  sampledParsed?: boolean;
  /** The state's prompt was cut; absent when the agent has no prompt to report on. */
  promptCut?: boolean;
}

export interface PlannerStepExtras {
  /** An instruction sampled for the same state. */
  sampled?: string;
  promptCut?: boolean;
}

/** The planner's scores on one state, from its greedy instruction (and what else the agent gave). */
export function scorePlannerStep(state: PlannerState, greedy: string, extras: PlannerStepExtras = {}): PlannerStepScore {
  const match = matchStep(state, greedy);
  const truth = state.step.value;
  const parsed = match.parsed ? parseInstruction(greedy) : null;
  const score: PlannerStepScore = { exact: match.exact, typeRight: match.typeMatch };
  if (truth !== undefined) score.valueF1 = parsed ? tokenF1(instructionValue(parsed) ?? '', truth) : 0;
  if (extras.sampled !== undefined) score.sampledParsed = parseInstruction(extras.sampled) !== null;
  if (extras.promptCut !== undefined) score.promptCut = extras.promptCut;
  return score;
}

/** Mean of the defined values and how many there were; undefined when there are none (the key is then left out). */
function meanOf(xs: readonly (number | boolean | undefined)[]): { mean: number; n: number } | undefined {
  const got = xs.filter((x): x is number | boolean => x !== undefined);
  return got.length ? { mean: got.reduce<number>((a, x) => a + Number(x), 0) / got.length, n: got.length } : undefined;
}

/** planner/<split>/{exact, type_accuracy, value_f1, parse_sampled, prompts_cut} of one split's states. */
export function plannerMetrics(split: string, steps: readonly PlannerStepScore[], counts?: Record<string, number>): SuiteMetrics {
  const m: SuiteMetrics = {};
  const put = (metric: string, v: { mean: number; n: number } | undefined) => {
    if (v === undefined) return;
    const key = `${PLANNER_SUITE}/${split}/${metric}`;
    m[key] = v.mean;
    if (counts) counts[key] = v.n;
  };
  put('exact', meanOf(steps.map((s) => s.exact)));
  put('type_accuracy', meanOf(steps.map((s) => s.typeRight)));
  put('value_f1', meanOf(steps.map((s) => s.valueF1)));
  put('parse_sampled', meanOf(steps.map((s) => s.sampledParsed)));
  put('prompts_cut', meanOf(steps.map((s) => s.promptCut)));
  return m;
}
