/**
 * Planner SFT: next-token cross-entropy on the completion tokens only
 * (the prompt is context, not a target), with teacher forcing: the whole
 * completion is fed in and every position predicts its next token in one
 * forward. CoT-SFT is the same loss on batches whose completions carry the
 * `<think> … </think>` trace (plannerSftBatch with cot = true).
 *
 * With a LoRA, the forward reads W + ΔW and only the adapters train.
 */
import * as tf from '../models/tf';
import type { FlatAdam } from '../models/flatAdam';
import { adamAtRates, ownRateOf } from '../models/splitAdam';
import { completionMask, plannerLogProbs, type PlannerConfig } from '../models/planner';
import { plannerTensors, type PlannerBatch } from '../models/plannerData';
import { loraParams, loraTrainables, type Lora } from '../models/lora';
import type { ParamMap, Params } from '../models/params';

/** Global gradient-norm clip of the planner's updates in the loop (its learning runs in test/slow train with it). */
export const PLANNER_CLIP_NORM = 1;

export interface PlannerSftOptions {
  /** Adam learning rate. */
  lr: number;
  /** Clip the global gradient norm to this (0 or absent: no clipping). */
  clipNorm?: number;
  /** Train adapters on frozen base weights instead of the base itself. */
  lora?: Lora;
  /** These trainable weights, by name, at their own rate (offsite tuning's weights carried whole). */
  ownRate?: { lr: number; names: readonly string[] };
}

export interface PlannerSftStep {
  /** Mean cross-entropy per completion token (nats), before this step's update. */
  loss: number;
}

export interface PlannerSft {
  step(batch: PlannerBatch): Promise<PlannerSftStep>;
  /** Its Adam, in the open so a pretraining checkpoint can save and restore it (src/pretrain/loopState.ts); with ownRate, that of the other weights only. */
  readonly optimizer: FlatAdam;
  /** Number of trained parameters (adapters only under LoRA). */
  readonly trainable: number;
  /** Frees the optimizer's state (the parameters stay with their owner). */
  dispose(): void;
}

/** Mean −log π over the completion's real tokens (eos included, padding excluded). */
export function plannerSftLoss(p: ParamMap, cfg: PlannerConfig, prompt: tf.Tensor2D, completion: tf.Tensor2D, copy?: tf.Tensor3D): tf.Scalar {
  return tf.tidy(() => {
    const lp = plannerLogProbs(p, cfg, prompt, completion, undefined, copy);
    const mask = completionMask(completion);
    return tf.neg(tf.div(tf.sum(tf.mul(lp, mask)), tf.maximum(tf.sum(mask), 1))) as tf.Scalar;
  });
}

/**
 * Scales gradients so that their global norm is at most `maxNorm` (no read-back).
 * The squares are summed by plain adds: tfjs-webgpu's addN binds every input
 * at once, and with the planner's 37 gradients that exceeds the adapter's
 * storage-buffer limit, so the pipeline fails to build, the norm reads 0 and
 * nothing is clipped (WebGPU runs then drifted from WASM from the second step).
 */
export function clipByGlobalNorm(grads: tf.NamedTensorMap, maxNorm: number): tf.NamedTensorMap {
  return tf.tidy(() => {
    const sq = Object.values(grads).map((g) => tf.sum(tf.square(g)));
    const norm = tf.sqrt(sq.reduce((a, b) => tf.add(a, b)));
    const scale = tf.div(maxNorm, tf.maximum(norm, maxNorm));
    return Object.fromEntries(Object.entries(grads).map(([k, g]) => [k, tf.mul(g, scale)]));
  });
}

/**
 * One optimizer step of `lossFn` over `vars`: gradients, optional global-norm
 * clipping, Adam update; returns the loss tensor (caller reads and disposes).
 */
export function applyStep(opt: tf.Optimizer, vars: tf.Variable[], lossFn: () => tf.Scalar, clipNorm = 0): tf.Scalar {
  return tf.tidy(() => {
    const { value, grads } = tf.variableGrads(lossFn, vars);
    opt.applyGradients(clipNorm > 0 ? clipByGlobalNorm(grads, clipNorm) : grads);
    return value;
  });
}

export function makePlannerSft(params: Params, cfg: PlannerConfig, opts: PlannerSftOptions): PlannerSft {
  const lora = opts.lora;
  // Under LoRA the base is frozen except what the caller left trainable (offsite tuning's weights carried whole).
  const base = Object.values(params).filter((v) => v.trainable);
  const vars = [...(lora ? loraTrainables(lora) : []), ...base];
  if (vars.length === 0) throw new Error('makePlannerSft: nothing to train (all parameters frozen and no LoRA)');
  const { optimizer: opt, main } = adamAtRates(opts.lr, ownRateOf(params, opts.ownRate));
  return {
    trainable: vars.reduce((n, v) => n + v.size, 0),
    optimizer: main,
    async step(batch) {
      const n = batch.examples.length;
      const pl = batch.promptLength;
      if (pl > cfg.promptLength || batch.prompt.length !== n * pl || batch.completion.length !== n * cfg.completionLength) {
        throw new Error(`plannerSft: batch of ${n} does not have [${n}, ≤ ${cfg.promptLength}] prompts and [${n}, ${cfg.completionLength}] completions`);
      }
      const loss = tf.tidy(() => {
        const { prompt, completion, copy } = plannerTensors(batch, cfg);
        return applyStep(opt, vars, () => plannerSftLoss(lora ? loraParams(params, lora) : params, cfg, prompt, completion, copy), opts.clipNorm);
      });
      const value = (await loss.data())[0];
      loss.dispose();
      return { loss: value };
    },
    dispose() {
      opt.dispose();
    },
  };
}
