/**
 * The base planner measured per split, as the planner issue asks: on fresh
 * tasks of the training templates, on the held-out mixed set, and on each
 * held-out split (cross-task, cross-site, cross-domain, mobile), n states
 * each; per split the exact action+target greedy with and without the
 * grammar constraint, the action type, the value's token F1, the share of
 * samples at T = 0.9 that parse (with and without) and that also quote
 * only the screen or the goal (with and without), and the share of
 * prompts cut. Every rate carries its Wilson 95% interval.
 */
import { decodeStates, evalPlanner } from '../learn/evalPlanner';
import { plannerStatesOf, trainingPlannerStates, type PlannerState } from '../learn/plannerStates';
import { Random } from '../learn/random';
import { wilson } from '../learn/stats';
import { instructionValue, tokenF1 } from '../learn/rewards';
import { quotesOnlyScreenOrGoal } from '../learn/plannerConstraint';
import type { PlannerConfig } from '../models/planner';
import { promptCut } from '../models/plannerData';
import type { ParamMap } from '../models/params';
import { parseInstruction } from '../text/grammar';
import type { Tokenizer } from '../text/tokenizer';
import { buildSuites } from '../world/suites';
import type { BaseFigure } from './baseTypes';

export const PLANNER_SPLITS = ['training templates', 'held-out mixed', 'cross-task', 'cross-site', 'cross-domain', 'mobile'] as const;
export type PlannerSplit = (typeof PLANNER_SPLITS)[number];

/**
 * `count` states of each split, from `seed` (held-out tasks of
 * buildSuites(seed); fresh training tasks drawn from its own fork). The
 * mixed set interleaves the held-out splits as the earlier manifests did.
 */
export function plannerSplitStates(seed: number, count: number): Record<PlannerSplit, PlannerState[]> {
  // About three steps a task: enough tasks that each split has `count` states.
  const per = Math.ceil(count / 2);
  const suites = buildSuites(seed, { webPerSplit: per, mobile: per, groundingPerSplit: 0 });
  const web = suites.web;
  const mixedTasks = [web['cross-task'], web['cross-site'], web['cross-domain'], suites.mobile].flatMap((ts) => ts.slice(0, Math.ceil(per / 4)));
  return {
    'training templates': trainingPlannerStates(new Random(seed).fork('fresh training tasks'), count).slice(0, count),
    'held-out mixed': new Random(seed).shuffle(plannerStatesOf(mixedTasks, count)),
    'cross-task': plannerStatesOf(web['cross-task'], count),
    'cross-site': plannerStatesOf(web['cross-site'], count),
    'cross-domain': plannerStatesOf(web['cross-domain'], count),
    'mobile': plannerStatesOf(suites.mobile, count),
  };
}

export interface PlannerSplitFigures {
  split: PlannerSplit;
  n: number;
  /** Greedy, grammar-constrained: type and target right (the headline). */
  exact: number;
  /** Greedy without the constraint. */
  exactUnconstrained: number;
  typeAccuracy: number;
  /** Mean token F1 of the value over states whose step has one (typed text, option, direction, app). */
  valueF1: number;
  valueStates: number;
  /** Samples at T = 0.9 (one per state) that parse, constrained and not. */
  sampledParse: number;
  sampledParseUnconstrained: number;
  /** The same samples that parse and quote only texts of the screen or spans of the goal. */
  sampledOnScreen: number;
  sampledOnScreenUnconstrained: number;
  /** Prompts whose screen description had to be cut. */
  promptsCut: number;
}

const share = (xs: readonly boolean[]) => (xs.length === 0 ? NaN : xs.filter(Boolean).length / xs.length);

const parsesOnScreen = (instruction: string, s: PlannerState) => parseInstruction(instruction) !== null && quotesOnlyScreenOrGoal(instruction, s.screen, s.parts.goal);

export async function measurePlannerSplit(p: ParamMap, cfg: PlannerConfig, tok: Tokenizer, split: PlannerSplit, states: readonly PlannerState[], seed: number): Promise<PlannerSplitFigures> {
  const constrained = await evalPlanner(p, cfg, tok, states, { batchSize: 32, constrained: true });
  const plain = await evalPlanner(p, cfg, tok, states, { batchSize: 32 });
  const rng = new Random(seed).fork(`samples ${split}`);
  const sampled = await decodeStates(p, cfg, tok, states, { temperature: 0.9, rng: rng.fork('on'), batchSize: 32, constrained: true });
  const sampledPlain = await decodeStates(p, cfg, tok, states, { temperature: 0.9, rng: rng.fork('off'), batchSize: 32 });
  const f1s: number[] = [];
  constrained.rows.forEach((r, i) => {
    const truth = states[i].step.value;
    if (truth === undefined) return;
    const parsed = parseInstruction(r.output);
    const v = parsed ? instructionValue(parsed) : undefined;
    f1s.push(v === undefined ? 0 : tokenF1(v, truth));
  });
  return {
    split,
    n: states.length,
    exact: constrained.exactMatch,
    exactUnconstrained: plain.exactMatch,
    typeAccuracy: constrained.typeAccuracy,
    valueF1: f1s.length === 0 ? NaN : f1s.reduce((a, b) => a + b, 0) / f1s.length,
    valueStates: f1s.length,
    sampledParse: share(sampled.map((d) => parseInstruction(d.instruction) !== null)),
    sampledParseUnconstrained: share(sampledPlain.map((d) => parseInstruction(d.instruction) !== null)),
    sampledOnScreen: share(sampled.map((d, i) => parsesOnScreen(d.instruction, states[i]))),
    sampledOnScreenUnconstrained: share(sampledPlain.map((d, i) => parsesOnScreen(d.instruction, states[i]))),
    promptsCut: share(states.map((s) => promptCut(tok, s.parts, cfg.promptLength, cfg.goalMarks))),
  };
}

/** The manifest's figures of one split, every rate with its Wilson interval. */
export function splitFigures(f: PlannerSplitFigures): BaseFigure[] {
  const rate = (name: string, value: number, n = f.n): BaseFigure => ({ model: 'planner', name: `${f.split}: ${name}`, value, n, ...wilson(Math.round(value * n), n) });
  return [
    rate('action type and target (exact match)', f.exact),
    rate('exact match without the constraint', f.exactUnconstrained),
    rate('action type', f.typeAccuracy),
    { model: 'planner', name: `${f.split}: value token F1`, value: f.valueF1, n: f.valueStates },
    rate('samples at T = 0.9 that parse', f.sampledParse),
    rate('samples at T = 0.9 that parse without the constraint', f.sampledParseUnconstrained),
    rate('samples at T = 0.9 that parse and quote only the screen or the goal', f.sampledOnScreen),
    rate('samples at T = 0.9 that parse and quote only the screen or the goal, without the constraint', f.sampledOnScreenUnconstrained),
    rate('prompts cut', f.promptsCut),
  ];
}
