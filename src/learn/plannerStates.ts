/**
 * Planner states with their known next step: the prompt parts the planner
 * reads, the screen (for grounders and the verifier) and the oracle step
 * (for exact match and the plan reward). Training states come only from
 * suites.trainingTasks; held-out states from the tasks of buildSuites, so
 * what is held out stays decided in suites.ts.
 *
 * Also the CoT trace: a short, deterministic reasoning written from the
 * oracle step (which element on the screen the step acts on, and why), and
 * the token batches SFT trains on, with or without that trace.
 */
import { printInstruction } from '../text/grammar';
import type { Tokenizer } from '../text/tokenizer';
import { describeElement, describeScreen } from '../world/describe';
import { act, createWorld, screenOf } from '../world/env';
import { trainingTasks } from '../world/suites';
import { oracle } from '../world/tasks';
import type { OracleStep, Platform, Screen, Task } from '../world/types';
import { completionIds, promptMatrix, withCopyMarks, type PlannerBatch, type PlannerExample, type PlannerPromptParts } from '../models/plannerData';
import type { PlannerConfig } from '../models/planner';
import type { PlanTruth } from './rewards';
import type { Random } from './random';

export interface PlannerState {
  task: Task;
  stepIndex: number;
  screen: Screen;
  parts: PlannerPromptParts;
  /** The oracle's next step: type, target element and box, value, canonical instruction. */
  step: OracleStep;
  /** printInstruction(step.instruction): the SFT target. */
  instruction: string;
}

/** Every step of `task` as a state, walking the oracle once (stateBefore per step would replay it each time). */
export function plannerStatesOfTask(task: Task): PlannerState[] {
  const steps = oracle(task);
  const history = steps.map((s) => printInstruction(s.instruction));
  const out: PlannerState[] = [];
  let world = createWorld(task);
  steps.forEach((step, i) => {
    const screen = screenOf(world);
    out.push({ task, stepIndex: i, screen, parts: { goal: task.goal, screen: describeScreen(screen), history: history.slice(0, i) }, step, instruction: history[i] });
    world = act(world, step.action);
  });
  return out;
}

/**
 * At least `count` training states: every step of training tasks drawn from
 * `rng` (suites.trainingTasks), until there are enough; deterministic.
 */
export function trainingPlannerStates(rng: Random, count: number, platform?: Platform): PlannerState[] {
  const out: PlannerState[] = [];
  const tasks = rng.fork('tasks');
  for (let guard = 0; out.length < count && guard < count * 4; guard++) {
    const [task] = trainingTasks(tasks, 1, platform);
    if (task) out.push(...plannerStatesOfTask(task));
  }
  return out;
}

/**
 * States of the given (held-out) tasks, at most `limit`, taken round-robin
 * over tasks (every task's first step, then every second step, …) so a small
 * limit still covers many tasks.
 */
export function plannerStatesOf(tasks: readonly Task[], limit = Infinity): PlannerState[] {
  const perTask = tasks.map(plannerStatesOfTask);
  const out: PlannerState[] = [];
  for (let k = 0; out.length < limit && perTask.some((s) => k < s.length); k++) {
    for (const s of perTask) if (k < s.length && out.length < limit) out.push(s[k]);
  }
  return out;
}

/** What the plan reward needs to know about the true next step. */
export function planTruth(s: PlannerState): PlanTruth {
  return { type: s.step.type, box: s.step.box, value: s.step.value };
}

/**
 * The CoT trace for a state, from its oracle step only (deterministic): the
 * screen element the step acts on, as the screen description lists it, and
 * why (its purpose when the world knows one); for steps without a target,
 * the reason for the action.
 */
export function cotReasoning(s: PlannerState): string {
  const target = s.step.targetId === undefined ? undefined : s.screen.elements.find((e) => e.id === s.step.targetId);
  if (target) return target.purpose ? `${describeElement(target)} to ${target.purpose}` : describeElement(target);
  switch (s.step.type) {
    case 'OPEN_APP':
      return 'home screen';
    case 'SCROLL':
      return 'target not shown';
    case 'BACK':
      return 'wrong screen';
    case 'DONE':
      return 'goal reached';
    default:
      return s.step.type.toLowerCase();
  }
}

/** The plannerData example of a state (for code that takes PlannerExample). */
export function toExample(s: PlannerState): PlannerExample {
  return { taskId: s.task.id, stepIndex: s.stepIndex, parts: s.parts, instruction: s.instruction };
}

/**
 * SFT batch of states: prompts left-padded to P, completions
 * `instruction <eos>` (or `<think> trace </think> instruction <eos>` with
 * `cot`) right-padded to C.
 */
export function plannerSftBatch(tok: Tokenizer, cfg: PlannerConfig, states: readonly PlannerState[], cot = false): PlannerBatch {
  const c = cfg.completionLength;
  const { ids: prompt, length } = promptMatrix(tok, cfg, states.map((s) => s.parts));
  const completion = new Int32Array(states.length * c);
  states.forEach((s, i) => completion.set(completionIds(tok, s.instruction, c, cot ? cotReasoning(s) : undefined), i * c));
  return withCopyMarks(tok, cfg, { examples: states.map(toExample), promptLength: length, prompt, completion });
}

/** Prompt ids of states, [B, L] row-major, L their bucket (promptMatrix). */
export function plannerPrompts(tok: Tokenizer, cfg: PlannerConfig, states: readonly PlannerState[]): { ids: Int32Array; length: number } {
  return promptMatrix(tok, cfg, states.map((s) => s.parts));
}
