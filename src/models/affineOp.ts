/**
 * x [..., K] · w [K, N] + b [N] as one kernel each way where the backend
 * has them (WASM: workers/wasmAffine.ts), with the same values as the
 * reshape, product and add it replaces.
 */
import * as tf from './tf';
import { AFFINE, AFFINE_GRAD } from './kernelNames';

type Arg = tf.Tensor | tf.GradSaveFunc;

export const hasAffineKernel = (): boolean => Boolean(tf.getKernel(AFFINE, tf.getBackend()) && tf.getKernel(AFFINE_GRAD, tf.getBackend()));

const trained = tf.customGrad((...args: Arg[]) => {
  const [x, w, bias, save] = args as [tf.Tensor, tf.Tensor, tf.Tensor, tf.GradSaveFunc];
  save([x, w]);
  return {
    value: tf.engine().runKernel(AFFINE, { x, w, bias }, {}) as tf.Tensor,
    gradFunc: (dy: tf.Tensor, [sx, sw]: tf.Tensor[]) => tf.engine().runKernel(AFFINE_GRAD, { dy, x: sx, w: sw }, { inputGrad: true }) as tf.Tensor[],
  };
});

/** With `trainsInput` false, x is data (pixels): captured rather than an input, so the backward pass computes no dx. */
export function affineKernelOp(x: tf.Tensor, w: tf.Tensor, bias: tf.Tensor, trainsInput: boolean): tf.Tensor {
  if (trainsInput) return trained(x, w, bias);
  const onData = tf.customGrad((...args: Arg[]) => {
    const [wt, b, save] = args as [tf.Tensor, tf.Tensor, tf.GradSaveFunc];
    save([x, wt]); // kept for the backward pass, which outlives the caller's tidy scope
    return {
      value: tf.engine().runKernel(AFFINE, { x, w: wt, bias: b }, {}) as tf.Tensor,
      gradFunc: (dy: tf.Tensor, [sx, sw]: tf.Tensor[]) => tf.engine().runKernel(AFFINE_GRAD, { dy, x: sx, w: sw }, { inputGrad: false }) as tf.Tensor[],
    };
  });
  return onData(w, bias);
}
