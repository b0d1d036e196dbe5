/**
 * Grounding examples from a chosen slice of the world (some apps, a
 * platform, some referring styles), for a curriculum that starts where a
 * tiny grounder can learn in a few hundred steps, and a held-out set of the
 * same slice to measure it on.
 *
 * Training draws come only from TRAINING_TEMPLATES at seeds below
 * TEST_SEED_BASE (every task is checked with isTrainingTask); held-out draws
 * use seeds at or above TEST_SEED_BASE, so no held-out screen, its data or
 * its instruction was ever a training draw. Held-out draws may use the
 * slice's held-out templates as well (`templates: 'all'`): cross-task.
 */
import { grounderBatch, type GrounderBatch, type GrounderExample } from '../models/grounderData';
import type { GrounderConfig } from '../models/grounder';
import { syntheticScreenImage } from '../models/rasterize';
import type { Tokenizer } from '../text/tokenizer';
import { printInstruction } from '../text/grammar';
import { screenOf } from '../world/env';
import { isTrainingTask, stateBefore, TEST_SEED_BASE, TRAINING_TEMPLATES } from '../world/suites';
import { makeTask, oracle, TEMPLATES } from '../world/tasks';
import type { AnyTemplate } from '../world/tasks/template';
import type { Platform, RefStyle, Screen, Task } from '../world/types';
import { REF_STYLES } from '../world/types';
import { writeInstruction } from '../world/writers';
import { Random } from './random';

export interface GrounderSlice {
  /** App ids to draw from (default: every app). */
  apps?: readonly string[];
  platform?: Platform;
  /** Referring styles to write instructions in (default: all). */
  styles?: readonly RefStyle[];
}

function templatesOf(pool: readonly AnyTemplate[], slice: GrounderSlice): AnyTemplate[] {
  const out = pool.filter((t) => (!slice.apps || slice.apps.includes(t.appId)) && (!slice.platform || t.platform === slice.platform));
  if (out.length === 0) throw new Error(`grounder slice ${JSON.stringify(slice)} has no templates`);
  return out;
}

/** One example from a task: a random targeted oracle step, an instruction in one of `styles`. */
export function exampleFromTask(rng: Random, task: Task, styles: readonly RefStyle[]): GrounderExample | null {
  const steps = oracle(task);
  const targeted = steps.map((s, i) => ({ s, i })).filter(({ s }) => s.targetId !== undefined);
  if (targeted.length === 0) return null;
  const { s, i } = rng.pick(targeted);
  const screen = screenOf(stateBefore(task, i));
  const target = screen.elements.find((e) => e.id === s.targetId);
  if (!target) return null;
  for (const style of rng.shuffle(styles)) {
    const w = writeInstruction(screen, target, { type: s.type, value: s.value }, style, rng);
    if (!w) continue;
    return { taskId: task.id, stepIndex: i, screen, platform: task.platform, instruction: printInstruction(w.instruction), style, targetId: target.id, box: target.box };
  }
  return null;
}

/**
 * One task of a random template and seed in [seedLo, seedHi], or null when
 * that seed's data cannot host the template. With `training`, a task that is
 * not a training task is a bug in the caller's seed range (`who` says whose).
 */
export function drawTask(rng: Random, templates: readonly AnyTemplate[], seedLo: number, seedHi: number, training: boolean, who: string): Task | null {
  const template = rng.pick(templates);
  const seed = rng.int(seedLo, seedHi);
  let task: Task;
  try {
    task = makeTask(template, seed, rng.fork(seed));
  } catch {
    return null;
  }
  if (training && !isTrainingTask(task)) throw new Error(`${who}: ${task.id} is not a training task`);
  return task;
}

function draw(rng: Random, size: number, templates: readonly AnyTemplate[], seedLo: number, seedHi: number, styles: readonly RefStyle[], training: boolean): GrounderExample[] {
  const out: GrounderExample[] = [];
  for (let guard = 0; out.length < size && guard < size * 20; guard++) {
    const task = drawTask(rng, templates, seedLo, seedHi, training, 'grounder curriculum');
    if (!task) continue;
    const e = exampleFromTask(rng, task, styles);
    if (e) out.push(e);
  }
  return out;
}

/** `size` training examples of the slice, deterministic from `rng`. */
export function sliceTrainingExamples(rng: Random, size: number, slice: GrounderSlice = {}): GrounderExample[] {
  return draw(rng, size, templatesOf(TRAINING_TEMPLATES, slice), 1, TEST_SEED_BASE - 100, slice.styles ?? REF_STYLES, true);
}

/**
 * `size` held-out examples of the slice: seeds at or above TEST_SEED_BASE;
 * templates 'training' (held-out seeds only) or 'all' (also the slice's
 * held-out templates and sites).
 */
export function sliceHeldOutExamples(seed: number, size: number, slice: GrounderSlice = {}, templates: 'training' | 'all' = 'training'): GrounderExample[] {
  const pool = templates === 'all' ? TEMPLATES : TRAINING_TEMPLATES;
  return draw(new Random(seed).fork('held-out'), size, templatesOf(pool, slice), TEST_SEED_BASE, 2 * TEST_SEED_BASE - 100, slice.styles ?? REF_STYLES, false);
}

/**
 * Batches of `batchSize` from a pool of examples, in shuffled epochs drawn
 * from `rng`, each painted by `paint` (syntheticScreenImage in Node, the
 * real renderer's pixels in the browser). Every batch has the same size.
 */
export function grounderBatches(
  rng: Random,
  tok: Tokenizer,
  cfg: GrounderConfig,
  pool: readonly GrounderExample[],
  batchSize: number,
  paint: (screen: Screen) => Float32Array = syntheticScreenImage,
): () => GrounderBatch {
  if (pool.length === 0) throw new Error('grounderBatches: empty pool');
  let order: number[] = [];
  return () => {
    while (order.length < batchSize) order = [...order, ...rng.shuffle(pool.map((_, i) => i))];
    return grounderBatch(tok, cfg, order.splice(0, batchSize).map((i) => pool[i]), paint);
  };
}
