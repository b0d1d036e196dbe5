/**
 * The model owner's side, last step: plug the returned adapters into the
 * full model. The adapter units' weights are overwritten by the tuned ones;
 * every other weight is the full model's own.
 */
import * as tf from '../models/tf';
import type { ParamMap } from '../models/params';
import { checkAdapters, type Adapters } from './adapters';

/** Full weights with the adapters in place, and a dispose for the tensors made here (not the full model's). */
export function plugIn(full: ParamMap, a: Adapters): { params: ParamMap; dispose: () => void } {
  checkAdapters(a);
  const made: tf.Tensor[] = [];
  const out: Record<string, tf.Tensor> = { ...full };
  for (const [name, t] of Object.entries(a.tensors)) {
    const old = full[name];
    if (!old) throw new Error(`plugIn: the full model has no ${name}`);
    if (old.shape.join() !== t.shape.join()) throw new Error(`plugIn: ${name} is [${t.shape}] in the adapters, [${old.shape}] in the model`);
    const x = tf.tensor(t.data, t.shape, 'float32');
    made.push(x);
    out[name] = x;
  }
  return { params: out, dispose: () => tf.dispose(made) };
}
