/**
 * Layer norm and GELU in plain loops over rows: what the WASM backend runs
 * as single kernels (workers/wasmKernels.ts) in place of the 9 to 30 small
 * tensor ops each takes forward and back. The planner's decoding pays for
 * every kernel once per token, and tfjs's per-kernel cost, not the
 * arithmetic, was most of its time (npm run bench: 11,526 kernels per
 * GRPO step). The formulas are rowKernels.ts's WebGPU ones (layer norm) and
 * layers.ts's gelu, with sums in double precision.
 */
import { LAYER_NORM_EPS } from './rowOps';
import { expOfNonPositive } from './fastExp';

/** mean and 1/√(var + eps) of x[at .. at + cols). */
function rowStats(x: Float32Array, at: number, cols: number): [number, number] {
  let mean = 0;
  for (let c = 0; c < cols; c++) mean += x[at + c];
  mean /= cols;
  let spread = 0;
  for (let c = 0; c < cols; c++) spread += (x[at + c] - mean) ** 2;
  return [mean, 1 / Math.sqrt(spread / cols + LAYER_NORM_EPS)];
}

/** out = (x − mean) · inv · g + b per row of `cols`; without g and b, the standardized x̂. */
export function layerNormInto(x: Float32Array, cols: number, out: Float32Array, g?: Float32Array, b?: Float32Array): void {
  for (let at = 0; at < x.length; at += cols) {
    const [mean, inv] = rowStats(x, at, cols);
    for (let c = 0; c < cols; c++) {
      const xhat = (x[at + c] - mean) * inv;
      out[at + c] = g && b ? xhat * g[c] + b[c] : xhat;
    }
  }
}

/** dx = (ĝ − mean(ĝ) − x̂ · mean(ĝ x̂)) · inv per row, ĝ = dy · g. */
export function layerNormGradInto(x: Float32Array, g: Float32Array, dy: Float32Array, cols: number, out: Float32Array): void {
  for (let at = 0; at < x.length; at += cols) {
    const [mean, inv] = rowStats(x, at, cols);
    let meanG = 0;
    let meanGX = 0;
    for (let c = 0; c < cols; c++) {
      const gh = dy[at + c] * g[c];
      meanG += gh;
      meanGX += gh * (x[at + c] - mean) * inv;
    }
    meanG /= cols;
    meanGX /= cols;
    for (let c = 0; c < cols; c++) out[at + c] = (dy[at + c] * g[c] - meanG - (x[at + c] - mean) * inv * meanGX) * inv;
  }
}

const C = Math.sqrt(2 / Math.PI);
const A = 0.044715;

/** tanh from one exp of a non-positive number (fastExp.ts), which V8 runs many times faster than Math.tanh. */
function tanh(z: number): number {
  const e = expOfNonPositive(-2 * Math.abs(z));
  const t = (1 - e) / (1 + e);
  return z < 0 ? -t : t;
}

/** GELU, tanh approximation: 0.5 x (1 + tanh(c (x + a x³))). */
export function geluInto(x: Float32Array, out: Float32Array): void {
  for (let i = 0; i < x.length; i++) {
    const v = x[i];
    out[i] = 0.5 * v * (1 + tanh(C * (v + A * v * v * v)));
  }
}

/** dy · GELU′(x) = dy · (0.5 (1 + t) + 0.5 x (1 − t²) c (1 + 3 a x²)), t = tanh(c (x + a x³)). */
export function geluGradInto(x: Float32Array, dy: Float32Array, out: Float32Array): void {
  for (let i = 0; i < x.length; i++) {
    const v = x[i];
    const t = tanh(C * (v + A * v * v * v));
    out[i] = dy[i] * (0.5 * (1 + t) + 0.5 * v * (1 - t * t) * C * (1 + 3 * A * v * v));
  }
}
