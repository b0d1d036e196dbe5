/**
 * Dense layers, layer norms and softmax for WebGPU, without its reduce
 * shaders or broadcasting element-wise ops.
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

type Arg = tf.Tensor | tf.GradSaveFunc;

/** Kernel names of the row kernels, registered for WebGPU by workers/rowKernels.ts. */
export const PLAIN_PRODUCT = 'CoevoPlainProduct';
export const ROW_SOFTMAX = 'CoevoRowSoftmax';
export const ROW_SOFTMAX_GRAD = 'CoevoRowSoftmaxGrad';
export const ROW_STANDARDIZE = 'CoevoRowStandardize';
export const ROW_LAYER_NORM = 'CoevoRowLayerNorm';
export const ROW_LAYER_NORM_GRAD = 'CoevoRowLayerNormGrad';

/** Whether the current backend has the row kernels (WebGPU, once workers/backend.ts registered them). */
export const hasRowKernels = (): boolean => Boolean(tf.getKernel(ROW_SOFTMAX, tf.getBackend()));

/** a × b, rank 3 with equal batch sizes, by the plain-product kernel (no gradient of its own). */
function plainProduct(a: tf.Tensor, b: tf.Tensor, transposeA: boolean, transposeB: boolean): tf.Tensor3D {
  return tf.engine().runKernel(PLAIN_PRODUCT, { a, b }, { transposeA, transposeB }) as tf.Tensor3D;
}

/** Σ over the rows of x [N, C] → [C]. */
function columnSums(x: tf.Tensor): tf.Tensor1D {
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
    value: tf.fused.matMul({ a: x, b: w, bias: b }),
    gradFunc: (dy: tf.Tensor, saved: tf.Tensor[]) => {
      const [sx, sw] = saved;
      return [tf.matMul(dy, sw, false, true), tf.matMul(sx, dy, true, false), columnSums(dy)];
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
      value: tf.fused.matMul({ a: x, b: wt, bias: bt }),
      gradFunc: (dy: tf.Tensor, saved: tf.Tensor[]) => [tf.matMul(saved[0], dy, true, false), columnSums(dy)],
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
