/**
 * The model owner's side, last step: plug the returned adapters into the
 * full model. End units overwrite the adapter units' weights; LoRA adds
 * (alpha / rank)·A·B to each adapted weight; a weight the adapters carry
 * whole (adapters.ts) overwrites the model's. Every other weight is the full
 * model's own. The same function puts adapters on an emulator's weights for
 * the data owner's own evaluation (emulator fine-tuning).
 */
import * as tf from '../models/tf';
import type { ParamMap } from '../models/params';
import { checkAdapters, loraTargetsOf, type Adapters } from './adapters';

/** Weights with the adapters in place, and a dispose for the tensors made here (not the given model's). */
export function plugIn(full: ParamMap, a: Adapters): { params: ParamMap; dispose: () => void } {
  checkAdapters(a);
  const made: tf.Tensor[] = [];
  const out: Record<string, tf.Tensor> = { ...full };
  const base = (name: string) => {
    const t = full[name];
    if (!t) throw new Error(`plugIn: the model has no ${name}`);
    return t;
  };
  const replace = (name: string) => {
    const t = a.tensors[name];
    const old = base(name);
    if (old.shape.join() !== t.shape.join()) throw new Error(`plugIn: ${name} is [${t.shape}] in the adapters, [${old.shape}] in the model`);
    const x = tf.tensor(t.data, t.shape, 'float32');
    made.push(x);
    out[name] = x;
  };
  if (a.kind === 'end-units') {
    for (const name of Object.keys(a.tensors)) replace(name);
  } else {
    for (const name of a.whole ?? []) replace(name);
    const { rank, alpha } = a.lora as { rank: number; alpha: number };
    for (const w of loraTargetsOf(a.config, a.units)) {
      const [A, B] = [a.tensors[`${w}.lora_a`], a.tensors[`${w}.lora_b`]];
      const x = tf.tidy(() => tf.add(base(w), tf.mul(tf.matMul(tf.tensor2d(A.data, [A.shape[0], A.shape[1]]), tf.tensor2d(B.data, [B.shape[0], B.shape[1]])), alpha / rank)));
      if (x.shape.join() !== base(w).shape.join()) throw new Error(`plugIn: LoRA on ${w} makes [${x.shape}], the model has [${base(w).shape}]`);
      made.push(x);
      out[w] = x;
    }
  }
  return { params: out, dispose: () => tf.dispose(made) };
}
