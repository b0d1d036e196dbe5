/**
 * Click-inside-box accuracy of a grounder (the ScreenSpot measure, METHOD.md
 * §6): the greedy point (arg-max cell plus its offset) counts when it lies
 * inside the true box, edges included. Reported overall and split by
 * referring style, platform and, for suite queries, by split; also the mean
 * dense point reward of the greedy point, a finer signal than hit-or-miss.
 * An untrained model evaluated here is the "before" baseline.
 */
import { GRID_CELLS, pointOfCell } from '../models/canvas';
import { grounderForward, type GroundedPoint, type GrounderConfig } from '../models/grounder';
import { grounderBatch, grounderTensors, type GrounderExample } from '../models/grounderData';
import type { ParamMap } from '../models/params';
import { syntheticScreenImage } from '../models/rasterize';
import * as tf from '../models/tf';
import { printInstruction } from '../text/grammar';
import type { Tokenizer } from '../text/tokenizer';
import { screenOf } from '../world/env';
import type { GroundingQuery, GroundingSplit } from '../world/suites';
import { stateBefore } from '../world/suites';
import type { RefStyle, Screen, Task } from '../world/types';
import { REF_STYLES } from '../world/types';
import { exampleFromTask } from './grounderCurriculum';
import type { Random } from './random';
import { densePointReward, insideBox } from './rewards';

/** A grounding example, optionally tagged with the benchmark split it came from. */
export type GroundingItem = GrounderExample & { split?: string };

export interface AccuracyCell {
  hits: number;
  n: number;
  accuracy: number;
}

export interface GrounderEval extends AccuracyCell {
  /** Mean dense point reward (1·format + 2·(inside + decay), in [1, 5]) of the greedy points. */
  meanReward: number;
  /**
   * The sampling policy's expectations, exact from the heat map (no draws):
   * probability that a sampled point lands in the box, and the mean dense
   * reward of a sampled point. GRPO optimises the latter.
   */
  expectedHit: number;
  expectedReward: number;
  byStyle: Partial<Record<RefStyle, AccuracyCell>>;
  byPlatform: Partial<Record<string, AccuracyCell>>;
  bySplit: Partial<Record<string, AccuracyCell>>;
  /** Each item's greedy point and whether it hit, in item order. */
  points: { point: GroundedPoint; hit: boolean }[];
}

/** Suite queries (buildSuites(...).grounding) as grounding items, each tagged with its split. */
export function groundingItems(grounding: Partial<Record<GroundingSplit, readonly GroundingQuery[]>>): GroundingItem[] {
  const out: GroundingItem[] = [];
  for (const [split, queries] of Object.entries(grounding) as [GroundingSplit, readonly GroundingQuery[]][]) {
    for (const q of queries) {
      const screen = screenOf(stateBefore(q.task, q.stepIndex));
      out.push({
        taskId: q.task.id,
        stepIndex: q.stepIndex,
        screen,
        platform: q.task.platform,
        instruction: printInstruction(q.instruction),
        style: q.instruction.ref?.style ?? 'text',
        targetId: q.targetId,
        box: q.box,
        split,
      });
    }
  }
  return out;
}

/**
 * Grounding examples from given tasks (e.g. buildSuites' held-out web and
 * mobile tasks), written like grounderExamples writes training ones: one
 * targeted oracle step per task, an instruction in a style from `styles`.
 * Use it to evaluate styles the ScreenSpot-like suite does not cover
 * (position, relation, colour, function) on held-out seeds and sites.
 */
export function groundingItemsFromTasks(rng: Random, tasks: readonly Task[], styles: readonly RefStyle[] = REF_STYLES, split?: string): GroundingItem[] {
  const out: GroundingItem[] = [];
  for (const task of tasks) {
    const e = exampleFromTask(rng, task, styles);
    if (e) out.push({ ...e, split });
  }
  return out;
}

function tally(into: Partial<Record<string, AccuracyCell>>, key: string | undefined, hit: boolean): void {
  if (key === undefined) return;
  const c = (into[key] ??= { hits: 0, n: 0, accuracy: 0 });
  c.n++;
  if (hit) c.hits++;
  c.accuracy = c.hits / c.n;
}

export interface EvalGrounderOptions {
  /** Pixels of a screen; syntheticScreenImage in Node, the real renderer in the browser. */
  paint?: (screen: Screen) => Float32Array;
  /** Forward batch size (default 16). Batches are padded to it so shapes repeat. */
  batchSize?: number;
  /** Awaited after each batch with the items done so far (for progress, and to let a worker read its messages). */
  onBatch?: BatchHook;
}

export type BatchHook = (done: number, total: number) => void | Promise<void>;

export async function evalGrounder(
  params: ParamMap,
  cfg: GrounderConfig,
  tok: Tokenizer,
  items: readonly GroundingItem[],
  opts: EvalGrounderOptions = {},
): Promise<GrounderEval> {
  const size = opts.batchSize ?? 16;
  const paint = opts.paint ?? syntheticScreenImage;
  const res: GrounderEval = { hits: 0, n: 0, accuracy: 0, meanReward: 0, expectedHit: 0, expectedReward: 0, byStyle: {}, byPlatform: {}, bySplit: {}, points: [] };
  let rewardSum = 0;
  let hitMass = 0;
  let expectedSum = 0;
  for (let start = 0; start < items.length; start += size) {
    const chunk = items.slice(start, start + size);
    // Pad the last batch with copies of its first item so every forward has the same shape.
    const padded = [...chunk, ...Array.from({ length: size - chunk.length }, () => chunk[0])];
    const batch = grounderBatch(tok, cfg, padded, paint);
    const out = tf.tidy(() => {
      const o = grounderForward(params, cfg, grounderTensors(batch, cfg));
      return { probs: tf.softmax(o.logits), offsets: o.offsets };
    });
    const [probs, offsets] = (await Promise.all([out.probs.data(), out.offsets.data()])) as Float32Array[];
    tf.dispose([out.probs, out.offsets]);
    chunk.forEach((item, i) => {
      let best = 0;
      for (let c = 0; c < GRID_CELLS; c++) {
        const pc = probs[i * GRID_CELLS + c];
        if (pc > probs[i * GRID_CELLS + best]) best = c;
        if (pc < 1e-7) continue; // padding cells and negligible mass
        const at = pointOfCell(c, offsets[(i * GRID_CELLS + c) * 2], offsets[(i * GRID_CELLS + c) * 2 + 1]);
        const r = densePointReward(at, item.box, item.screen);
        hitMass += pc * r.base;
        expectedSum += pc * r.total;
      }
      const p = probs[i * GRID_CELLS + best];
      const point: GroundedPoint = { cell: best, ...pointOfCell(best, offsets[(i * GRID_CELLS + best) * 2], offsets[(i * GRID_CELLS + best) * 2 + 1]), prob: p, logProb: Math.log(p) };
      const hit = insideBox(point, item.box);
      rewardSum += densePointReward(point, item.box, item.screen).total;
      res.n++;
      if (hit) res.hits++;
      tally(res.byStyle, item.style, hit);
      tally(res.byPlatform, item.platform, hit);
      tally(res.bySplit, item.split, hit);
      res.points.push({ point, hit });
    });
    await opts.onBatch?.(start + chunk.length, items.length);
  }
  res.accuracy = res.n ? res.hits / res.n : 0;
  res.meanReward = res.n ? rewardSum / res.n : 0;
  res.expectedHit = res.n ? hitMass / res.n : 0;
  res.expectedReward = res.n ? expectedSum / res.n : 0;
  return res;
}

/** "0.123 (12/97); text 0.1 (2/20), …" for test logs and reports. */
export function formatGrounderEval(e: GrounderEval): string {
  const part = (name: string, c: AccuracyCell) => `${name} ${c.accuracy.toFixed(3)} (${c.hits}/${c.n})`;
  const group = (r: Partial<Record<string, AccuracyCell>>) =>
    Object.entries(r)
      .map(([k, c]) => part(k, c as AccuracyCell))
      .join(', ');
  const splits = Object.keys(e.bySplit).length ? `; splits: ${group(e.bySplit)}` : '';
  return `${part('accuracy', e)}, mean reward ${e.meanReward.toFixed(3)}, policy hit ${e.expectedHit.toFixed(3)}, policy reward ${e.expectedReward.toFixed(3)}; styles: ${group(e.byStyle)}; platforms: ${group(e.byPlatform)}${splits}`;
}
