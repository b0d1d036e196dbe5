/**
 * One grounding, fully explained, for the lab's Grounder view and
 * Playground: the grounder's heat map over the screen, its greedy point,
 * a few points sampled from its policy, and — when the true box is known —
 * each point's dense reward (SE-GUI, rewards.ts) and the attention filter's
 * verdict on the map (attentionFilter.ts). The same model code as training
 * and evaluation; only the bookkeeping is for people.
 */
import * as tf from '../models/tf';
import { CANVAS_HEIGHT, CANVAS_WIDTH, CELL, GRID_CELLS, IMAGE_FLOATS, validCells } from '../models/canvas';
import { greedyPoints, grounderForward, heatmap, samplePoints, type GroundedPoint, type GrounderConfig } from '../models/grounder';
import { encodeInstructions, instructionTensors } from '../models/instructionBatch';
import type { ParamMap } from '../models/params';
import type { Tokenizer } from '../text/tokenizer';
import { SCREEN_SIZE, type Box, type Platform } from '../world/types';
import { ATTENTION_TAU, attentionKeep, type AttentionVerdict } from './attentionFilter';
import { screenHeatmap } from './grounderSft';
import type { Random } from './random';
import { densePointReward, type PointReward } from './rewards';

export interface GroundOnceInput {
  /** Canvas floats [CANVAS_HEIGHT, CANVAS_WIDTH, 3] in [0, 1], the screen at the top-left (canvasFromRgba). */
  image: Float32Array;
  platform: Platform;
  instruction: string;
}

export interface GroundOnceOptions {
  /** Points to sample from the heat map (GRPO's group); 0 = none. */
  samples?: number;
  /** Draws the samples; required when samples > 0. */
  rng?: Random;
  /** The true target box: adds dense rewards and the attention verdict. */
  box?: Box;
  tau?: number;
}

/** A point the grounder chose, in screen pixels. */
export interface ScreenPoint {
  x: number;
  y: number;
  cell: number;
  /** Heat-map mass of its cell: the grounder's confidence. */
  prob: number;
  /** The dense point reward against the true box, when one was given. */
  reward?: PointReward;
}

export interface GroundOnceResult {
  /** Softmax over the screen's cells, row-major, cols × rows (the canvas padding is cut off). */
  heat: Float32Array;
  cols: number;
  rows: number;
  cellSize: number;
  width: number;
  height: number;
  greedy: ScreenPoint;
  sampled: ScreenPoint[];
  /** The attention filter on this map, when a box was given. */
  attention?: AttentionVerdict;
}

/** Screen-pixel size of a platform's screen, found from an image size; null when it is neither. */
export function platformOfSize(width: number, height: number): Platform | null {
  for (const p of ['web', 'mobile'] as const) if (SCREEN_SIZE[p].width === width && SCREEN_SIZE[p].height === height) return p;
  return null;
}

/** Grounds one instruction on one screen. Frees every tensor it makes; reads back with await data(). */
export async function groundOnce(params: ParamMap, cfg: GrounderConfig, tok: Tokenizer, input: GroundOnceInput, opts: GroundOnceOptions = {}): Promise<GroundOnceResult> {
  if (input.image.length !== IMAGE_FLOATS) throw new Error(`groundOnce: the image has ${input.image.length} floats; the grounder's canvas needs ${IMAGE_FLOATS} (canvasFromRgba makes them).`);
  const samples = opts.samples ?? 0;
  if (!Number.isInteger(samples) || samples < 0 || samples > 64) throw new Error(`groundOnce: samples must be a whole number from 0 to 64; got ${samples}.`);
  if (samples > 0 && !opts.rng) throw new Error('groundOnce: sampling points needs an rng.');
  const text = encodeInstructions(tok, cfg, [input.instruction]);
  const out = tf.tidy(() => {
    const o = grounderForward(params, cfg, {
      images: tf.tensor4d(input.image, [1, CANVAS_HEIGHT, CANVAS_WIDTH, 3], 'float32'),
      ...instructionTensors(text, cfg),
      valid: tf.tensor2d(validCells(input.platform), [1, GRID_CELLS], 'float32'),
    });
    return { logits: o.logits, offsets: o.offsets, probs: heatmap(o.logits) };
  });
  try {
    const [probs, [greedy], sampled] = await Promise.all([
      out.probs.data() as Promise<Float32Array>,
      greedyPoints(out),
      samples > 0 ? samplePoints(opts.rng as Random, out, samples) : Promise.resolve([[]] as GroundedPoint[][]),
    ]);
    const { map, cols, rows } = screenHeatmap(probs, 0, input.platform);
    const size = SCREEN_SIZE[input.platform];
    const box = opts.box;
    const point = (g: GroundedPoint): ScreenPoint => ({
      x: g.x,
      y: g.y,
      cell: g.cell,
      prob: g.prob,
      ...(box ? { reward: densePointReward(g, box, size) } : {}),
    });
    return {
      heat: map,
      cols,
      rows,
      cellSize: CELL,
      width: size.width,
      height: size.height,
      greedy: point(greedy),
      sampled: sampled[0].map(point),
      ...(box ? { attention: attentionKeep(map, cols, rows, CELL, box, opts.tau ?? ATTENTION_TAU) } : {}),
    };
  } finally {
    tf.dispose([out.logits, out.offsets, out.probs]);
  }
}
