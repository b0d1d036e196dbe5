/**
 * The glyph reader's windows, transposed, built in one pass over an array:
 * what the WASM backend runs as one kernel (GLYPH_WINDOWS_T) for the window
 * layer's weight gradient, in place of 36 slices, a concat of 12 million
 * values and a transpose (about a quarter of a tiny grounder SFT step).
 * Row f = (dy·side + dx)·depth + c of the result holds, for every position
 * n = (s·rows + i)·cols + j, the padded block value at [s, i + dy, j + dx, c]:
 * the same layout as glyphReader's windowsOf, transposed.
 */


/** [S, rows + side − 1, cols + side − 1, depth] → [side²·depth + 1, S·rows·cols]: the windows and a last row of ones. */
export const glyphWindowsShape = ([s, pr, pc, depth]: readonly number[], side: number): [number, number] => [side * side * depth + 1, s * (pr - side + 1) * (pc - side + 1)];

/**
 * padded [S, rows + side − 1, cols + side − 1, depth] → [side²·depth + 1,
 * S·rows·cols], into `out` when given (the kernel writes straight into the
 * output's heap memory). The last row is all ones, so the product with the
 * layer's output gradient gives the bias gradient (its column sums) as its
 * last row: a reduction over 83,200 rows that tfjs-wasm's Sum took 50 ms for.
 */
export function glyphWindowsTransposed(padded: Float32Array, shape: readonly number[], side: number, out?: Float32Array): Float32Array {
  const [s, pr, pc, depth] = shape;
  const rows = pr - side + 1;
  const cols = pc - side + 1;
  const [f, n] = glyphWindowsShape(shape, side);
  if (out && out.length !== f * n) throw new Error(`glyphWindowsTransposed: out holds ${out.length} values, not ${f} × ${n}`);
  out ??= new Float32Array(f * n);
  out.fill(1, (f - 1) * n);
  let o = 0;
  for (let dy = 0; dy < side; dy++) {
    for (let dx = 0; dx < side; dx++) {
      for (let c = 0; c < depth; c++) {
        for (let si = 0; si < s; si++) {
          for (let i = 0; i < rows; i++) {
            let at = ((si * pr + i + dy) * pc + dx) * depth + c;
            for (let j = 0; j < cols; j++, at += depth) out[o++] = padded[at];
          }
        }
      }
    }
  }
  return out;
}
