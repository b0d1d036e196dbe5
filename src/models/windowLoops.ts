/**
 * Two window operations of the grounder in plain loops over arrays: what
 * the WASM backend runs as single kernels (workers/wasmKernels.ts) where
 * the tensor path takes dozens of slices, pads, maxima and comparisons.
 *
 * - im2col for a 3×3 window (stride 1, zero padding 1) and its gradient,
 *   the nine shifted views summed back (fastops.ts's im2col3x3).
 * - The pooling and near-max of glyphReader.ts's glyphsNearCells: each
 *   cell's largest glyph reading over its block and the cells around it,
 *   and the index of the reading that won (the first on ties, as
 *   tf.maximum's gradient chooses), so the gradient goes to that one value.
 */

/**
 * Every (pixel, 3×3 neighbour) pair of a [B, H, W, C] grid, dy-major then
 * dx: `visit(from, to)` with the neighbour's offset in the grid (−1 past
 * its edge) and the offset of its C values in the [B, H, W, 9C] windows.
 */
function forEachWindow([b, h, w, c]: readonly number[], visit: (from: number, to: number) => void): void {
  let to = 0;
  for (let bi = 0; bi < b; bi++) {
    for (let y = 0; y < h; y++) {
      for (let xx = 0; xx < w; xx++) {
        for (let dy = -1; dy <= 1; dy++) {
          for (let dx = -1; dx <= 1; dx++) {
            const [sy, sx] = [y + dy, xx + dx];
            visit(sy < 0 || sy >= h || sx < 0 || sx >= w ? -1 : ((bi * h + sy) * w + sx) * c, to);
            to += c;
          }
        }
      }
    }
  }
}

/** x [B, H, W, C] → out [B, H, W, 9C], the nine shifted views side by side (dy-major, then dx). */
export function im2col3x3Into(x: Float32Array, shape: readonly number[], out: Float32Array): void {
  const c = shape[3];
  forEachWindow(shape, (from, to) => (from < 0 ? out.fill(0, to, to + c) : out.set(x.subarray(from, from + c), to)));
}

/** g [B, H, W, 9C] → out [B, H, W, C]: im2col3x3's gradient, each view's part added back where it came from. */
export function col2im3x3Into(g: Float32Array, shape: readonly number[], out: Float32Array): void {
  const c = shape[3];
  out.fill(0);
  forEachWindow(shape, (from, to) => {
    if (from >= 0) for (let ch = 0; ch < c; ch++) out[from + ch] += g[to + ch];
  });
}

/** Offsets of a pool × pool block in the order nested 2×2 maxima visit it (Z order): on ties the first of them wins. */
function zOrder(pool: number): [number, number][] {
  if (pool === 1) return [[0, 0]];
  // The last 2×2 maximum compares the four half-size blocks; each block's winner came first inside it.
  const half = zOrder(pool / 2);
  const size = pool / 2;
  return [[0, 0], [0, 1], [1, 0], [1, 1]].flatMap(([by, bx]) => half.map(([y, x]) => [by * size + y, bx * size + x] as [number, number]));
}

/**
 * x [S, R·pool, C·pool, K] → value [S, R, C, K] and index [S, R, C, K]:
 * each pool × pool block's largest value (glyphReader's max2x2 applied
 * log2(pool) times), then each cell's largest over the cells within
 * `nearRows` rows and `nearCols` columns, the grid's outside counting as 0.
 * index says where in x the winner is (−1 for the outside). On ties the
 * first maximum wins, in the order the tensor path compares: Z order in a
 * block, then the window row by row. The window maximum is taken along each
 * row first, then across the rows, which keeps that same first maximum.
 */
export function nearMaxInto(x: Float32Array, [s, h, w, k]: readonly number[], pool: number, nearRows: number, nearCols: number, value: Float32Array, index: Int32Array): void {
  if (!Number.isInteger(Math.log2(pool)) || h % pool || w % pool) throw new Error(`nearMax: a ${pool}-pool does not tile [${h}, ${w}]`);
  const [r, c] = [h / pool, w / pool];
  const block = Int32Array.from(zOrder(pool), ([by, bx]) => (by * w + bx) * k);
  const cells = s * r * c;
  const pooled = new Float32Array(cells * k);
  const pooledAt = new Int32Array(cells * k);
  for (let si = 0; si < s; si++) {
    for (let y = 0; y < r; y++) {
      for (let xx = 0; xx < c; xx++) {
        const o = ((si * r + y) * c + xx) * k;
        const corner = ((si * h + y * pool) * w + xx * pool) * k;
        for (let ch = 0; ch < k; ch++) {
          let best = -Infinity;
          let at = -1;
          for (let b = 0; b < block.length; b++) {
            const i = corner + block[b] + ch;
            if (x[i] > best) {
              best = x[i];
              at = i;
            }
          }
          pooled[o + ch] = best;
          pooledAt[o + ch] = at;
        }
      }
    }
  }
  // Along each row: the best over the columns within reach, first on ties.
  const rowBest = new Float32Array(cells * k);
  const rowAt = new Int32Array(cells * k);
  for (let row = 0; row < s * r; row++) {
    for (let xx = 0; xx < c; xx++) {
      const o = (row * c + xx) * k;
      for (let ch = 0; ch < k; ch++) {
        let best = -Infinity;
        let at = -1;
        for (let dx = -nearCols; dx <= nearCols; dx++) {
          const sx = xx + dx;
          const inside = sx >= 0 && sx < c;
          const v = inside ? pooled[(row * c + sx) * k + ch] : 0;
          if (v > best) {
            best = v;
            at = inside ? pooledAt[(row * c + sx) * k + ch] : -1;
          }
        }
        rowBest[o + ch] = best;
        rowAt[o + ch] = at;
      }
    }
  }
  // Then over the rows within reach; a row outside the grid is all zeros (the first of them is a zero too).
  for (let si = 0; si < s; si++) {
    for (let y = 0; y < r; y++) {
      for (let xx = 0; xx < c; xx++) {
        const o = ((si * r + y) * c + xx) * k;
        for (let ch = 0; ch < k; ch++) {
          let best = -Infinity;
          let at = -1;
          for (let dy = -nearRows; dy <= nearRows; dy++) {
            const sy = y + dy;
            const inside = sy >= 0 && sy < r;
            const v = inside ? rowBest[((si * r + sy) * c + xx) * k + ch] : 0;
            if (v > best) {
              best = v;
              at = inside ? rowAt[((si * r + sy) * c + xx) * k + ch] : -1;
            }
          }
          value[o + ch] = best;
          index[o + ch] = at;
        }
      }
    }
  }
}

/** dy [n], index [n] → dx [size]: each gradient value added to the input value that won. */
export function nearMaxGradInto(dy: Float32Array, index: Int32Array, dx: Float32Array): void {
  dx.fill(0);
  for (let i = 0; i < dy.length; i++) if (index[i] >= 0) dx[index[i]] += dy[i];
}
