/**
 * Dense layers, layer norms, softmax and thin products for WebGPU, without
 * its reduce shaders or broadcasting element-wise ops.
 *
 * tfjs-webgpu's reduce shaders are slow on small trailing axes: on
 * SwiftShader, tf.sum(x, 0) over a [5200, 32] bias gradient took 163 ms
 * against 14.6 ms for ones[1, 5200] · x, and tf.mean(x, 1) 246 ms against
 * 122 ms for x · ones[32, 1] / 32 (largest difference 1.5e-7). The plain
 * ops also pay those reductions in their gradients, since a broadcast add or
 * sub is differentiated by summing over the broadcast axis, and the forward
 * broadcast itself runs tfjs-webgpu's generic shader (an [N, 32] + [32] add
 * cost about as much as a product of that size). Here biases go inside the
 * product's kernel (tf.fused.matMul), column sums are products, and the
 * per-row work (softmax, layer norm) runs in workers/rowKernels.ts's
 * one-thread-per-row kernels.
 *
 * The WASM backend's reductions are fast, and its training figures were
 * measured with the plain ops, so layers.ts uses these on WebGPU only. The
 * product forms are held equal to the plain ops on WASM
 * (test/unit/row-ops.test.ts); the kernels, on WebGPU, by the parity test
 * (test/e2e/agents-steps.spec.ts).
 */
import * as tf from './tf';
import { IM2COL_3X3, PLAIN_PRODUCT, ROW_LAYER_NORM, ROW_LAYER_NORM_GRAD, ROW_SOFTMAX, ROW_SOFTMAX_GRAD, ROW_STANDARDIZE } from './kernelNames';

type Arg = tf.Tensor | tf.GradSaveFunc;

/** Whether the current backend has the row kernels (WebGPU, once workers/backend.ts registered them). */
export const hasRowKernels = (): boolean => Boolean(tf.getKernel(ROW_SOFTMAX, tf.getBackend()));

/** a × b (+ bias), rank 3 with equal batch sizes, by the plain-product kernel (no gradient of its own). */
function plainProduct(a: tf.Tensor, b: tf.Tensor, transposeA: boolean, transposeB: boolean, bias?: tf.Tensor): tf.Tensor3D {
  const inputs: tf.NamedTensorMap = bias ? { a, b, bias } : { a, b };
  return tf.engine().runKernel(PLAIN_PRODUCT, inputs, { transposeA, transposeB }) as tf.Tensor3D;
}

/**
 * Which products go to the plain-product kernel rather than tfjs-webgpu's
 * tiled one: a short inner size (K ≤ 32), where the tiled kernel's 32-deep
 * tiles are mostly padding, or a narrow output (N ≤ 16) with a moderate K,
 * where half of every 32-wide tile idles. On SwiftShader the attention
 * product [16, 169, 169] × [16, 169, 16] took 119–140 ms tiled and 38 ms
 * plain (npm run bench, time by kernel). A long K stays tiled: one thread would
 * walk it alone.
 */
function isThin(inner: number, n: number): boolean {
  return inner <= 32 || (n <= 16 && inner <= 256);
}

/**
 * a × b (+ bias on the last axis), rank 2 or 3 with equal batch sizes, either
 * operand transposed by flag, no gradient of its own: by the plain-product
 * kernel when the row kernels exist and the shape is thin, else by
 * tf.matMul (or tf.fused.matMul for a bias).
 */
export function flaggedProduct(a: tf.Tensor, b: tf.Tensor, transposeA: boolean, transposeB: boolean, bias?: tf.Tensor): tf.Tensor {
  const inner = a.shape[transposeA ? a.rank - 2 : a.rank - 1] as number;
  const n = b.shape[transposeB ? b.rank - 2 : b.rank - 1] as number;
  const sameBatch = a.rank === 2 || (a.rank === 3 && b.rank === 3 && a.shape[0] === b.shape[0]);
  if (!isThin(inner, n) || !sameBatch || !hasRowKernels()) {
    return bias ? tf.fused.matMul({ a, b, transposeA, transposeB, bias }) : tf.matMul(a, b, transposeA, transposeB);
  }
  if (a.rank === 3) return plainProduct(a, b, transposeA, transposeB, bias);
  const y = plainProduct(tf.expandDims(a, 0), tf.expandDims(b, 0), transposeA, transposeB, bias);
  return tf.reshape(y, y.shape.slice(1));
}

/** The 3×3 windows of x [B, H, W, C] (zero padding 1) → [B, H, W, 9C], dy-major, then dx, then channel: fastops' im2col3x3 as one kernel, no gradient. */
export function im2colKernel(x: tf.Tensor4D): tf.Tensor4D {
  return tf.engine().runKernel(IM2COL_3X3, { x }, {}) as tf.Tensor4D;
}

/** Σ over the middle axis of x [G, L, C] → [G, C]: on WebGPU a product with ones, not a reduce shader (no gradient). */
export function middleSums(x: tf.Tensor3D): tf.Tensor2D {
  if (!hasRowKernels()) return tf.sum(x, 1);
  const [g, l, c] = x.shape;
  return tf.reshape(plainProduct(tf.ones([g, 1, l]), x, false, false), [g, c]);
}

/** y [..., C] + b [C]: on WebGPU without a broadcast, whose gradient would be a reduce shader (addBiasRows). */
export function addBias(y: tf.Tensor, b: tf.Tensor): tf.Tensor {
  if (!hasRowKernels()) return tf.add(y, b);
  const c = y.shape[y.rank - 1] as number;
  return tf.reshape(addBiasRows(tf.reshape(y, [-1, c]) as tf.Tensor2D, b), y.shape);
}

/** Σ over the rows of x [N, C] → [C]. */
export function columnSums(x: tf.Tensor): tf.Tensor1D {
  const [n, c] = x.shape as [number, number];
  if (hasRowKernels()) return tf.reshape(plainProduct(tf.ones([1, 1, n]), tf.reshape(x, [1, n, c]), false, false), [c]);
  return tf.reshape(tf.matMul(tf.ones([1, n]), x), [c]);
}

/**
 * a [B, M, K] × b [B, N, K]ᵀ → [B, M, N] by the plain-product kernel, for
 * thin shapes (M or N of a few): a wanted class or letter bag against every
 * cell. Its gradients are plain products too.
 */
export const thinProductNT = tf.customGrad((...args: Arg[]) => {
  const [a, b, save] = args as [tf.Tensor3D, tf.Tensor3D, tf.GradSaveFunc];
  save([a, b]);
  return {
    value: plainProduct(a, b, false, true),
    gradFunc: (dy: tf.Tensor, saved: tf.Tensor[]) => {
      const [sa, sb] = saved;
      return [plainProduct(dy, sb, false, false), plainProduct(dy, sa, true, false)];
    },
  };
}) as (a: tf.Tensor3D, b: tf.Tensor3D) => tf.Tensor3D;

/** x [N, I] · w [I, O] + b [O], the bias added inside the product's kernel. */
const affineTrained = tf.customGrad((...args: Arg[]) => {
  const [x, w, b, save] = args as [tf.Tensor2D, tf.Tensor2D, tf.Tensor1D, tf.GradSaveFunc];
  save([x, w]);
  return {
    value: flaggedProduct(x, w, false, false, b),
    gradFunc: (dy: tf.Tensor, saved: tf.Tensor[]) => {
      const [sx, sw] = saved;
      return [flaggedProduct(dy, sw, false, true), flaggedProduct(sx, dy, true, false), columnSums(dy)];
    },
  };
});

/**
 * x [N, I] · w + b. With trainsInput false, x is data (pixels): it is
 * captured rather than an input, so the backward pass skips dx.
 */
export function affineRows(x: tf.Tensor2D, w: tf.Tensor, b: tf.Tensor, trainsInput: boolean): tf.Tensor2D {
  if (trainsInput) return affineTrained(x, w, b) as tf.Tensor2D;
  const onData = tf.customGrad((...args: Arg[]) => {
    const [wt, bt, save] = args as [tf.Tensor2D, tf.Tensor1D, tf.GradSaveFunc];
    save([x]); // kept for the backward pass, which outlives the caller's tidy scope
    return {
      value: flaggedProduct(x, wt, false, false, bt),
      gradFunc: (dy: tf.Tensor, saved: tf.Tensor[]) => [flaggedProduct(saved[0], dy, true, false), columnSums(dy)],
    };
  });
  return onData(w, b) as tf.Tensor2D;
}

/** y [N, C] + b [C] (a bias that does not follow a product of ours: the convolution's). */
export const addBiasRows = tf.customGrad((...args: Arg[]) => {
  const [y, b] = args as [tf.Tensor2D, tf.Tensor1D];
  return { value: tf.add(y, b), gradFunc: (dy: tf.Tensor) => [tf.clone(dy), columnSums(dy)] };
}) as (y: tf.Tensor2D, b: tf.Tensor) => tf.Tensor2D;

/** The eps every layer norm here uses. */
export const LAYER_NORM_EPS = 1e-5;

/** Rows longer than this keep tf.softmax: a thread per row would leave a real GPU idle. */
const ROW_KERNEL_MAX_COLS = 1024;

const rowSoftmax = tf.customGrad((...args: Arg[]) => {
  const [x, save] = args as [tf.Tensor2D, tf.GradSaveFunc];
  const y = tf.engine().runKernel(ROW_SOFTMAX, { x }, {}) as tf.Tensor2D;
  save([y]);
  return { value: y, gradFunc: (dy: tf.Tensor, saved: tf.Tensor[]) => [tf.engine().runKernel(ROW_SOFTMAX_GRAD, { y: saved[0], dy }, {}) as tf.Tensor] };
});

/** Softmax over the last axis: the row kernels where the backend has them, else tf.softmax. */
export function softmax<T extends tf.Tensor>(x: T): T {
  const cols = x.shape[x.shape.length - 1] as number;
  if (cols > ROW_KERNEL_MAX_COLS || !hasRowKernels()) return tf.softmax(x);
  return tf.reshape(rowSoftmax(tf.reshape(x, [-1, cols])), x.shape) as T;
}

/**
 * (x − mean) / √(var + eps) · g + b over the last axis of x [N, C] by the
 * row kernels; dg and db are column sums (products), dx the kernel's
 * textbook gradient.
 */
export const layerNormRows = tf.customGrad((...args: Arg[]) => {
  const [x, g, b, save] = args as [tf.Tensor2D, tf.Tensor1D, tf.Tensor1D, tf.GradSaveFunc];
  save([x, g]);
  return {
    value: tf.engine().runKernel(ROW_LAYER_NORM, { x, g, b }, {}) as tf.Tensor2D,
    gradFunc: (dy: tf.Tensor, saved: tf.Tensor[]) => {
      const [sx, sg] = saved;
      const xhat = tf.engine().runKernel(ROW_STANDARDIZE, { x: sx }, {}) as tf.Tensor;
      return [tf.engine().runKernel(ROW_LAYER_NORM_GRAD, { x: sx, g: sg, dy }, {}) as tf.Tensor, columnSums(tf.mul(dy, xhat)), columnSums(dy)];
    },
  };
}) as (x: tf.Tensor2D, g: tf.Tensor, b: tf.Tensor) => tf.Tensor2D;
