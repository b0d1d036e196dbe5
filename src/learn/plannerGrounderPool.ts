/**
 * The pool of grounders the planner's reward asks (Co-EPG's C-DREM): each
 * member turns (screen, instruction text) into a point and its confidence in
 * it, and carries a fixed prior σ. planReward weighs the members' hits by
 * softmax(σ·c).
 *
 * Members are an interface, so the pool can hold trained neural grounders
 * (neuralPoolGrounder: greedy cell, confidence = that cell's heat-map mass),
 * and, where no trained grounder exists yet, honest rule-based ones built on
 * the verifier (verifierGrounder: the resolved element's centre with
 * confidence 1, nothing for an ambiguous or unresolved reference). A
 * verifier grounder restricted to some referring styles stands for a
 * grounder that only understands those (e.g. one that can read text but not
 * positions), which is what makes the reward prefer some styles.
 */
import * as tf from '../models/tf';
import { CANVAS_HEIGHT, CANVAS_WIDTH, GRID_CELLS, IMAGE_FLOATS, validCells } from '../models/canvas';
import { encodeScreens, greedyPoints, groundOnScreens, pickScreens, type GrounderConfig } from '../models/grounder';
import { instructionArrays, instructionTensors, setInstruction } from '../models/instructionBatch';
import type { ParamMap } from '../models/params';
import { syntheticScreenImage } from '../models/rasterize';
import { parseInstruction } from '../text/grammar';
import type { Tokenizer } from '../text/tokenizer';
import { resolveRef } from '../world/verifier';
import type { RefStyle, Screen } from '../world/types';
import type { Grounding, Point } from './rewards';

export interface GroundingQuery {
  screen: Screen;
  instruction: string;
}

export interface GroundingAnswer {
  /** Where it would act, in screen pixels; null when it gives no point. */
  point: Point | null;
  /** Its confidence in that point, in [0, 1]. */
  confidence: number;
}

export interface PoolGrounder {
  name: string;
  /** σ: the fixed prior trust (Co-EPG 1 : 1 : 2, the current grounder largest). */
  prior: number;
  /** Answers for a batch of queries, in order. */
  ground(queries: readonly GroundingQuery[]): Promise<GroundingAnswer[]>;
}

/** A pool member from a one-query function `(screen, instructionText) → {point, confidence}`. */
export function poolGrounder(name: string, prior: number, fn: (screen: Screen, instruction: string) => GroundingAnswer): PoolGrounder {
  return { name, prior, ground: async (qs) => qs.map((q) => fn(q.screen, q.instruction)) };
}

const NO_POINT: GroundingAnswer = { point: null, confidence: 0 };

/**
 * Rule-based grounder from the verifier: parse the instruction, resolve its
 * reference on the screen; one element → its centre, confidence 1; ambiguous,
 * unresolved, unparseable or target-less → no point. With `styles`, only
 * references of those styles are understood.
 */
export function verifierGrounder(opts: { name?: string; prior?: number; styles?: readonly RefStyle[] } = {}): PoolGrounder {
  const styles = opts.styles;
  return poolGrounder(opts.name ?? (styles ? `verifier(${styles.join(',')})` : 'verifier'), opts.prior ?? 1, (screen, text) => {
    const ref = parseInstruction(text)?.ref;
    if (!ref || (styles && !styles.includes(ref.style))) return NO_POINT;
    const r = resolveRef(screen, ref);
    if (r.kind !== 'element') return NO_POINT;
    const box = screen.elements.find((e) => e.id === r.id)?.box;
    return box ? { point: { x: box.x + box.w / 2, y: box.y + box.h / 2 }, confidence: 1 } : NO_POINT;
  });
}

export interface NeuralPoolOptions {
  name?: string;
  prior?: number;
  /** Screens to pixels: syntheticScreenImage in Node, the Canvas renderer in the browser. */
  paint?: (screen: Screen) => Float32Array;
  /** Queries per forward; the last chunk is padded to it so shapes stay fixed. */
  batchSize?: number;
}

/**
 * A neural grounder as a pool member: the greedy (arg-max) cell's point, and
 * as confidence the heat-map mass of that cell (GroundedPoint.prob).
 * Reads back with await data(); frees every tensor it makes.
 */
export function neuralPoolGrounder(params: ParamMap, cfg: GrounderConfig, tok: Tokenizer, opts: NeuralPoolOptions = {}): PoolGrounder {
  const paint = opts.paint ?? syntheticScreenImage;
  const size = opts.batchSize ?? 16;
  return {
    name: opts.name ?? 'grounder',
    prior: opts.prior ?? 2,
    async ground(queries) {
      const out: GroundingAnswer[] = [];
      const images = new Map<Screen, Float32Array>();
      for (let start = 0; start < queries.length; start += size) {
        const chunk = queries.slice(start, start + size);
        // Each distinct screen is encoded once (stem and glyph reader are most of a grounding); a GRPO group's G instructions share one.
        const screens: Screen[] = [];
        const rows = new Int32Array(size);
        const text = instructionArrays(size, cfg);
        const valid = new Float32Array(size * GRID_CELLS);
        for (let i = 0; i < size; i++) {
          const q = chunk[Math.min(i, chunk.length - 1)];
          let at = screens.indexOf(q.screen);
          if (at < 0) at = screens.push(q.screen) - 1;
          rows[i] = at;
          setInstruction(text, i, tok, cfg, q.instruction);
          valid.set(validCells(q.screen.platform), i * GRID_CELLS);
        }
        const img = new Float32Array(screens.length * IMAGE_FLOATS);
        const screenValid = new Float32Array(screens.length * GRID_CELLS);
        screens.forEach((screen, j) => {
          let pix = images.get(screen);
          if (!pix) images.set(screen, (pix = paint(screen)));
          img.set(pix, j * IMAGE_FLOATS);
          screenValid.set(validCells(screen.platform), j * GRID_CELLS);
        });
        const res = tf.tidy(() => {
          const encoded = encodeScreens(params, cfg, tf.tensor4d(img, [screens.length, CANVAS_HEIGHT, CANVAS_WIDTH, 3], 'float32'), tf.tensor2d(screenValid, [screens.length, GRID_CELLS], 'float32'));
          const o = groundOnScreens(params, cfg, pickScreens(encoded, tf.tensor1d(rows, 'int32')), 1, {
            ...instructionTensors(text, cfg),
            valid: tf.tensor2d(valid, [size, GRID_CELLS], 'float32'),
          });
          return { logits: o.logits, offsets: o.offsets };
        });
        const points = await greedyPoints(res);
        tf.dispose([res.logits, res.offsets]);
        for (let i = 0; i < chunk.length; i++) out.push({ point: { x: points[i].x, y: points[i].y }, confidence: points[i].prob });
      }
      return out;
    },
  };
}

/** Every member's answer to every query, as planReward's Grounding (prior attached): [query][member]. */
export async function groundWithPool(pool: readonly PoolGrounder[], queries: readonly GroundingQuery[]): Promise<Grounding[][]> {
  // One member at a time: neural members hold a batch of images each, no need to hold them all at once.
  const answers: GroundingAnswer[][] = [];
  for (const g of pool) answers.push(await g.ground(queries));
  return queries.map((_, i) => pool.map((g, j) => ({ point: answers[j][i].point, confidence: answers[j][i].confidence, prior: g.prior })));
}
