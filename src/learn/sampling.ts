/**
 * Sampling on read-back arrays. Models hand back logits or probabilities
 * (await data()), and the draws happen here in plain TypeScript from the
 * seeded Random, so WebGPU and WASM runs of the same seed sample the same
 * tokens and points. Arithmetic is in float64.
 */
import type { Random } from './random';

/** Index of the largest value (the first on ties). */
export function argmax(values: ArrayLike<number>): number {
  let best = 0;
  for (let i = 1; i < values.length; i++) if (values[i] > values[best]) best = i;
  return best;
}

/** log softmax of one row of logits, stable (subtracts the max); −∞ logits stay −∞. */
export function logSoftmaxRow(logits: ArrayLike<number>): Float64Array {
  let max = -Infinity;
  for (let i = 0; i < logits.length; i++) max = Math.max(max, logits[i]);
  if (max === -Infinity) throw new Error('logSoftmaxRow: every logit is −∞');
  let z = 0;
  for (let i = 0; i < logits.length; i++) z += Math.exp(logits[i] - max);
  const lse = max + Math.log(z);
  const out = new Float64Array(logits.length);
  for (let i = 0; i < logits.length; i++) out[i] = logits[i] - lse;
  return out;
}

export function softmaxRow(logits: ArrayLike<number>): Float64Array {
  return logSoftmaxRow(logits).map(Math.exp);
}

/** logits / temperature; temperature must be > 0 (use argmax for greedy). */
export function withTemperature(logits: ArrayLike<number>, temperature: number): Float64Array {
  if (!(temperature > 0)) throw new Error(`withTemperature: temperature must be > 0; got ${temperature}`);
  return Float64Array.from(logits, (x) => x / temperature);
}

/** Keep the k largest logits (ties at the k-th value all stay), the rest become −∞. */
export function topK(logits: ArrayLike<number>, k: number): Float64Array {
  const out = Float64Array.from(logits);
  if (!Number.isInteger(k) || k < 1) throw new Error(`topK: k must be an integer ≥ 1; got ${k}`);
  if (k >= out.length) return out;
  const kth = Float64Array.from(out).sort().reverse()[k - 1];
  for (let i = 0; i < out.length; i++) if (out[i] < kth) out[i] = -Infinity;
  return out;
}

/**
 * One draw from a categorical distribution by inverse CDF with one uniform
 * from `rng`. `probs` need not sum to exactly 1 (float32 read-back): they are
 * scaled by their sum. Zero-probability entries are never drawn.
 */
export function sampleCategorical(probs: ArrayLike<number>, rng: Random): number {
  let total = 0;
  for (let i = 0; i < probs.length; i++) {
    if (!(probs[i] >= 0)) throw new Error(`sampleCategorical: probability ${i} is ${probs[i]}`);
    total += probs[i];
  }
  if (!(total > 0)) throw new Error('sampleCategorical: probabilities sum to 0');
  const u = rng.next() * total;
  let acc = 0;
  let last = -1;
  for (let i = 0; i < probs.length; i++) {
    if (probs[i] === 0) continue;
    acc += probs[i];
    last = i;
    if (u < acc) return i;
  }
  return last; // rounding left u at the very top: the last possible entry
}

export interface Draw {
  index: number;
  /** log-prob of the drawn index under the distribution it was drawn from (after temperature and top-k). */
  logProb: number;
}

/** Sample from logits with optional temperature (default 1) and top-k. */
export function sampleFromLogits(logits: ArrayLike<number>, rng: Random, opts: { temperature?: number; topK?: number } = {}): Draw {
  let l: ArrayLike<number> = opts.temperature === undefined ? logits : withTemperature(logits, opts.temperature);
  if (opts.topK !== undefined) l = topK(l, opts.topK);
  const logp = logSoftmaxRow(l);
  const index = sampleCategorical(logp.map(Math.exp), rng);
  return { index, logProb: logp[index] };
}

/** One draw per row of a row-major [rows, cols] block of logits (a batch read back from the GPU). */
export function sampleRows(
  logits: ArrayLike<number>,
  rows: number,
  cols: number,
  rng: Random,
  opts: { temperature?: number; topK?: number } = {},
): Draw[] {
  if (logits.length !== rows * cols) throw new Error(`sampleRows: ${logits.length} values are not ${rows}×${cols}`);
  const out: Draw[] = [];
  for (let r = 0; r < rows; r++) {
    const row = Array.prototype.slice.call(logits, r * cols, (r + 1) * cols) as number[];
    out.push(sampleFromLogits(row, rng, opts));
  }
  return out;
}
