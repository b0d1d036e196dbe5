/**
 * Low-rank adapters (LoRA): for each chosen weight W [in, out], trainable
 * A [in, r] and B [r, out] with B = 0 at the start, and the model reads
 * W + (α / r)·A·B. The base stays frozen (its variables are marked
 * untrainable and the optimizer is given only the adapters). Merging writes
 * the product into W (for fast inference or export); unmerging takes it out.
 */
import * as tf from './tf';
import type { Random } from '../learn/random';
import { countTrainable, initParams, normal, setTrainable, ZEROS, type ParamMap, type Params, type ParamSpecs } from './params';

export interface LoraConfig {
  rank: number;
  alpha: number;
  /** Which weights get adapters: names matching this pattern (2-D weights only). */
  targets: RegExp;
}

/** Attention projections and MLP weights of every block, in either model. */
export const DEFAULT_LORA_TARGETS = /(^|\.)(attn|cross)\.(q|k|v|o)\.w$|(^|\.)mlp\.(fc|proj)\.w$/;

export const DEFAULT_LORA: LoraConfig = { rank: 4, alpha: 8, targets: DEFAULT_LORA_TARGETS };

export interface Lora {
  config: LoraConfig;
  targets: string[]; // base weight names with adapters
  adapters: Params; // `${target}.lora_a` [in, r], `${target}.lora_b` [r, out]
  merged: boolean;
}

/** Adapters for every base weight matching config.targets; freezes the base. */
export function createLora(rng: Random, base: Params, config: LoraConfig): Lora {
  const targets = Object.keys(base).filter((k) => config.targets.test(k) && base[k].rank === 2).sort();
  if (targets.length === 0) throw new Error(`createLora: no 2-D weight matches ${config.targets}`);
  const specs: ParamSpecs = {};
  for (const t of targets) {
    const [fanIn, fanOut] = base[t].shape;
    specs[`${t}.lora_a`] = { shape: [fanIn, config.rank], init: normal(1 / Math.sqrt(fanIn)) };
    specs[`${t}.lora_b`] = { shape: [config.rank, fanOut], init: ZEROS };
  }
  setTrainable(base, false);
  return { config, targets, adapters: initParams(rng, specs), merged: false };
}

function delta(lora: Lora, target: string): tf.Tensor {
  const a = lora.adapters[`${target}.lora_a`];
  const b = lora.adapters[`${target}.lora_b`];
  return tf.mul(tf.matMul(a, b), lora.config.alpha / lora.config.rank);
}

/**
 * The weights a forward function should read: base weights, with W + ΔW for
 * adapted ones (unless merged, when W already holds ΔW). Call inside the
 * function given to tf.tidy / optimizer.minimize, so ΔW is freed and the
 * adapters receive gradients.
 */
export function loraParams(base: ParamMap, lora: Lora): ParamMap {
  if (lora.merged) return base;
  const out: Record<string, tf.Tensor> = { ...base };
  for (const t of lora.targets) out[t] = tf.add(base[t], delta(lora, t));
  return out;
}

/** Variables an optimizer should update under LoRA. */
export function loraTrainables(lora: Lora): tf.Variable[] {
  return Object.values(lora.adapters);
}

export function mergeLora(base: Params, lora: Lora): void {
  if (lora.merged) return;
  for (const t of lora.targets) tf.tidy(() => base[t].assign(tf.add(base[t], delta(lora, t))));
  lora.merged = true;
}

export function unmergeLora(base: Params, lora: Lora): void {
  if (!lora.merged) return;
  for (const t of lora.targets) tf.tidy(() => base[t].assign(tf.sub(base[t], delta(lora, t))));
  lora.merged = false;
}

/** Trainable parameters under LoRA (the adapters), and the base's total for comparison. */
export function loraParamCounts(base: Params, lora: Lora): { trainable: number; base: number; fraction: number } {
  const trainable = countTrainable(lora.adapters);
  const total = Object.values(base).reduce((n, v) => n + v.size, 0);
  return { trainable, base: total, fraction: trainable / total };
}

export function disposeLora(lora: Lora): void {
  for (const v of Object.values(lora.adapters)) v.dispose();
}
