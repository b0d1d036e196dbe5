/**
 * The grounder: screenshot pixels + one instruction → a heat map over the
 * canvas's 8-px cells and an offset inside each cell → a point.
 *
 *   image [B,208,200,3] ─4×4 patches→ dense → conv3×3 ─2×2→ dense  (stem: glyph-sized detail, 1 cell = 8 px)
 *        + row/column position embeddings, FiLM by the pooled instruction
 *   → regions: 2×2 cells (16 px) averaged into a 13×13 grid; `layers` blocks of
 *     self-attention over regions, cross-attention to the instruction's
 *     tokens, MLP (a region pools a word's or widget's features, the way
 *     that reading worked in the design's prototype)
 *   → back to cells: each cell adds its region's features, then one more
 *     cross-attention to the instruction and an MLP, per cell
 *   → logit per cell = ⟨query(instruction), key(cell)⟩/√d + bias(cell); offset = sigmoid(dense(cell))
 *
 * Self-attention runs over the 169 regions, not the 650 cells: batched
 * matMul on WASM runs near 1 GFLOP/s, and 650² attention made a tiny step
 * take seconds.
 *
 * The instruction encoder embeds each token and, added to it, the letters of
 * its word (tokenizer.encodeWithChars), so a word never seen as a token is
 * still spelled out for matching against what the stem reads.
 *
 * The policy for GRPO is over cells (a categorical on the masked logits);
 * the in-cell offset is regressed, not sampled.
 */
import * as tf from './tf';
import { maskOf, oneHotFloat } from './dtype';
import type { Random } from '../learn/random';
import { SPECIAL, WORD_CHAR_CLASSES } from '../text/tokenizer';
import { CANVAS_HEIGHT, CANVAS_WIDTH, CELL, GRID_CELLS, GRID_COLS, GRID_ROWS, pointOfCell } from './canvas';
import {
  attention,
  attentionSpecs,
  block,
  blockSpecs,
  conv3x3,
  conv3x3Specs,
  dense,
  denseSpecs,
  embedding,
  embeddingSpecs,
  keyPaddingMask,
  layerNorm,
  layerNormSpecs,
  MASKED,
  mlp,
  mlpSpecs,
  spaceToDepth,
} from './layers';
import { get, initParams, normal, type ParamMap, type Params, type ParamSpecs } from './params';

export interface GrounderConfig {
  model: 'grounder';
  vocabSize: number;
  maxTokens: number; // instruction length T (bos + tokens, right-padded)
  charLength: number; // letters per token's word, L
  stem: [number, number]; // channels of the 4-px patch layer and of the 3×3 conv
  dim: number;
  heads: number;
  textLayers: number;
  layers: number;
}

/** The tensors of one batch. */
export interface GrounderInputs {
  images: tf.Tensor4D; // [B, CANVAS_HEIGHT, CANVAS_WIDTH, 3] float32 in [0, 1]
  tokens: tf.Tensor2D; // [B, T] int32, bos first, SPECIAL.pad after the end
  chars: tf.Tensor3D; // [B, T, L] int32 letter classes (WORD_CHAR_CLASSES)
  valid: tf.Tensor2D; // [B, GRID_CELLS] float32, 1 on the screen, 0 on the canvas padding
}

// A type alias (not an interface) so that it is a TensorContainer and can be returned from tf.tidy.
export type GrounderOutput = {
  logits: tf.Tensor2D; // [B, GRID_CELLS], padding cells at MASKED
  offsets: tf.Tensor3D; // [B, GRID_CELLS, 2] in-cell (x, y) in [0, 1]
  embedding: tf.Tensor2D; // [B, 2·dim]: pooled instruction ⊕ heat-map-weighted cell features (diversity filter)
};

export function grounderSpecs(cfg: GrounderConfig): ParamSpecs {
  const d = cfg.dim;
  const [c1, c2] = cfg.stem;
  const s: ParamSpecs = {
    ...denseSpecs('stem.patch', 48, c1, Math.sqrt(2 / 48)),
    ...conv3x3Specs('stem.conv', c1, c2),
    ...denseSpecs('stem.proj', 4 * c2, d),
    'pos.row': { shape: [GRID_ROWS, d], init: normal(0.1) },
    'pos.col': { shape: [GRID_COLS, d], init: normal(0.1) },
    ...embeddingSpecs('text.tok', cfg.vocabSize, d),
    ...denseSpecs('text.chars', cfg.charLength * WORD_CHAR_CLASSES, d, 0.1),
    'text.pos': { shape: [cfg.maxTokens, d], init: normal(0.1) },
    ...layerNormSpecs('text.ln', d),
    ...denseSpecs('film', d, 2 * d, 0.02),
    ...layerNormSpecs('fine.ln1', d),
    ...attentionSpecs('fine.cross', d),
    ...layerNormSpecs('fine.ln2', d),
    ...mlpSpecs('fine.mlp', d, 2 * d),
    ...layerNormSpecs('head.ln', d),
    ...denseSpecs('head.q', d, d),
    ...denseSpecs('head.k', d, d),
    ...denseSpecs('head.bias', d, 1, 0.02),
    ...denseSpecs('head.offset', d, 2, 0.02),
  };
  for (let i = 0; i < cfg.textLayers; i++) Object.assign(s, blockSpecs(`text.blocks.${i}`, d));
  for (let i = 0; i < cfg.layers; i++) Object.assign(s, blockSpecs(`blocks.${i}`, d, d));
  return s;
}

export function initGrounder(rng: Random, cfg: GrounderConfig): Params {
  return initParams(rng, grounderSpecs(cfg));
}

/** Mean over the valid positions: x [B, T, d], valid [B, T] → [B, d]. */
function maskedMean(x: tf.Tensor, valid: tf.Tensor): tf.Tensor2D {
  const w = tf.expandDims(valid.dtype === 'bool' ? maskOf(valid) : valid, 2);
  return tf.div(tf.sum(tf.mul(x, w), 1), tf.maximum(tf.sum(w, 1), 1)) as tf.Tensor2D;
}

/** Instruction features [B, T, d] and its validity [B, T]. */
function encodeInstruction(p: ParamMap, cfg: GrounderConfig, tokens: tf.Tensor2D, chars: tf.Tensor3D): { text: tf.Tensor; valid: tf.Tensor2D } {
  const [b, t] = tokens.shape;
  const valid = maskOf(tf.notEqual(tokens, tf.scalar(SPECIAL.pad, 'int32'))) as tf.Tensor2D;
  const letters = tf.reshape(oneHotFloat(chars, WORD_CHAR_CLASSES), [b, t, cfg.charLength * WORD_CHAR_CLASSES]);
  let x = tf.add(tf.add(embedding(p, 'text.tok', tokens), dense(p, 'text.chars', letters)), get(p, 'text.pos'));
  const mask = keyPaddingMask(valid);
  for (let i = 0; i < cfg.textLayers; i++) x = block(p, `text.blocks.${i}`, x, cfg.heads, mask);
  return { text: layerNorm(p, 'text.ln', x), valid };
}

/**
 * Cell features [B, cells, d] from pixels: 4×4-pixel patches through a dense
 * layer (every glyph pixel pattern is linearly visible), a 3×3 convolution
 * on that 4-px grid (12 px of overlapping context, across cell borders),
 * then 2×2 of those per 8-px cell.
 */
function stem(p: ParamMap, images: tf.Tensor4D): tf.Tensor {
  const b = images.shape[0];
  let x = tf.relu(dense(p, 'stem.patch', spaceToDepth(images, 4))) as tf.Tensor4D; // 4 px grid
  x = tf.relu(conv3x3(p, 'stem.conv', x)) as tf.Tensor4D;
  const cells = dense(p, 'stem.proj', spaceToDepth(x, 2)); // 8 px grid: one position per cell
  const d = cells.shape[3] as number;
  const pos = tf.add(tf.reshape(get(p, 'pos.row'), [GRID_ROWS, 1, d]), tf.reshape(get(p, 'pos.col'), [1, GRID_COLS, d]));
  return tf.reshape(tf.add(cells, pos), [b, GRID_CELLS, d]);
}

/** Regions of 2×2 cells: the grid padded to an even size. */
export const REGION_ROWS = Math.ceil(GRID_ROWS / 2);
export const REGION_COLS = Math.ceil(GRID_COLS / 2);

/** Cell features [B, cells, d] → region means [B, regions, d] (padding cells count as zeros). */
function toRegions(x: tf.Tensor): tf.Tensor {
  const [b, , d] = x.shape;
  const grid = tf.reshape(x, [b, GRID_ROWS, GRID_COLS, d]);
  const padded = tf.pad(grid, [[0, 0], [0, 2 * REGION_ROWS - GRID_ROWS], [0, 2 * REGION_COLS - GRID_COLS], [0, 0]]);
  const blocks = tf.reshape(padded, [b, REGION_ROWS, 2, REGION_COLS, 2, d]);
  return tf.reshape(tf.mean(blocks, [2, 4]), [b, REGION_ROWS * REGION_COLS, d]);
}

/** Region features [B, regions, d] → each cell gets its region's features [B, cells, d]. */
function fromRegions(r: tf.Tensor): tf.Tensor {
  const [b, , d] = r.shape;
  const spread = tf.add(tf.reshape(r, [b, REGION_ROWS, 1, REGION_COLS, 1, d]), tf.zeros([1, 1, 2, 1, 2, d]));
  const grid = tf.reshape(spread, [b, 2 * REGION_ROWS, 2 * REGION_COLS, d]);
  return tf.reshape(tf.slice(grid, [0, 0, 0, 0], [b, GRID_ROWS, GRID_COLS, d]), [b, GRID_CELLS, d]);
}

export function grounderForward(p: ParamMap, cfg: GrounderConfig, inputs: GrounderInputs): GrounderOutput {
  const { images, tokens, chars, valid } = inputs;
  if (images.shape[1] !== CANVAS_HEIGHT || images.shape[2] !== CANVAS_WIDTH) {
    throw new Error(`grounderForward: images must be [B, ${CANVAS_HEIGHT}, ${CANVAS_WIDTH}, 3]; got [${images.shape}]`);
  }
  const d = cfg.dim;
  const { text, valid: textValid } = encodeInstruction(p, cfg, tokens, chars);
  const pooled = maskedMean(text, textValid);
  // FiLM: the instruction scales and shifts every cell before attention mixes them.
  const film = dense(p, 'film', pooled);
  const gamma = tf.expandDims(tf.slice(film, [0, 0], [-1, d]), 1);
  const beta = tf.expandDims(tf.slice(film, [0, d], [-1, d]), 1);
  const cells = tf.add(tf.mul(stem(p, images), tf.add(gamma, 1)), beta);
  const textMask = keyPaddingMask(textValid);
  let r = toRegions(cells);
  const regionMask = keyPaddingMask(tf.greater(tf.squeeze(toRegions(tf.expandDims(valid, 2)), [2]), 0));
  for (let i = 0; i < cfg.layers; i++) r = block(p, `blocks.${i}`, r, cfg.heads, regionMask, text, textMask);
  let h = tf.add(cells, fromRegions(r));
  h = tf.add(h, attention(p, 'fine.cross', layerNorm(p, 'fine.ln1', h), text, cfg.heads, textMask));
  h = tf.add(h, mlp(p, 'fine.mlp', layerNorm(p, 'fine.ln2', h)));
  h = layerNorm(p, 'head.ln', h);
  const q = tf.expandDims(dense(p, 'head.q', pooled), 1); // [B, 1, d]
  const k = dense(p, 'head.k', h); // [B, cells, d]
  const score = tf.mul(tf.sum(tf.mul(q, k), 2), 1 / Math.sqrt(d));
  const bias = tf.squeeze(dense(p, 'head.bias', h), [2]);
  const logits = tf.add(tf.add(score, bias), tf.mul(tf.sub(1, valid), MASKED)) as tf.Tensor2D;
  const offsets = tf.sigmoid(dense(p, 'head.offset', h)) as tf.Tensor3D;
  const attended = tf.sum(tf.mul(tf.expandDims(tf.softmax(logits), 2), h), 1);
  const embeddingOut = tf.concat([pooled, attended], 1) as tf.Tensor2D;
  return { logits, offsets, embedding: embeddingOut };
}

/** The heat map: softmax over cells [B, cells] (padding cells ≈ 0). */
export function heatmap(logits: tf.Tensor2D): tf.Tensor2D {
  return tf.softmax(logits);
}

/** log π(cell) for given cells [B] (int32): the grounder policy's log-prob, differentiable. */
export function cellLogProbs(logits: tf.Tensor2D, cells: tf.Tensor1D): tf.Tensor1D {
  const oh = oneHotFloat(cells, logits.shape[1]);
  return tf.sum(tf.mul(tf.logSoftmax(logits), oh), 1) as tf.Tensor1D;
}

export interface GroundedPoint {
  cell: number;
  x: number; // screen pixels
  y: number;
  prob: number; // heat-map mass of the cell: the grounder's confidence
  logProb: number;
}

function logSoftmaxRow(logits: Float32Array, offset: number, n: number): Float64Array {
  let max = -Infinity;
  for (let i = 0; i < n; i++) max = Math.max(max, logits[offset + i]);
  let z = 0;
  for (let i = 0; i < n; i++) z += Math.exp(logits[offset + i] - max);
  const lz = max + Math.log(z);
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) out[i] = logits[offset + i] - lz;
  return out;
}

function pointAt(cell: number, lp: Float64Array, offsets: Float32Array, row: number): GroundedPoint {
  const o = (row * GRID_CELLS + cell) * 2;
  const { x, y } = pointOfCell(cell, offsets[o], offsets[o + 1]);
  return { cell, x, y, prob: Math.exp(lp[cell]), logProb: lp[cell] };
}

/** The arg-max cell of each row, with its offset: the evaluation point. Reads back with await data(). */
export async function greedyPoints(out: Pick<GrounderOutput, 'logits' | 'offsets'>): Promise<GroundedPoint[]> {
  const [logits, offsets] = await Promise.all([out.logits.data() as Promise<Float32Array>, out.offsets.data() as Promise<Float32Array>]);
  const b = out.logits.shape[0];
  const res: GroundedPoint[] = [];
  for (let r = 0; r < b; r++) {
    const lp = logSoftmaxRow(logits, r * GRID_CELLS, GRID_CELLS);
    let best = 0;
    for (let c = 1; c < GRID_CELLS; c++) if (lp[c] > lp[best]) best = c;
    res.push(pointAt(best, lp, offsets, r));
  }
  return res;
}

/**
 * `count` sampled points per row (GRPO's group), drawn with `rng` from the
 * probabilities read back, so WebGPU and WASM draw the same cells. Returns
 * [B][count]. `temperature` divides the logits before sampling; the
 * logProb reported is under temperature 1 (the policy that is trained).
 */
export async function samplePoints(
  rng: Random,
  out: Pick<GrounderOutput, 'logits' | 'offsets'>,
  count: number,
  temperature = 1,
): Promise<GroundedPoint[][]> {
  const [logits, offsets] = await Promise.all([out.logits.data() as Promise<Float32Array>, out.offsets.data() as Promise<Float32Array>]);
  const b = out.logits.shape[0];
  const res: GroundedPoint[][] = [];
  for (let r = 0; r < b; r++) {
    const lp = logSoftmaxRow(logits, r * GRID_CELLS, GRID_CELLS);
    const scaled = temperature === 1 ? lp : logSoftmaxRow(logits.subarray(r * GRID_CELLS, (r + 1) * GRID_CELLS).map((v) => v / temperature), 0, GRID_CELLS);
    const probs = Array.from(scaled, Math.exp);
    const row: GroundedPoint[] = [];
    for (let g = 0; g < count; g++) row.push(pointAt(sampleIndex(rng, probs), lp, offsets, r));
    res.push(row);
  }
  return res;
}

/** Inverse-CDF draw from (near-)normalised probabilities. */
export function sampleIndex(rng: Random, probs: ArrayLike<number>): number {
  let total = 0;
  for (let i = 0; i < probs.length; i++) total += probs[i];
  let u = rng.next() * total;
  for (let i = 0; i < probs.length; i++) {
    u -= probs[i];
    if (u < 0) return i;
  }
  // Rounding left u ≥ 0: the last index with mass.
  for (let i = probs.length - 1; i >= 0; i--) if (probs[i] > 0) return i;
  return probs.length - 1;
}

/** A heat-map row as a [rows][cols] grid (for the UI and the attention filter). */
export function heatmapGrid(probs: ArrayLike<number>, row = 0): number[][] {
  return Array.from({ length: GRID_ROWS }, (_, r) => Array.from({ length: GRID_COLS }, (_, c) => probs[row * GRID_CELLS + r * GRID_COLS + c]));
}

export { CELL, GRID_CELLS, GRID_COLS, GRID_ROWS };
