/**
 * Supervised fine-tuning of the grounder (../shared/METHOD.md §2, φk = SFT):
 *
 * - cell loss: cross-entropy against a soft target spread over the cells
 *   whose centres lie in the true box, weighted toward the box centre (a
 *   Gaussian in box-normalised coordinates), so a click anywhere in the box
 *   is right but the middle is best;
 * - offset loss: for every target cell, squared error between its in-cell
 *   offset and the point of that cell nearest the box centre, weighted like
 *   the cell target, so whichever box cell wins the arg-max points inward;
 * - optional attention filter (SE-GUI §4): the previous stage's grounder
 *   judges each sample from its heat map; rejected samples get zero loss;
 * - optional LoRA: only the adapters are updated, the base stays frozen.
 *
 * Targets are built on the CPU from the batch's boxes (the world knows them),
 * so a step sends them up once and reads back one small vector.
 */
import * as tf from '../models/tf';
import { adamAtRates, ownRateOf } from '../models/splitAdam';
import { CELL, GRID_CELLS, GRID_COLS, GRID_ROWS } from '../models/canvas';
import { grounderForward, heatmap, type GrounderConfig } from '../models/grounder';
import { grounderTensors, type GrounderBatch } from '../models/grounderData';
import { loraParams, loraTrainables, type Lora } from '../models/lora';
import { trainableVars, type ParamMap, type Params } from '../models/params';
import type { Box } from '../world/types';
import { SCREEN_SIZE } from '../world/types';
import { ATTENTION_TAU, attentionKeep, boxCells, type AttentionVerdict } from './attentionFilter';

/** Width of the centre weighting, in half-box units: a cell at the box edge gets e^(−1/(2·0.5²)) ≈ 0.14 of the centre's weight. */
export const CENTRE_SIGMA = 0.5;
/** Offset targets stay this far inside (0, 1): the sigmoid never reaches the ends. */
const OFFSET_MARGIN = 0.02;

export interface GrounderSftTargets {
  /** [B, GRID_CELLS] soft cell target, each row sums to 1 over the box's cells. */
  cells: Float32Array;
  /** [B, GRID_CELLS, 2] in-cell offset target (x, y) ∈ [0, 1]; meaningful where `cells` > 0. */
  offsets: Float32Array;
}

/** The soft target distribution over one box's cells (cell → weight, summing to 1). */
export function boxTarget(box: Box, sigma: number = CENTRE_SIGMA): Map<number, number> {
  const cells = boxCells(GRID_COLS, GRID_ROWS, CELL, box);
  const cx = box.x + box.w / 2;
  const cy = box.y + box.h / 2;
  const hx = Math.max(box.w / 2, CELL / 2);
  const hy = Math.max(box.h / 2, CELL / 2);
  const w = cells.map((c) => {
    const dx = ((c % GRID_COLS) + 0.5) * CELL - cx;
    const dy = (Math.floor(c / GRID_COLS) + 0.5) * CELL - cy;
    return Math.exp(-((dx / hx) ** 2 + (dy / hy) ** 2) / (2 * sigma * sigma));
  });
  const z = w.reduce((a, b) => a + b, 0);
  return new Map(cells.map((c, i) => [c, w[i] / z]));
}

/** The in-cell offset of the point of `cell` nearest the box centre. */
export function offsetTarget(cell: number, box: Box): [number, number] {
  const x0 = (cell % GRID_COLS) * CELL;
  const y0 = Math.floor(cell / GRID_COLS) * CELL;
  const clamp = (v: number) => Math.min(1 - OFFSET_MARGIN, Math.max(OFFSET_MARGIN, v));
  return [clamp((box.x + box.w / 2 - x0) / CELL), clamp((box.y + box.h / 2 - y0) / CELL)];
}

export function sftTargets(batch: GrounderBatch, sigma: number = CENTRE_SIGMA): GrounderSftTargets {
  const n = batch.examples.length;
  const cells = new Float32Array(n * GRID_CELLS);
  const offsets = new Float32Array(n * GRID_CELLS * 2);
  batch.examples.forEach((e, i) => {
    for (const [c, w] of boxTarget(e.box, sigma)) {
      cells[i * GRID_CELLS + c] = w;
      const [ox, oy] = offsetTarget(c, e.box);
      offsets[(i * GRID_CELLS + c) * 2] = ox;
      offsets[(i * GRID_CELLS + c) * 2 + 1] = oy;
    }
  });
  return { cells, offsets };
}

/** The screen's part of a canvas-sized heat map (row-major, the screen's own grid). */
export function screenHeatmap(probs: ArrayLike<number>, row: number, platform: keyof typeof SCREEN_SIZE): { map: Float32Array; cols: number; rows: number } {
  const cols = Math.ceil(SCREEN_SIZE[platform].width / CELL);
  const rows = Math.ceil(SCREEN_SIZE[platform].height / CELL);
  const map = new Float32Array(cols * rows);
  for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) map[r * cols + c] = probs[row * GRID_CELLS + r * GRID_COLS + c];
  return { map, cols, rows };
}

/**
 * SE-GUI's attention filter over a batch: `previous` (the last stage's
 * grounder) predicts each sample's heat map; a sample is kept only if its
 * max-normalised map exceeds τ somewhere in the true box and its mean in the
 * box exceeds its mean over the screen. The screen, not the padded canvas,
 * is "the whole screen". One read-back.
 */
export async function attentionFilterBatch(previous: ParamMap, cfg: GrounderConfig, batch: GrounderBatch, tau: number = ATTENTION_TAU): Promise<AttentionVerdict[]> {
  const probs = tf.tidy(() => heatmap(grounderForward(previous, cfg, grounderTensors(batch, cfg)).logits));
  const values = (await probs.data()) as Float32Array;
  probs.dispose();
  return batch.examples.map((e, i) => {
    const { map, cols, rows } = screenHeatmap(values, i, e.platform);
    return attentionKeep(map, cols, rows, CELL, e.box, tau);
  });
}

export interface GrounderSftConfig {
  lr: number;
  /** Train only these adapters (created with createLora on the same params, which froze the base). */
  lora?: Lora;
  /** These trainable weights, by name, at their own rate (offsite tuning's weights carried whole). */
  ownRate?: { lr: number; names: readonly string[] };
  /** Parameters left as they are, by name (without LoRA). */
  frozen?: (name: string) => boolean;
  /** SE-GUI attention filter: the previous stage's grounder, and τ (default 0.2). */
  attentionFilter?: { previous: ParamMap; tau?: number };
  /** Weight of the offset loss against the cell loss (default 1). */
  offsetWeight?: number;
  /** Width of the centre weighting (default CENTRE_SIGMA). */
  sigma?: number;
}

export interface GrounderSftStep {
  /** cell + offsetWeight · offset, averaged over kept samples (0 when none was kept). */
  loss: number;
  cellLoss: number;
  offsetLoss: number;
  /** Samples that carried loss (all of them without the attention filter). */
  kept: number;
  /** The attention filter's verdict per sample, when the filter is on. */
  filter?: AttentionVerdict[];
}

export interface GrounderSft {
  /** One update; reads back once (twice with the attention filter, whose verdicts come first). */
  step(batch: GrounderBatch): Promise<GrounderSftStep>;
  /** Its Adam, in the open so that a phase can save and restore its state mid-phase (coevo/phaseJournal.ts). */
  readonly optimizer: tf.Optimizer;
  /** Frees the optimizer's state; the parameters (and adapters) stay the caller's. */
  dispose(): void;
}

/**
 * Cell and offset losses per sample [B] from the model's output and the
 * targets; exported for the gradient check and the engine's metrics.
 */
export function grounderSftLosses(
  logits: tf.Tensor2D,
  offsets: tf.Tensor3D,
  cellTarget: tf.Tensor2D,
  offsetTarget: tf.Tensor3D,
): { cell: tf.Tensor1D; offset: tf.Tensor1D } {
  const cell = tf.neg(tf.sum(tf.mul(cellTarget, tf.logSoftmax(logits)), 1)) as tf.Tensor1D;
  const err = tf.sum(tf.square(tf.sub(offsets, offsetTarget)), 2); // [B, cells]
  const offset = tf.sum(tf.mul(err, cellTarget), 1) as tf.Tensor1D;
  return { cell, offset };
}

export function makeGrounderSft(params: Params, cfg: GrounderConfig, opts: GrounderSftConfig): GrounderSft {
  if (!(opts.lr > 0)) throw new Error(`makeGrounderSft: lr must be > 0; got ${opts.lr}`);
  const lora = opts.lora;
  // Merged adapters are not read by loraParams: training them would change nothing the model computes.
  if (lora?.merged) throw new Error('makeGrounderSft: unmerge the LoRA adapters before training them');
  // Under LoRA the base is frozen except what the caller left trainable (offsite tuning's weights carried whole).
  const base = trainableVars(params, opts.frozen);
  const vars = [...(lora ? loraTrainables(lora) : []), ...base];
  if (vars.length === 0) throw new Error('makeGrounderSft: nothing to train (every parameter is frozen and no LoRA was given)');
  const { optimizer } = adamAtRates(opts.lr, ownRateOf(params, opts.ownRate));
  const offsetWeight = opts.offsetWeight ?? 1;

  async function step(batch: GrounderBatch): Promise<GrounderSftStep> {
    const n = batch.examples.length;
    const filter = opts.attentionFilter ? await attentionFilterBatch(opts.attentionFilter.previous, cfg, batch, opts.attentionFilter.tau) : undefined;
    const keepMask = Float32Array.from(batch.examples, (_, i) => (filter && !filter[i].keep ? 0 : 1));
    const kept = keepMask.reduce((a, b) => a + b, 0);
    // Nothing to learn from: skip the update, so Adam's momentum does not move the weights on zero loss.
    if (kept === 0) return { loss: 0, cellLoss: 0, offsetLoss: 0, kept, filter };
    const targets = sftTargets(batch, opts.sigma);
    const stats = tf.tidy(() => {
      const inputs = grounderTensors(batch, cfg);
      const cellT = tf.tensor2d(targets.cells, [n, GRID_CELLS]);
      const offT = tf.tensor3d(targets.offsets, [n, GRID_CELLS, 2]);
      const keep = tf.tensor1d(keepMask);
      let parts: tf.Tensor[] = [];
      const { grads } = tf.variableGrads(() => {
        const p = lora ? loraParams(params, lora) : params;
        const out = grounderForward(p, cfg, inputs);
        const l = grounderSftLosses(out.logits, out.offsets, cellT, offT);
        const cell = tf.div(tf.sum(tf.mul(l.cell, keep)), kept);
        const offset = tf.div(tf.sum(tf.mul(l.offset, keep)), kept);
        const loss = tf.add(cell, tf.mul(offset, offsetWeight)) as tf.Scalar;
        parts = [tf.keep(loss), tf.keep(cell), tf.keep(offset)];
        return loss;
      }, vars);
      optimizer.applyGradients(grads);
      const s = tf.stack(parts);
      tf.dispose(parts);
      return s;
    });
    const [loss, cellLoss, offsetLoss] = await stats.data();
    stats.dispose();
    return { loss, cellLoss, offsetLoss, kept, filter };
  }

  return { step, optimizer, dispose: () => optimizer.dispose() };
}
