/**
 * log softmax(logits (+ mask)) at one picked index per row: the planner's
 * token log-probs and the grounder's cell log-probs. Where the backend has
 * the PICKED_LOG_PROB kernels (WASM: src/models/pickedLoops.ts) it runs one
 * kernel each way; elsewhere the log-softmax, one-hot and sum it replaces,
 * with the same values (test/unit/picked-log-probs.test.ts).
 */
import * as tf from './tf';
import { oneHotFloat } from './dtype';
import { PICKED_LOG_PROB, PICKED_LOG_PROB_GRAD } from './kernelNames';

/** logits [..., V], picks [...] int32, mask (additive) like logits → log-probs [...]. */
export function pickedLogProbs(logits: tf.Tensor, picks: tf.Tensor, mask?: tf.Tensor): tf.Tensor {
  const v = logits.shape[logits.shape.length - 1] as number;
  if (!tf.getKernel(PICKED_LOG_PROB, tf.getBackend())) {
    return tf.sum(tf.mul(tf.logSoftmax(mask ? tf.add(logits, mask) : logits), oneHotFloat(picks, v)), -1);
  }
  const pick = tf.reshape(tf.cast(picks, 'int32'), [-1]);
  const flatMask = mask ? tf.reshape(mask, [-1, v]) : null;
  const byKernel = tf.customGrad((...args: (tf.Tensor | tf.GradSaveFunc)[]) => {
    const [z, save] = args as [tf.Tensor, tf.GradSaveFunc];
    const [logp, probs] = tf.engine().runKernel(PICKED_LOG_PROB, { logits: z, pick, ...(flatMask ? { mask: flatMask } : {}) }, {}) as tf.Tensor[];
    // Kept for the backward pass (what is not saved is freed when the forward's scope ends).
    save([probs, pick]);
    return {
      value: logp,
      gradFunc: (dy: tf.Tensor, [p, k]: tf.Tensor[]) => [tf.engine().runKernel(PICKED_LOG_PROB_GRAD, { probs: p, pick: k, dy }, {}) as tf.Tensor],
    };
  });
  return tf.reshape(byKernel(tf.reshape(logits, [-1, v])), picks.shape);
}
