/**
 * Benchmark suites that mirror the public ones (METHOD.md §6), and the one
 * source of training tasks. What is held out is decided here and nowhere
 * else, so training can never draw a held-out site, domain, template or seed.
 *
 * - web (Multimodal-Mind2Web): cross-task = unseen templates on seen sites;
 *   cross-site = unseen sites of seen domains; cross-domain = a whole unseen domain.
 * - mobile (AndroidControl): unseen episodes (held-out seeds) of every mobile
 *   app; "high" and "low" are evaluation modes over the same steps (goal only,
 *   or goal plus the step's instruction), so both share one task list.
 * - grounding (ScreenSpot): single instructions on held-out screens, split by
 *   platform and by whether the target shows text or only an icon.
 */
import { Random, hashString } from '../learn/random';
import { act, appById, createWorld, type WorldState } from './env';
import { makeTask, oracle, TEMPLATES } from './tasks';
import type { AnyTemplate } from './tasks/template';
import type { Box, Domain, Instruction, Platform, Task } from './types';

/** Unseen web sites whose domain has another, seen site. */
export const HELD_OUT_SITES: readonly string[] = ['books', 'hotels'];
/** A whole web domain no training task comes from. */
export const HELD_OUT_DOMAINS: readonly Domain[] = ['files'];
/** Training data seeds lie below this; every benchmark seed at or above it. */
export const TEST_SEED_BASE = 1_000_000;

const heldOutApp = (appId: string) => HELD_OUT_SITES.includes(appId) || HELD_OUT_DOMAINS.includes(appById(appId).domain);

/**
 * Unseen templates (cross-task): on each seen app, every fourth template in
 * registry order, starting with the second, so each app keeps most of its
 * templates for training and still contributes to the split.
 */
export const HELD_OUT_TEMPLATES: ReadonlySet<string> = new Set(
  [...new Set(TEMPLATES.map((t) => t.appId))]
    .filter((app) => !heldOutApp(app))
    .flatMap((app) => TEMPLATES.filter((t) => t.appId === app).filter((_, i) => i % 4 === 1).map((t) => t.id)),
);

export const TRAINING_TEMPLATES: readonly AnyTemplate[] = TEMPLATES.filter((t) => !heldOutApp(t.appId) && !HELD_OUT_TEMPLATES.has(t.id));

/** True for any task that training may use. */
export function isTrainingTask(task: Task): boolean {
  return task.seed < TEST_SEED_BASE && TRAINING_TEMPLATES.some((t) => t.id === task.templateId);
}

/** A task of the template for the first seed from `seed` whose data can host it. */
function taskNear(template: AnyTemplate, seed: number, rng: Random): Task | null {
  for (let s = seed; s < seed + 50; s++) {
    try {
      return makeTask(template, s, rng.fork(s));
    } catch {
      // this seed's data cannot host the template; try the next
    }
  }
  return null;
}

/** `count` training tasks, drawn evenly over training templates and seeds below TEST_SEED_BASE. */
export function trainingTasks(rng: Random, count: number, platform?: Platform): Task[] {
  const pool = TRAINING_TEMPLATES.filter((t) => !platform || t.platform === platform);
  const out: Task[] = [];
  for (let guard = 0; out.length < count && guard < count * 10; guard++) {
    const task = taskNear(rng.pick(pool), rng.int(1, TEST_SEED_BASE - 100), rng);
    if (task) out.push(task);
  }
  return out;
}

function testTasks(rng: Random, templates: readonly AnyTemplate[], count: number): Task[] {
  const out: Task[] = [];
  if (templates.length === 0) return out;
  for (let i = 0; out.length < count && i < count * 10; i++) {
    // Round-robin over templates so every one is represented.
    const task = taskNear(templates[i % templates.length], TEST_SEED_BASE + rng.int(0, TEST_SEED_BASE - 100), rng);
    if (task) out.push(task);
  }
  return out;
}

export type WebSplit = 'cross-task' | 'cross-site' | 'cross-domain';
export type GroundingSplit = 'web-text' | 'web-icon' | 'mobile-text' | 'mobile-icon';

/** One grounding query: the world state before an oracle step, the instruction, and the true box. */
export interface GroundingQuery {
  task: Task;
  stepIndex: number; // the oracle step this query is taken from
  targetId: string;
  box: Box;
  instruction: Instruction;
}

export interface Suites {
  web: Record<WebSplit, Task[]>;
  mobile: Task[];
  grounding: Record<GroundingSplit, GroundingQuery[]>;
}

export interface SuiteSizes {
  webPerSplit: number;
  mobile: number;
  groundingPerSplit: number;
}

export const DEFAULT_SUITE_SIZES: SuiteSizes = { webPerSplit: 30, mobile: 30, groundingPerSplit: 40 };

/** The world state before oracle step `index` of `task`. */
export function stateBefore(task: Task, index: number): WorldState {
  let state = createWorld(task);
  const steps = oracle(task);
  for (let i = 0; i < index; i++) state = act(state, steps[i].action);
  return state;
}

function groundingQueries(rng: Random, platform: Platform, kind: 'text' | 'icon', count: number): GroundingQuery[] {
  const templates = TEMPLATES.filter((t) => t.platform === platform);
  const out: GroundingQuery[] = [];
  for (let i = 0; out.length < count && i < count * 20; i++) {
    const task = taskNear(templates[i % templates.length], TEST_SEED_BASE + rng.int(0, TEST_SEED_BASE - 100), rng);
    if (!task) continue;
    const steps = oracle(task);
    const candidates = steps
      .map((s, index) => ({ s, index }))
      .filter(({ s }) => s.targetId !== undefined && s.box !== undefined && s.instruction.ref?.style === kind);
    if (candidates.length === 0) continue;
    const { s, index } = rng.pick(candidates);
    out.push({ task, stepIndex: index, targetId: s.targetId as string, box: s.box as Box, instruction: s.instruction });
  }
  return out;
}

/** Every benchmark suite, deterministic from `seed`, drawn only from held-out data. */
export function buildSuites(seed: number, sizes: SuiteSizes = DEFAULT_SUITE_SIZES): Suites {
  const rng = new Random(seed ^ hashString('suites'));
  const web = TEMPLATES.filter((t) => t.platform === 'web');
  return {
    web: {
      'cross-task': testTasks(rng.fork('cross-task'), web.filter((t) => HELD_OUT_TEMPLATES.has(t.id)), sizes.webPerSplit),
      'cross-site': testTasks(rng.fork('cross-site'), web.filter((t) => HELD_OUT_SITES.includes(t.appId)), sizes.webPerSplit),
      'cross-domain': testTasks(rng.fork('cross-domain'), web.filter((t) => HELD_OUT_DOMAINS.includes(t.domain)), sizes.webPerSplit),
    },
    mobile: testTasks(rng.fork('mobile'), TEMPLATES.filter((t) => t.platform === 'mobile'), sizes.mobile),
    grounding: {
      'web-text': groundingQueries(rng.fork('gwt'), 'web', 'text', sizes.groundingPerSplit),
      'web-icon': groundingQueries(rng.fork('gwi'), 'web', 'icon', sizes.groundingPerSplit),
      'mobile-text': groundingQueries(rng.fork('gmt'), 'mobile', 'text', sizes.groundingPerSplit),
      'mobile-icon': groundingQueries(rng.fork('gmi'), 'mobile', 'icon', sizes.groundingPerSplit),
    },
  };
}
