/**
 * Attention's head split [B, T, H·dh] → [B·H, T, dh] and merge, for every
 * attention in both models: a reshape, a transpose and a reshape each, or
 * one kernel each way where the backend has them (WASM: headLoops.ts),
 * each the other's gradient. The values are the same either way: they are
 * only moved.
 */
import * as tf from './tf';
import { HEADS_MERGE, HEADS_SPLIT } from './kernelNames';

const hasHeadKernels = (): boolean => Boolean(tf.getKernel(HEADS_SPLIT, tf.getBackend()) && tf.getKernel(HEADS_MERGE, tf.getBackend()));

const run = (name: string, x: tf.Tensor, b: number, heads: number) => tf.engine().runKernel(name, { x }, { batch: b, heads }) as tf.Tensor3D;

/** One kernel forward (`forward`), the other for its gradient. */
function permutation(forward: string, backward: string, x: tf.Tensor, b: number, heads: number): tf.Tensor3D {
  const f = tf.customGrad((...args: (tf.Tensor | tf.GradSaveFunc)[]) => ({
    value: run(forward, args[0] as tf.Tensor, b, heads),
    gradFunc: (dy: tf.Tensor) => run(backward, dy, b, heads),
  }));
  return f(x) as tf.Tensor3D;
}

/** [B, T, d] → [B·heads, T, d/heads]. */
export function splitHeads(x: tf.Tensor, heads: number): tf.Tensor3D {
  const [b, t, d] = x.shape;
  if (hasHeadKernels()) return permutation(HEADS_SPLIT, HEADS_MERGE, x, b, heads);
  return tf.reshape(tf.transpose(tf.reshape(x, [b, t, heads, d / heads]), [0, 2, 1, 3]), [b * heads, t, d / heads]) as tf.Tensor3D;
}

/** [B·heads, T, dh] → [B, T, heads·dh]. */
export function mergeHeads(x: tf.Tensor, b: number, heads: number): tf.Tensor3D {
  const [, t, dh] = x.shape;
  if (hasHeadKernels()) return permutation(HEADS_MERGE, HEADS_SPLIT, x, b, heads);
  return tf.reshape(tf.transpose(tf.reshape(x, [b, heads, t, dh]), [0, 2, 1, 3]), [b, t, heads * dh]) as tf.Tensor3D;
}
