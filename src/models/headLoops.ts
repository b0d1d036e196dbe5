/**
 * Attention's head split and merge as one permutation each: [B, T, H·dh]
 * ↔ [B·H, T, dh], what layers.ts does with a reshape, a transpose and a
 * reshape (three kernels each way, and three more for each gradient). Each
 * is the other's gradient; values are moved, never computed.
 */

/** Copies between the merged layout [B, T, H·dh] and the split one [B·H, T, dh], in the direction `split` says. */
function permuteHeads(x: Float32Array, b: number, t: number, heads: number, out: Float32Array, split: boolean): void {
  const dh = x.length / (b * t * heads);
  const d = heads * dh;
  for (let i = 0; i < b; i++)
    for (let h = 0; h < heads; h++)
      for (let s = 0; s < t; s++) {
        const merged = (i * t + s) * d + h * dh;
        const parted = ((i * heads + h) * t + s) * dh;
        const [from, to] = split ? [merged, parted] : [parted, merged];
        for (let c = 0; c < dh; c++) out[to + c] = x[from + c];
      }
}

/** x [B, T, H·dh] → out [B·H, T, dh]. */
export const splitHeadsInto = (x: Float32Array, b: number, t: number, heads: number, out: Float32Array): void => permuteHeads(x, b, t, heads, out, true);

/** x [B·H, T, dh] → out [B, T, H·dh]. */
export const mergeHeadsInto = (x: Float32Array, b: number, t: number, heads: number, out: Float32Array): void => permuteHeads(x, b, t, heads, out, false);
