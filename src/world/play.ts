/**
 * A person playing a task by hand (the World view): the world state, what
 * they did, and the oracle's next step from where they are, with its
 * instruction in every referring style. Pure logic; the UI draws it.
 */
import { Random, hashString } from '../learn/random';
import { printInstruction } from '../text/grammar';
import { act, createWorld, screenOf, type WorldState } from './env';
import { goalReached, makeTask, oracle, TEMPLATES } from './tasks';
import { writeInstruction } from './writers';
import { REF_STYLES, type Action, type OracleStep, type Platform, type RefStyle, type Screen, type Task } from './types';

export interface Play {
  task: Task;
  state: WorldState;
  history: Action[];
}

export function startPlay(task: Task): Play {
  return { task, state: createWorld(task), history: [] };
}

export function playAction(play: Play, action: Action): Play {
  return { ...play, state: act(play.state, action), history: [...play.history, action] };
}

/** App ids that have templates, per platform, in registry order. */
export function appsWithTasks(platform: Platform): string[] {
  return [...new Set(TEMPLATES.filter((t) => t.platform === platform).map((t) => t.appId))];
}

export function templatesOf(appId: string): string[] {
  return TEMPLATES.filter((t) => t.appId === appId).map((t) => t.id);
}

/**
 * A concrete task of `templateId` for `seed`; seeds whose data admit no such
 * task are skipped, so every seed gives a task.
 */
export function taskFor(templateId: string, seed: number): Task {
  const template = TEMPLATES.find((t) => t.id === templateId);
  if (!template) throw new Error(`No task template named ${templateId}.`);
  for (let s = seed; s < seed + 100; s++) {
    try {
      return makeTask(template, s, new Random((hashString(templateId) ^ s) >>> 0));
    } catch {
      // this seed's data cannot host the task; try the next
    }
  }
  throw new Error(`Template ${templateId} found no task in seeds ${seed}–${seed + 99}.`);
}

export type NextStep =
  | { kind: 'step'; index: number; step: OracleStep }
  | { kind: 'reached' }
  | { kind: 'off-path' }; // the person left the oracle's path; reset to see it again

/**
 * Replays the oracle from the start and finds where the current state lies on
 * its path. States are compared as JSON, which is exact: WorldState is plain data.
 */
export function nextStep(play: Play): NextStep {
  if (goalReached(play.task, play.state)) return { kind: 'reached' };
  const steps = oracle(play.task);
  const here = JSON.stringify(play.state);
  let state = createWorld(play.task);
  for (let i = 0; i < steps.length; i++) {
    if (JSON.stringify(state) === here) return { kind: 'step', index: i, step: steps[i] };
    state = act(state, steps[i].action);
  }
  return { kind: 'off-path' };
}

/** The step's instruction in each referring style, or null where that style cannot single out the target here. */
export function instructionsInEveryStyle(screen: Screen, step: OracleStep, seed: number): Record<RefStyle, string | null> {
  const target = step.targetId ? screen.elements.find((e) => e.id === step.targetId) : undefined;
  const spec = { type: step.type, value: step.value };
  const out = {} as Record<RefStyle, string | null>;
  for (const style of REF_STYLES) {
    const w = writeInstruction(screen, target, spec, style, new Random(seed ^ hashString(style)));
    out[style] = w ? printInstruction(w.instruction) : null;
  }
  return out;
}

export { screenOf };
