/**
 * Weights as plain float32 values and back: what a resumable loop saves
 * beside its optimizer's state (pretraining's loopState, and a co-evolution
 * phase's mid-phase saves in coevo/phaseJournal.ts).
 */
import type { TensorData } from './safetensors';
import type { Params } from './params';
import * as tf from './tf';

/** A copy of every parameter's values, by name. */
export async function copyWeights(params: Params): Promise<Record<string, TensorData>> {
  const weights: Record<string, TensorData> = {};
  for (const name of Object.keys(params).sort()) weights[name] = { shape: [...params[name].shape], data: new Float32Array((await params[name].data()) as Float32Array) };
  return weights;
}

/** Puts saved weights back into `params` (same names and shapes, or it throws and changes nothing). */
export function restoreWeights(params: Params, weights: Record<string, TensorData>): void {
  const names = Object.keys(params).sort();
  const saved = Object.keys(weights).sort();
  if (names.join('\n') !== saved.join('\n')) throw new Error(`restoreWeights: the checkpoint's weights (${saved.length}) are not this model's parameters (${names.length}).`);
  for (const n of names) {
    const w = weights[n];
    if (w.shape.join(',') !== params[n].shape.join(',') || w.data.length !== params[n].size) throw new Error(`restoreWeights: ${n} is [${w.shape}] in the checkpoint and [${params[n].shape}] in the model.`);
  }
  for (const n of names) tf.tidy(() => params[n].assign(tf.tensor(weights[n].data, params[n].shape, 'float32')));
}
