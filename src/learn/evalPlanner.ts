/**
 * Offline evaluation of the planner on states whose next step is known
 * (held-out states for learning claims): greedy decoding, then per state
 * - parsed: the instruction (after any `<think>` trace) parses;
 * - typeMatch: its action type is the true one;
 * - targetMatch: for steps with a target element, the verifier resolves its
 *   reference on that screen to exactly the true element; for steps without
 *   one, the value matches (scroll direction, app name; BACK/DONE have none);
 * - exact: typeMatch and targetMatch (the "action type and target" match);
 * - valueMatch / step: the value also right (typed text, option), all three;
 * - reward: planReward against a grounder pool, when one is given.
 */
import * as tf from '../models/tf';
import type { PlannerConfig } from '../models/planner';
import { plannerDecode, type Corrections } from '../models/plannerDecode';
import { copyTargets, parseCompletion } from '../models/plannerData';
import { rowCopy } from '../text/copyMarks';
import { loraParams, type Lora } from '../models/lora';
import type { ParamMap } from '../models/params';
import { parseInstruction } from '../text/grammar';
import type { Tokenizer } from '../text/tokenizer';
import type { Instruction } from '../world/types';
import { normText, resolveRef } from '../world/verifier';
import { groundWithPool, type PoolGrounder } from './plannerGrounderPool';
import { screenConstraints } from './plannerConstraint';
import { plannerPrompts, planTruth, type PlannerState } from './plannerStates';
import type { Random } from './random';
import { instructionValue, planReward, type PlanReward, type PlanRewardOptions } from './rewards';

export interface DecodedState {
  tokens: number[]; // generated ids, eos last
  logProbs: number[]; // per generated token, temperature 1 (renormalised over what the constraint allowed, when constrained)
  /** Per generated token, what the grammar constraint allowed (constrained decoding only). */
  allowed?: Uint8Array[];
  reasoning?: string;
  instruction: string;
}

/** Counts decodeStates adds to: completion batches decoded, logits read back for them. */
export interface DecodeTally {
  batches: number;
  readBacks: number;
  /** Sampling on the device: tokens the host chose otherwise than the device proposed (plannerDecode.ts). */
  corrections?: Corrections;
}

/**
 * Decodes every state (greedy with temperature 0, else sampled with `rng`),
 * `repeat` times each (rows s·repeat … s·repeat + repeat − 1), in chunks of
 * `batchSize` rows; the last chunk is padded with copies so shapes stay fixed.
 */
export async function decodeStates(
  p: ParamMap,
  cfg: PlannerConfig,
  tok: Tokenizer,
  states: readonly PlannerState[],
  opts: { temperature: number; rng?: Random; repeat?: number; batchSize?: number; constrained?: boolean; cot?: boolean; deviceBlock?: number; tally?: DecodeTally },
): Promise<DecodedState[]> {
  const repeat = opts.repeat ?? 1;
  const size = opts.batchSize ?? 16;
  const rows = states.length * repeat;
  const out: DecodedState[] = [];
  for (let start = 0; start < rows; start += size) {
    const n = Math.min(size, rows - start);
    const rowState = (i: number) => Math.floor((start + Math.min(i, n - 1)) / repeat);
    const chunk = Array.from({ length: size }, (_, i) => states[rowState(i)]);
    // A chunk of whole groups runs each state's prompt once for its `repeat` rows.
    const shared = repeat > 1 && start % repeat === 0 && size % repeat === 0 ? repeat : 1;
    const prompts = chunk.filter((_, i) => i % shared === 0);
    // Each chunk is padded to its own bucket: short screens do not pay for the longest.
    const { ids, length: pl } = plannerPrompts(tok, cfg, prompts);
    const prompt = tf.tensor2d(ids, [prompts.length, pl], 'int32');
    const constraints = opts.constrained ? screenConstraints(tok, chunk.map((s) => ({ screen: s.screen, goal: s.parts.goal, history: s.parts.history })), { cot: opts.cot }) : undefined;
    const copy = cfg.copyGate ? chunk.map((s) => rowCopy(tok, copyTargets(s.parts))) : undefined;
    const dec = await plannerDecode(p, cfg, prompt, { temperature: opts.temperature, rng: opts.rng, constraints, repeat: shared, copy, deviceBlock: opts.deviceBlock }).finally(() => prompt.dispose());
    if (opts.tally) {
      opts.tally.batches++;
      opts.tally.readBacks += dec.readBacks;
      if (opts.tally.corrections) {
        opts.tally.corrections.constraint += dec.corrections.constraint;
        opts.tally.corrections.other += dec.corrections.other;
      }
    }
    for (let i = 0; i < n; i++) {
      const allowed = dec.allowed?.[i];
      out.push({ tokens: dec.tokens[i], logProbs: dec.logProbs[i], ...(allowed ? { allowed } : {}), ...parseCompletion(tok, dec.tokens[i]) });
    }
  }
  return out;
}

export interface StepMatch {
  parsed: boolean;
  typeMatch: boolean;
  targetMatch: boolean;
  valueMatch: boolean;
  /** type and target (the learning claim's measure). */
  exact: boolean;
  /** type, target and value. */
  step: boolean;
}

/** How an instruction text compares with the state's true next step. */
export function matchStep(state: PlannerState, text: string): StepMatch {
  const parsed = parseInstruction(text);
  if (!parsed) return { parsed: false, typeMatch: false, targetMatch: false, valueMatch: false, exact: false, step: false };
  const truth = state.step;
  const typeMatch = parsed.action === truth.type;
  const value = sameValue(parsed, truth.value);
  let targetMatch: boolean;
  if (truth.targetId !== undefined) {
    const r = parsed.ref ? resolveRef(state.screen, parsed.ref) : null;
    targetMatch = r !== null && r.kind === 'element' && r.id === truth.targetId;
  } else {
    targetMatch = parsed.ref === undefined && value;
  }
  return { parsed: true, typeMatch, targetMatch, valueMatch: value, exact: typeMatch && targetMatch, step: typeMatch && targetMatch && value };
}

function sameValue(i: Instruction, truth: string | undefined): boolean {
  const v = instructionValue(i);
  if (v === undefined || truth === undefined) return v === truth;
  return normText(v) === normText(truth);
}

export interface PlannerEvalRow extends StepMatch {
  taskId: string;
  stepIndex: number;
  truth: string;
  output: string;
  reasoning?: string;
  reward?: PlanReward;
}

export interface PlannerEval {
  states: number;
  parseRate: number;
  typeAccuracy: number;
  /** Action type and target right (target: verifier-resolved element; no-target steps: value). */
  exactMatch: number;
  /** Type, target and value right. */
  stepAccuracy: number;
  /** Mean planReward over states; NaN without a pool. */
  meanReward: number;
  rows: PlannerEvalRow[];
}

export interface EvalPlannerOptions {
  pool?: readonly PoolGrounder[];
  reward?: PlanRewardOptions;
  lora?: Lora;
  batchSize?: number;
  /** Grammar-constrained decoding (text/instructionConstraint.ts). */
  constrained?: boolean;
}

/** Greedy evaluation of the planner on `states` (see the file comment for each measure). */
export async function evalPlanner(
  p: ParamMap,
  cfg: PlannerConfig,
  tok: Tokenizer,
  states: readonly PlannerState[],
  opts: EvalPlannerOptions = {},
): Promise<PlannerEval> {
  if (states.length === 0) throw new Error('evalPlanner: no states');
  const lora = opts.lora;
  // Under LoRA, materialise W + ΔW once for the whole evaluation, not once per decoded token.
  const weights = lora ? tf.tidy(() => ({ ...loraParams(p, lora) })) : p;
  let decoded: DecodedState[];
  try {
    decoded = await decodeStates(weights, cfg, tok, states, { temperature: 0, batchSize: opts.batchSize, constrained: opts.constrained });
  } finally {
    if (lora) for (const t of lora.targets) weights[t].dispose();
  }
  const groundings = opts.pool ? await groundWithPool(opts.pool, states.map((s, i) => ({ screen: s.screen, instruction: decoded[i].instruction }))) : null;
  const rows: PlannerEvalRow[] = states.map((s, i) => ({
    taskId: s.task.id,
    stepIndex: s.stepIndex,
    truth: s.instruction,
    output: decoded[i].instruction,
    ...(decoded[i].reasoning !== undefined ? { reasoning: decoded[i].reasoning } : {}),
    ...matchStep(s, decoded[i].instruction),
    ...(groundings ? { reward: planReward(decoded[i].instruction, planTruth(s), groundings[i], opts.reward) } : {}),
  }));
  const mean = (f: (r: PlannerEvalRow) => number) => rows.reduce((a, r) => a + f(r), 0) / rows.length;
  return {
    states: rows.length,
    parseRate: mean((r) => +r.parsed),
    typeAccuracy: mean((r) => +r.typeMatch),
    exactMatch: mean((r) => +r.exact),
    stepAccuracy: mean((r) => +r.step),
    meanReward: groundings ? mean((r) => r.reward?.total ?? 0) : NaN,
    rows,
  };
}
