/**
 * The log-probability of one picked column per row of logits, and its
 * gradient, in plain loops: what the WASM backend runs as one kernel each
 * way (workers/wasmKernels.ts) where the tensor path takes a log-softmax, a
 * one-hot, a product and a sum, and their gradients, over every column. A
 * planner step's output rows are [B·C, V] with V = 2,756, so those full-width
 * passes were about a fifth of a planner SFT step on WASM (npm run bench).
 *
 * The forward keeps the softmax it computes, so the gradient takes no exp.
 * With `mask` (additive, as a decoding constraint's allowedMask), the rows
 * are logits + mask. A pick outside [0, cols) gives log-prob 0 and no
 * gradient, as the one-hot product does. Sums are in double precision.
 */
import { expOfNonPositive } from './fastExp';

/** logp[r] = z[r, pick[r]] − log Σ_c exp z[r, c] and probs = softmax(z) by rows, with z = logits (+ mask). */
export function pickedLogProbInto(logits: Float32Array, cols: number, pick: Int32Array, mask: Float32Array | null, logp: Float32Array, probs: Float32Array): void {
  for (let r = 0, at = 0; r < pick.length; r++, at += cols) {
    let max = -Infinity;
    for (let c = at; c < at + cols; c++) {
      const z = mask ? logits[c] + mask[c] : logits[c];
      if (z > max) max = z;
    }
    let sum = 0;
    for (let c = at; c < at + cols; c++) {
      const e = expOfNonPositive((mask ? logits[c] + mask[c] : logits[c]) - max);
      probs[c] = e;
      sum += e;
    }
    const inv = 1 / sum;
    for (let c = at; c < at + cols; c++) probs[c] *= inv;
    const k = pick[r];
    logp[r] = k >= 0 && k < cols ? (mask ? logits[at + k] + mask[at + k] : logits[at + k]) - max - Math.log(sum) : 0;
  }
}

/** d logits[r, c] = dy[r] · (1[c = pick[r]] − probs[r, c]); rows whose pick is out of range get 0. */
export function pickedLogProbGradInto(probs: Float32Array, cols: number, pick: Int32Array, dy: Float32Array, out: Float32Array): void {
  for (let r = 0, at = 0; r < pick.length; r++, at += cols) {
    const k = pick[r];
    if (!(k >= 0 && k < cols)) {
      out.fill(0, at, at + cols);
      continue;
    }
    const g = dy[r];
    for (let c = at; c < at + cols; c++) out[c] = -g * probs[c];
    out[at + k] += g;
  }
}
