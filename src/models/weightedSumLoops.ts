/**
 * Σ_f w[b, f] · maps[f][b, n] in plain loops, forward and back: what the
 * WASM backend runs as one kernel each way (workers/wasmKernels.ts) in
 * place of the slice, product and add per map, and their gradients' pads,
 * products, sums and reshapes (grounder.ts weightedSum; about nine kernels
 * per map). Every product and sum is rounded to float32 in the tensor
 * path's order, so the values are its own bit for bit.
 */

/** A map's rows: B of its own, or one row every item shares (shape [1, N]). */
export interface MapRows {
  values: Float32Array;
  shared: boolean;
}

/** out [B, N] = Σ_f w[b, f] · maps[f][b, n], adding the maps in order from the first. */
export function weightedSumInto(w: Float32Array, f: number, maps: readonly MapRows[], n: number, out: Float32Array): void {
  const b = w.length / f;
  for (let i = 0; i < b; i++) {
    for (let j = 0; j < n; j++) {
      let acc = 0;
      for (let k = 0; k < f; k++) {
        const m = maps[k];
        const term = Math.fround(w[i * f + k] * m.values[(m.shared ? 0 : i) * n + j]);
        acc = k === 0 ? term : Math.fround(acc + term);
      }
      out[i * n + j] = acc;
    }
  }
}

/**
 * dw [B, F]: Σ_n dy·map over each row; dmaps[f]: dy · w[b, f], summed over
 * the items for a shared map (item after item, as the backend's Sum adds).
 */
export function weightedSumGradInto(dy: Float32Array, w: Float32Array, f: number, maps: readonly MapRows[], n: number, dw: Float32Array, dmaps: Float32Array[]): void {
  const b = w.length / f;
  for (let k = 0; k < f; k++) {
    const m = maps[k];
    for (let i = 0; i < b; i++) {
      let s = 0;
      for (let j = 0; j < n; j++) s = Math.fround(s + Math.fround(dy[i * n + j] * m.values[(m.shared ? 0 : i) * n + j]));
      dw[i * f + k] = s;
    }
    const d = dmaps[k];
    if (m.shared) {
      for (let j = 0; j < n; j++) {
        let s = 0;
        for (let i = 0; i < b; i++) s = Math.fround(s + Math.fround(dy[i * n + j] * w[i * f + k]));
        d[j] = s;
      }
    } else {
      for (let i = 0; i < b; i++) for (let j = 0; j < n; j++) d[i * n + j] = dy[i * n + j] * w[i * f + k];
    }
  }
}
