/**
 * Matrix products and im2col with hand-written gradients. tfjs's own
 * gradient of matMul computes dW as matMul(x, dy, transposeA=true), which
 * the WASM backend runs about 5× slower than transposing first (measured:
 * 295 ms against 60 ms for a [1728, 2756]ᵀ × [1728, 48] product; a
 * transposed B costs about 4× too), so every product here is a plain
 * matMul of explicitly transposed operands; and the
 * gradient of concat is a split that took longer than the whole forward
 * convolution. These versions use only transpose, matMul without
 * transposeA, slice, pad and add, so they still have gradients on WebGPU
 * and WASM alike, and give the same values as the plain ops.
 *
 * WebGPU is the other way round: its matMul shader reads either operand
 * transposed at no cost, while an explicit transpose is one more kernel
 * dispatch and one more buffer. There the products take transpose flags
 * (npm run bench counts the kernels of a step; each dispatch costs a fixed
 * overhead that small models never amortise).
 */
import * as tf from './tf';
import { flaggedProduct } from './rowOps';
import { COL2IM_3X3, IM2COL_3X3, TRANSPOSED_PRODUCT } from './kernelNames';

/** Whether im2col and its gradient each run as one kernel here (WASM: workers/wasmKernels.ts). */
const hasWindowKernels = (): boolean => Boolean(tf.getKernel(COL2IM_3X3, tf.getBackend()) && tf.getKernel(IM2COL_3X3, tf.getBackend()));

function swapLast(x: tf.Tensor): tf.Tensor {
  const r = x.rank;
  const perm = Array.from({ length: r }, (_, i) => i);
  perm[r - 2] = r - 1;
  perm[r - 1] = r - 2;
  return tf.transpose(x, perm);
}

type Arg = tf.Tensor | tf.GradSaveFunc;

/** Whether the backend's matMul reads transposed operands for free (WebGPU), rather than faster after an explicit transpose (WASM, CPU). */
const flagsAreFree = (): boolean => tf.getBackend() === 'webgpu';

/** Whether the explicit transpose and the product run as one kernel here (WASM: workers/wasmTransposedProduct.ts). */
const hasTransposedProduct = (): boolean => Boolean(tf.getKernel(TRANSPOSED_PRODUCT, tf.getBackend()));

/** a × b with either operand transposed, by flag or by an explicit transpose, whichever is cheaper here. */
function product(a: tf.Tensor, b: tf.Tensor, ta: boolean, tb: boolean): tf.Tensor {
  if (flagsAreFree()) return flaggedProduct(a, b, ta, tb);
  if ((ta || tb) && hasTransposedProduct()) return tf.engine().runKernel(TRANSPOSED_PRODUCT, { a, b }, { transposeA: ta, transposeB: tb }) as tf.Tensor;
  return tf.matMul(ta ? swapLast(a) : a, tb ? swapLast(b) : b);
}

/** aᵀ × b for use inside gradients (no gradient of its own): a transpose flag on WebGPU, an explicit transpose elsewhere. */
export function transposedTimes(a: tf.Tensor, b: tf.Tensor): tf.Tensor {
  return product(a, b, true, false);
}

const matMulNN = tf.customGrad((...args: Arg[]) => {
  const [a, b, save] = args as [tf.Tensor, tf.Tensor, tf.GradSaveFunc];
  save([a, b]);
  return {
    value: product(a, b, false, false),
    gradFunc: (dy: tf.Tensor, saved: tf.Tensor[]) => {
      const [sa, sb] = saved;
      return [product(dy, sb, false, true), product(sa, dy, true, false)];
    },
  };
});

const matMulNT = tf.customGrad((...args: Arg[]) => {
  const [a, b, save] = args as [tf.Tensor, tf.Tensor, tf.GradSaveFunc];
  save([a, b]);
  return {
    value: product(a, b, false, true),
    gradFunc: (dy: tf.Tensor, saved: tf.Tensor[]) => {
      const [sa, sb] = saved;
      // y = a bᵀ: da = dy b, db = dyᵀ a
      return [product(dy, sb, false, false), product(dy, sa, true, false)];
    },
  };
});

/**
 * a × b (or a × bᵀ), rank 2 or 3 with equal batch sizes; same value as
 * tf.matMul, faster gradient on WASM.
 */
export function matMul<T extends tf.Tensor>(a: T, b: tf.Tensor, transposeB = false): T {
  return (transposeB ? matMulNT(a, b) : matMulNN(a, b)) as T;
}

/**
 * x × w where x is data, never trained through (the stem's pixel patches):
 * x is captured, not an input of the custom gradient, so the backward pass
 * computes dW only. matMul's gradient would also compute dx, a product as
 * large as the forward one that nothing reads (1.4 s of a 69 s grounder
 * step on SwiftShader, npm run bench).
 */
export function matMulData(x: tf.Tensor2D, w: tf.Tensor): tf.Tensor2D {
  const f = tf.customGrad((...args: Arg[]) => {
    const [wt, save] = args as [tf.Tensor, tf.GradSaveFunc];
    save([x]); // kept for the backward pass, which outlives the caller's tidy scope
    return {
      value: product(x, wt, false, false),
      gradFunc: (dy: tf.Tensor, saved: tf.Tensor[]) => [product(saved[0], dy, true, false)],
    };
  });
  return f(w) as tf.Tensor2D;
}

const OFFSETS: readonly [number, number][] = [0, 1, 2].flatMap((dy) => [0, 1, 2].map((dx) => [dy, dx] as [number, number]));

/**
 * im2col for a 3×3 window, stride 1, zero padding 1: x [B, H, W, C] →
 * [B, H, W, 9C], the nine shifted views side by side (dy-major, then dx).
 * Its gradient adds the nine channel groups back, each padded into place.
 */
const im2col = tf.customGrad((...args: Arg[]) => {
  const [x] = args as [tf.Tensor];
  const [b, h, w, c] = x.shape;
  if (hasWindowKernels()) {
    return {
      value: tf.engine().runKernel(IM2COL_3X3, { x }, {}) as tf.Tensor,
      gradFunc: (g: tf.Tensor) => [tf.engine().runKernel(COL2IM_3X3, { g }, {}) as tf.Tensor],
    };
  }
  const padded = tf.pad(x, [[0, 0], [1, 1], [1, 1], [0, 0]]);
  const views = OFFSETS.map(([dy, dx]) => tf.slice(padded, [0, dy, dx, 0], [b, h, w, c]));
  return {
    value: tf.concat(views, 3),
    gradFunc: (g: tf.Tensor) => {
      let acc: tf.Tensor | null = null;
      OFFSETS.forEach(([dy, dx], k) => {
        const part = tf.slice(g, [0, 0, 0, k * c], [b, h, w, c]);
        const placed = tf.pad(part, [[0, 0], [dy, 2 - dy], [dx, 2 - dx], [0, 0]]);
        acc = acc ? tf.add(acc, placed) : placed;
      });
      return [tf.slice(acc as unknown as tf.Tensor, [0, 1, 1, 0], [b, h, w, c])];
    },
  };
});

export function im2col3x3(x: tf.Tensor4D): tf.Tensor4D {
  return im2col(x) as tf.Tensor4D;
}
