/**
 * Thin singular value decomposition of a small dense matrix, for selective
 * rank compression. tfjs has no SVD, and the matrices here are at most a few
 * hundred on a side, so a one-sided Jacobi (Hestenes) in float64 on the CPU
 * is plenty: rotate pairs of columns until every pair is orthogonal; the
 * column norms are then the singular values. It is accurate to rounding
 * even for tiny singular values, which an eigen-decomposition of AᵀA is not.
 */

export interface Svd {
  /** m × k, column-major by singular vector: u[j] is the j-th left singular vector (length m). */
  u: Float64Array[];
  /** Descending singular values, k = min(m, n). */
  s: Float64Array;
  /** v[j] is the j-th right singular vector (length n). */
  v: Float64Array[];
}

/** SVD of the row-major m × n matrix `a`. */
export function svd(a: ArrayLike<number>, m: number, n: number, maxSweeps = 60): Svd {
  if (a.length !== m * n) throw new Error(`svd: ${a.length} values for ${m} × ${n}`);
  // Work on the orientation with more rows than columns; transpose back at the end.
  if (m < n) {
    const t = transpose(a, m, n);
    const r = svd(t, n, m, maxSweeps);
    return { u: r.v, s: r.s, v: r.u };
  }
  const cols: Float64Array[] = Array.from({ length: n }, (_, j) => {
    const c = new Float64Array(m);
    for (let i = 0; i < m; i++) c[i] = a[i * n + j];
    return c;
  });
  const vs: Float64Array[] = Array.from({ length: n }, (_, j) => {
    const c = new Float64Array(n);
    c[j] = 1;
    return c;
  });
  for (let sweep = 0; sweep < maxSweeps; sweep++) {
    let rotated = false;
    for (let p = 0; p < n - 1; p++) {
      for (let q = p + 1; q < n; q++) {
        const cp = cols[p];
        const cq = cols[q];
        let alpha = 0;
        let beta = 0;
        let gamma = 0;
        for (let i = 0; i < m; i++) {
          alpha += cp[i] * cp[i];
          beta += cq[i] * cq[i];
          gamma += cp[i] * cq[i];
        }
        if (gamma === 0 || Math.abs(gamma) <= 1e-15 * Math.sqrt(alpha * beta)) continue;
        rotated = true;
        const zeta = (beta - alpha) / (2 * gamma);
        const t = Math.sign(zeta || 1) / (Math.abs(zeta) + Math.sqrt(1 + zeta * zeta));
        const c = 1 / Math.sqrt(1 + t * t);
        const s = c * t;
        rotate(cp, cq, c, s);
        rotate(vs[p], vs[q], c, s);
      }
    }
    if (!rotated) break;
  }
  const norms = cols.map((c) => Math.hypot(...c));
  const order = norms.map((_, j) => j).sort((x, y) => norms[y] - norms[x]);
  return {
    s: Float64Array.from(order.map((j) => norms[j])),
    u: order.map((j) => cols[j].map((x) => (norms[j] > 0 ? x / norms[j] : 0))),
    v: order.map((j) => vs[j]),
  };
}

function rotate(x: Float64Array, y: Float64Array, c: number, s: number): void {
  for (let i = 0; i < x.length; i++) {
    const xi = x[i];
    const yi = y[i];
    x[i] = c * xi - s * yi;
    y[i] = s * xi + c * yi;
  }
}

function transpose(a: ArrayLike<number>, m: number, n: number): Float64Array {
  const t = new Float64Array(m * n);
  for (let i = 0; i < m; i++) for (let j = 0; j < n; j++) t[j * m + i] = a[i * n + j];
  return t;
}

/**
 * The rank-r factors of the best rank-r approximation (Eckart–Young):
 * left = U_r·diag(s_r) [m, r] and right = V_rᵀ [r, n], row-major float32,
 * so left · right ≈ a. What a rank-compressed emulator ships instead of a.
 */
export function lowRankFactors(a: ArrayLike<number>, m: number, n: number, r: number): { left: Float32Array; right: Float32Array } {
  const k = Math.min(m, n);
  if (!Number.isInteger(r) || r < 1 || r > k) throw new Error(`lowRankFactors: rank ${r} outside 1 … ${k}`);
  const d = svd(a, m, n);
  const left = new Float32Array(m * r);
  const right = new Float32Array(r * n);
  for (let j = 0; j < r; j++) {
    for (let i = 0; i < m; i++) left[i * r + j] = d.u[j][i] * d.s[j];
    for (let i = 0; i < n; i++) right[j * n + i] = d.v[j][i];
  }
  return { left, right };
}

/** left [m, r] · right [r, n], row-major. */
export function multiply(left: ArrayLike<number>, right: ArrayLike<number>, m: number, r: number, n: number): Float32Array {
  const out = new Float32Array(m * n);
  for (let i = 0; i < m; i++) {
    for (let j = 0; j < r; j++) {
      const l = left[i * r + j];
      if (l === 0) continue;
      for (let c = 0; c < n; c++) out[i * n + c] += l * right[j * n + c];
    }
  }
  return out;
}

/** Rank kept at ratio β of the full rank min(m, n), at least 1. */
export function rankAt(beta: number, m: number, n: number): number {
  if (!(beta > 0 && beta <= 1)) throw new Error(`rankAt: ratio ${beta} outside (0, 1]`);
  return Math.max(1, Math.round(beta * Math.min(m, n)));
}
