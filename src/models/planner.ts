/**
 * The planner: a decoder-only transformer (GPT style, pre-norm, tied input
 * and output embeddings) over
 *
 *   [pad … pad] <bos> goal <sep> screen description <sep> history <sep> │ completion <eos>
 *   └──────────────── prompt, left-padded to P ──────────────────────┘   └─ right-padded to C ─┘
 *
 * with a causal mask plus a mask on the prompt's padding. Left padding puts
 * the last prompt token at P-1 for every row, so position P-1's logits
 * predict the first completion token in every row.
 *
 * Completion format (plannerData.ts builds it): the instruction text then
 * <eos>; for CoT-SFT, `<think> short reasoning </think> instruction <eos>`.
 */
import * as tf from './tf';
import { maskOf, oneHotFloat } from './dtype';
import type { Random } from '../learn/random';
import { SPECIAL } from '../text/tokenizer';
import { block, blockSpecs, causalMask, embedding, embeddingSpecs, keyPaddingMask, layerNorm, layerNormSpecs } from './layers';
import { matMul } from './fastops';
import { get, initParams, normal, type ParamMap, type Params, type ParamSpecs } from './params';
import { sampleIndex } from './grounder';

export interface PlannerConfig {
  model: 'planner';
  vocabSize: number;
  promptLength: number; // P
  completionLength: number; // C (eos included)
  dim: number;
  heads: number;
  layers: number;
}

export function plannerSpecs(cfg: PlannerConfig): ParamSpecs {
  const s: ParamSpecs = {
    ...embeddingSpecs('tok', cfg.vocabSize, cfg.dim, 0.05),
    'pos': { shape: [cfg.promptLength + cfg.completionLength, cfg.dim], init: normal(0.05) },
    ...layerNormSpecs('ln_f', cfg.dim),
  };
  for (let i = 0; i < cfg.layers; i++) Object.assign(s, blockSpecs(`blocks.${i}`, cfg.dim));
  return s;
}

export function initPlanner(rng: Random, cfg: PlannerConfig): Params {
  return initParams(rng, plannerSpecs(cfg));
}

/** Final hidden states [B, S, d] of a whole sequence [B, S] (S ≤ P + C). */
function plannerHidden(p: ParamMap, cfg: PlannerConfig, seq: tf.Tensor2D): tf.Tensor3D {
  const s = seq.shape[1];
  const valid = tf.notEqual(seq, tf.scalar(SPECIAL.pad, 'int32'));
  // Pads after a real token are never attended by the positions that matter (causal), so
  // masking every pad key is safe; it is what hides the prompt's left padding.
  const mask = tf.add(causalMask(s), keyPaddingMask(valid));
  let x = tf.add(embedding(p, 'tok', seq), tf.slice(get(p, 'pos'), [0, 0], [s, cfg.dim]));
  for (let i = 0; i < cfg.layers; i++) x = block(p, `blocks.${i}`, x, cfg.heads, mask);
  return layerNorm(p, 'ln_f', x) as tf.Tensor3D;
}

/** Hidden states [B, n, d] → logits [B, n, V] through the tied embedding table. */
function unembed(p: ParamMap, cfg: PlannerConfig, h: tf.Tensor): tf.Tensor3D {
  const [b, n] = h.shape;
  const table = get(p, 'tok') as tf.Tensor2D;
  const flat = tf.reshape(h, [b * n, cfg.dim]) as tf.Tensor2D;
  return tf.reshape(matMul(flat, table, true), [b, n, cfg.vocabSize]) as tf.Tensor3D;
}

/** Next-token logits [B, S, V] for a whole sequence [B, S] (S ≤ P + C). */
export function plannerForward(p: ParamMap, cfg: PlannerConfig, seq: tf.Tensor2D): tf.Tensor3D {
  return unembed(p, cfg, plannerHidden(p, cfg, seq));
}

/**
 * log π(completion_t | prompt, completion_<t) for every completion position:
 * prompt [B, P] (left-padded), completion [B, C] (right-padded) → [B, C].
 * Positions holding SPECIAL.pad are returned too; mask them with completionMask.
 */
export function plannerLogProbs(p: ParamMap, cfg: PlannerConfig, prompt: tf.Tensor2D, completion: tf.Tensor2D): tf.Tensor2D {
  const [b, pl] = prompt.shape;
  const c = completion.shape[1];
  const h = plannerHidden(p, cfg, tf.concat([prompt, completion], 1) as tf.Tensor2D);
  // Only the C positions that predict the completion go through the (large) output matMul.
  const predicting = unembed(p, cfg, tf.slice(h, [0, pl - 1, 0], [b, c, cfg.dim]));
  const oh = oneHotFloat(completion, cfg.vocabSize);
  return tf.sum(tf.mul(tf.logSoftmax(predicting), oh), 2) as tf.Tensor2D;
}

/** 1 for completion tokens up to and including the first eos, 0 after (as float32 [B, C]). */
export function completionMask(completion: tf.Tensor2D): tf.Tensor2D {
  return tf.tidy(() => maskOf(tf.notEqual(completion, tf.scalar(SPECIAL.pad, 'int32'))) as tf.Tensor2D);
}

export interface DecodeOptions {
  /** 0 = greedy; otherwise sample from softmax(logits / temperature) with `rng`. */
  temperature: number;
  rng?: Random;
  /** Tokens that may never be produced (e.g. pad, bos, sep). */
  banned?: readonly number[];
}

export interface Decoded {
  tokens: number[][]; // per row, up to and including eos (no padding)
  logProbs: number[][]; // per generated token, under temperature 1 (the policy GRPO trains)
}

/**
 * Autoregressive decoding: one full forward of the fixed shape [B, P + C] per
 * generated token (no cache; shapes stay fixed so kernels are reused), reading
 * the next position's logits back with await data(). Sampling draws with the
 * project's Random on the probabilities read back.
 */
export async function plannerDecode(p: ParamMap, cfg: PlannerConfig, prompt: tf.Tensor2D, opts: DecodeOptions): Promise<Decoded> {
  const [b, pl] = prompt.shape;
  const c = cfg.completionLength;
  if (opts.temperature > 0 && !opts.rng) throw new Error('plannerDecode: sampling needs an rng');
  const promptIds = Array.from(await prompt.data());
  const gen: number[][] = Array.from({ length: b }, () => []);
  const lps: number[][] = Array.from({ length: b }, () => []);
  const done = new Array<boolean>(b).fill(false);
  const banned = new Set([SPECIAL.pad, SPECIAL.bos, SPECIAL.sep, ...(opts.banned ?? [])]);
  for (let t = 0; t < c && !done.every(Boolean); t++) {
    const seq = new Int32Array(b * (pl + c));
    for (let r = 0; r < b; r++) {
      seq.set(promptIds.slice(r * pl, (r + 1) * pl), r * (pl + c));
      seq.set(gen[r], r * (pl + c) + pl);
    }
    const row = tf.tidy(() => {
      const h = plannerHidden(p, cfg, tf.tensor2d(seq, [b, pl + c], 'int32'));
      return tf.reshape(unembed(p, cfg, tf.slice(h, [0, pl + t - 1, 0], [b, 1, cfg.dim])), [b, cfg.vocabSize]);
    });
    const values = (await row.data()) as Float32Array;
    row.dispose();
    for (let r = 0; r < b; r++) {
      if (done[r]) continue;
      const logits = Array.from(values.subarray(r * cfg.vocabSize, (r + 1) * cfg.vocabSize), (v, i) => (banned.has(i) ? -Infinity : v));
      const lp = logSoftmax(logits);
      let id: number;
      if (opts.temperature <= 0) id = lp.indexOf(Math.max(...lp));
      else id = sampleIndex(opts.rng as Random, logSoftmax(logits.map((v) => v / opts.temperature)).map(Math.exp));
      // The last slot must hold eos so every completion is terminated.
      if (t === c - 1) id = SPECIAL.eos;
      gen[r].push(id);
      lps[r].push(lp[id]);
      if (id === SPECIAL.eos) done[r] = true;
    }
  }
  return { tokens: gen, logProbs: lps };
}

function logSoftmax(v: number[]): number[] {
  let max = -Infinity;
  for (const x of v) if (x > max) max = x;
  let z = 0;
  for (const x of v) z += Math.exp(x - max);
  const lz = max + Math.log(z);
  return v.map((x) => x - lz);
}
