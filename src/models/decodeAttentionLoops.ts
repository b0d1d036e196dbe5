/**
 * One decoding step's attention for every row and head in plain loops: what
 * the WASM backend runs as one kernel (workers/wasmKernels.ts) where
 * plannerCache.ts's extend takes some thirty small tensor ops per layer (split
 * heads, grow the cache, two products each for the prompt's and the
 * generated keys, scale, mask, softmax, merge heads). A decode pays tfjs's
 * cost per kernel on every token, and kernels, not arithmetic, were most of
 * a planner GRPO step (npm run bench: 8,957 kernels, 51 read-backs).
 *
 * Layouts are extend's: queries and the new keys and values [B, d]; caches
 * split by heads [B·h, T, dh] with row b·h + j for row b's head j; the
 * prompt mask [B, P] additive. The same arithmetic as the tensor path
 * (q·k, then × 1/√dh, plus the mask; one softmax over prompt and generated
 * keys), with sums in double precision.
 */
import { expOfNonPositive } from './fastExp';

export interface DecodeAttentionInput {
  q: Float32Array;
  kNew: Float32Array;
  vNew: Float32Array;
  promptK: Float32Array;
  promptV: Float32Array;
  promptMask: Float32Array;
  /** The generated tokens' keys and values so far, [B·h, g, dh]; null before the first. */
  genK: Float32Array | null;
  genV: Float32Array | null;
  rows: number;
  heads: number;
  headDim: number;
  promptLength: number;
  generated: number;
}

/** Writes the merged attention output att [B, d] and the caches grown by the new position, [B·h, g + 1, dh]. */
export function decodeAttentionInto(x: DecodeAttentionInput, att: Float32Array, genKOut: Float32Array, genVOut: Float32Array): void {
  const { heads: h, headDim: dh, promptLength: pl, generated: g } = x;
  const d = h * dh;
  const keys = pl + g + 1;
  const scale = 1 / Math.sqrt(dh);
  const w = new Float64Array(keys);
  const acc = new Float64Array(dh);
  for (let b = 0; b < x.rows; b++) {
    for (let j = 0; j < h; j++) {
      const row = b * h + j;
      const q = b * d + j * dh;
      // The grown caches: the old positions, then this step's key and value.
      const grown = row * (g + 1) * dh;
      if (x.genK && x.genV) {
        genKOut.set(x.genK.subarray(row * g * dh, (row + 1) * g * dh), grown);
        genVOut.set(x.genV.subarray(row * g * dh, (row + 1) * g * dh), grown);
      }
      genKOut.set(x.kNew.subarray(q, q + dh), grown + g * dh);
      genVOut.set(x.vNew.subarray(q, q + dh), grown + g * dh);
      let max = -Infinity;
      for (let t = 0; t < keys; t++) {
        const k = t < pl ? x.promptK : genKOut;
        const at = t < pl ? (row * pl + t) * dh : grown + (t - pl) * dh;
        let dot = 0;
        for (let e = 0; e < dh; e++) dot += x.q[q + e] * k[at + e];
        // The score rounded to float32 as the tensor path's product returns it, then scaled and masked.
        w[t] = Math.fround(dot) * scale + (t < pl ? x.promptMask[b * pl + t] : 0);
        if (w[t] > max) max = w[t];
      }
      let sum = 0;
      for (let t = 0; t < keys; t++) sum += w[t] = expOfNonPositive(w[t] - max);
      acc.fill(0);
      for (let t = 0; t < keys; t++) {
        const v = t < pl ? x.promptV : genVOut;
        const at = t < pl ? (row * pl + t) * dh : grown + (t - pl) * dh;
        const p = w[t] / sum;
        for (let e = 0; e < dh; e++) acc[e] += p * v[at + e];
      }
      for (let e = 0; e < dh; e++) att[q + e] = acc[e];
    }
  }
}
