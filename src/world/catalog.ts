/**
 * What the world holds, counted from the registries themselves (for
 * `npm run world -- stats` and the README), and screens sampled from real
 * tasks with their instructions in every style (for `world render`).
 */
import { Random, hashString } from '../learn/random';
import { printInstruction } from '../text/grammar';
import { APPS } from './apps';
import { act, createWorld, screenOf } from './env';
import { ICON_NAMES } from './icons';
import { makeTask, oracle, TEMPLATES } from './tasks';
import { REF_STYLES, type RefStyle, type Role, type Screen, type Task } from './types';
import { writeInstruction } from './writers';

export interface WorldStats {
  platforms: string[];
  apps: number;
  appsByPlatform: Record<string, string[]>;
  domains: string[];
  variants: { min: number; total: number };
  widgetKinds: Role[]; // roles seen on the screens oracles pass through
  templates: number;
  distinctTasks: { count: number; seedsTried: number };
  stepsPerTask: { min: number; max: number };
  styles: RefStyle[];
  icons: number;
}

/** Counts everything; `seeds` bounds the distinct-task census (templates × seeds tasks are made). */
export function worldStats(seeds = 300): WorldStats {
  const distinct = new Set<string>();
  const roles = new Set<Role>();
  let minSteps = Infinity;
  let maxSteps = 0;
  for (const t of TEMPLATES) {
    for (let seed = 1; seed <= seeds; seed++) {
      let task: Task;
      try {
        task = makeTask(t, seed);
      } catch {
        continue;
      }
      // A task is its template, what it asks for, and the look it is asked on.
      distinct.add(`${t.id}|${task.variant}|${JSON.stringify(task.params)}`);
      if (seed <= 2) {
        const steps = oracle(task);
        minSteps = Math.min(minSteps, steps.length);
        maxSteps = Math.max(maxSteps, steps.length);
        let state = createWorld(task);
        for (const s of steps) {
          screenOf(state).elements.forEach((e) => roles.add(e.role));
          state = act(state, s.action);
        }
        screenOf(state).elements.forEach((e) => roles.add(e.role));
      }
    }
  }
  const byPlatform: Record<string, string[]> = {};
  for (const a of APPS) (byPlatform[a.platform] ??= []).push(a.id);
  return {
    platforms: Object.keys(byPlatform),
    apps: APPS.length,
    appsByPlatform: byPlatform,
    domains: [...new Set(APPS.map((a) => a.domain))],
    variants: { min: Math.min(...APPS.map((a) => a.variants.length)), total: APPS.reduce((n, a) => n + a.variants.length, 0) },
    widgetKinds: [...roles].sort(),
    templates: TEMPLATES.length,
    distinctTasks: { count: distinct.size, seedsTried: seeds },
    stepsPerTask: { min: minSteps, max: maxSteps },
    styles: [...REF_STYLES],
    icons: ICON_NAMES.length,
  };
}

export interface SampledScreen {
  screen: Screen;
  task: Task;
  stepIndex: number; // the oracle step about to be taken on this screen
}

/** `count` screens from real tasks: a random template, seed and point along its oracle path. */
export function sampleScreens(seed: number, count: number): SampledScreen[] {
  const rng = new Random(seed ^ hashString('sample-screens'));
  const out: SampledScreen[] = [];
  for (let guard = 0; out.length < count && guard < count * 20; guard++) {
    let task: Task;
    try {
      task = makeTask(rng.pick(TEMPLATES), rng.int(1, 100_000), rng.fork(guard));
    } catch {
      continue;
    }
    const steps = oracle(task);
    const stepIndex = rng.int(0, steps.length - 1);
    let state = createWorld(task);
    for (let i = 0; i < stepIndex; i++) state = act(state, steps[i].action);
    out.push({ screen: screenOf(state), task, stepIndex });
  }
  return out;
}

export interface InstructionNote {
  targetId: string;
  style: RefStyle;
  text: string;
}

/** A click instruction for every interactive element, in every style that can single it out. */
export function instructionsForScreen(screen: Screen, seed: number): InstructionNote[] {
  const notes: InstructionNote[] = [];
  for (const el of screen.elements.filter((e) => e.interactive)) {
    for (const style of REF_STYLES) {
      const w = writeInstruction(screen, el, { type: 'CLICK' }, style, new Random(seed ^ hashString(el.id + style)));
      if (w) notes.push({ targetId: el.id, style, text: printInstruction(w.instruction) });
    }
  }
  return notes;
}
