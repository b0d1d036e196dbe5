/**
 * Σ_f w[:, f]·maps[f] as one kernel each way where the backend has them
 * (WASM: weightedSumLoops.ts), with the tensor path's values.
 */
import * as tf from './tf';
import { WEIGHTED_SUM, WEIGHTED_SUM_GRAD } from './kernelNames';

type Arg = tf.Tensor | tf.GradSaveFunc;

export const hasWeightedSumKernel = (): boolean => Boolean(tf.getKernel(WEIGHTED_SUM, tf.getBackend()) && tf.getKernel(WEIGHTED_SUM_GRAD, tf.getBackend()));

const named = (w: tf.Tensor, maps: readonly tf.Tensor[]) => Object.fromEntries([['w', w], ...maps.map((m, k) => [`m${k}`, m])]) as tf.NamedTensorMap;

const op = tf.customGrad((...args: Arg[]) => {
  const save = args[args.length - 1] as tf.GradSaveFunc;
  const [w, ...maps] = args.slice(0, -1) as tf.Tensor[];
  save([w, ...maps]);
  return {
    value: tf.engine().runKernel(WEIGHTED_SUM, named(w, maps), {}) as tf.Tensor,
    gradFunc: (dy: tf.Tensor, [sw, ...smaps]: tf.Tensor[]) => tf.engine().runKernel(WEIGHTED_SUM_GRAD, { dy, ...named(sw, smaps) }, {}) as tf.Tensor[],
  };
});

/** w [B, F], maps F × [B, N] or [1, N] → [B, N]. */
export function weightedSumKernelOp(w: tf.Tensor, maps: readonly tf.Tensor[]): tf.Tensor {
  if (w.shape[1] !== maps.length) throw new Error(`weightedSum: ${maps.length} maps for ${w.shape[1]} weights`);
  return op(w, ...maps);
}
