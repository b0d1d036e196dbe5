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
 * A batch's prompts may be padded to any length L ≤ P (plannerData's
 * buckets): positions are counted back from the prompt's end, so the
 * prompt's tokens take the position embeddings P-L … P-1 whatever L is, and
 * the same prompt gives the same logits padded to 192 or to 512.
 *
 * Completion format (plannerData.ts builds it): the instruction text then
 * <eos>; for CoT-SFT, `<think> short reasoning </think> instruction <eos>`.
 */
import * as tf from './tf';
import { maskOf, oneHotFloat } from './dtype';
import { Random } from '../learn/random';
import { SPECIAL } from '../text/tokenizer';
import { addToEach, block, blockSpecs, causalMask, dense, embeddingSpecs, harmonizer, harmonizerName, isReplaced, keyPaddingMask, layerNorm, layerNormSpecs, mlpUnit } from './layers';
import { matMul, transposedTimes } from './fastops';
import { get, initParams, normal, ZEROS, type ParamMap, type Params, type ParamSpecs } from './params';
import { softmax } from './rowOps';
import { pickedLogProbs } from './pickedLogProbs';
import { mergeHeads, splitHeads } from './heads';

export interface PlannerConfig {
  model: 'planner';
  vocabSize: number;
  promptLength: number; // P
  completionLength: number; // C (eos included)
  dim: number;
  heads: number;
  layers: number;
  /** Prompts mark the description lines the goal names (text/goalMarks.ts); absent in checkpoints written before the marks. */
  goalMarks?: boolean;
  /**
   * A learned, context-gated bonus on the logits of the tokens that go on
   * copying a goal-named text into a quoted span (text/copyMarks.ts):
   * logits + softplus(h·w + b + COPY_GATE_START) · marks. Absent in
   * checkpoints written before it.
   */
  copyGate?: boolean;
}

export function plannerSpecs(cfg: PlannerConfig): ParamSpecs {
  const s: ParamSpecs = {
    ...embeddingSpecs('tok', cfg.vocabSize, cfg.dim, 0.05),
    'pos': { shape: [cfg.promptLength + cfg.completionLength, cfg.dim], init: normal(0.05) },
    ...layerNormSpecs('ln_f', cfg.dim),
  };
  for (let i = 0; i < cfg.layers; i++) Object.assign(s, blockSpecs(`blocks.${i}`, cfg.dim));
  if (cfg.copyGate) Object.assign(s, copyGateSpecs(cfg));
  return s;
}

/** The copy gate's weights: zeros, so a new gate starts at COPY_GATE_START everywhere. */
export function copyGateSpecs(cfg: PlannerConfig): ParamSpecs {
  return { 'copy.w': { shape: [cfg.dim, 1], init: ZEROS }, 'copy.b': { shape: [1], init: ZEROS } };
}

/** Whether two planner configs differ at most in the copy gate, which fitCopyGate adds or drops. */
export function sameUpToCopyGate(a: PlannerConfig, b: PlannerConfig): boolean {
  const { copyGate: _a, ...restA } = a;
  const { copyGate: _b, ...restB } = b;
  return JSON.stringify(restA) === JSON.stringify(restB);
}

/**
 * Weights of a planner made with or without a copy gate, fitted to `cfg`
 * (in place): the gate's weights dropped (the same planner without the
 * bonus: the ablation) or added as a new gate (COPY_GATE_START everywhere).
 */
export function fitCopyGate(params: Params, cfg: PlannerConfig): Params {
  const specs = copyGateSpecs(cfg);
  if (cfg.copyGate) {
    for (const [name, t] of Object.entries(initParams(new Random(0), specs))) {
      if (params[name]) t.dispose();
      else params[name] = t;
    }
  } else {
    for (const name of Object.keys(specs)) {
      params[name]?.dispose();
      delete params[name];
    }
  }
  return params;
}

/**
 * The bonus a new copy gate gives a marked token, in logits: at 3, adding
 * it to the shipped planner's greedy decoding (no training) raised exact
 * action and target on cross-domain states from 2.8% to 12.5% (docs/experiments.md).
 */
export const COPY_GATE_START = 3;
const COPY_GATE_OFFSET = Math.log(Math.expm1(COPY_GATE_START));

/** The copy gate's bonus [B, n, 1] ≥ 0 at hidden states [B, n, d] (after ln_f). */
export function copyGate(p: ParamMap, h: tf.Tensor): tf.Tensor {
  return tf.softplus(tf.add(dense(p, 'copy', h), COPY_GATE_OFFSET));
}

/**
 * Logits [B, n, V] at hidden states [B, n, d]: the tied output product, plus
 * the copy gate's bonus on the marked tokens `copy` ([B, n, V] 0/1,
 * copyTensor) when the planner has a gate.
 */
export function plannerLogits(p: ParamMap, cfg: PlannerConfig, h: tf.Tensor, copy?: tf.Tensor3D): tf.Tensor3D {
  const logits = unembed(p, cfg, h);
  return cfg.copyGate && copy ? (tf.add(logits, tf.mul(copyGate(p, h), copy)) as tf.Tensor3D) : logits;
}

/** The marks of copyIndices (flat indices into [B, C, V]) as a 0/1 tensor. */
export function copyTensor(indices: Int32Array, b: number, c: number, v: number): tf.Tensor3D {
  const out = new Float32Array(b * c * v);
  for (const i of indices) out[i] = 1;
  return tf.tensor3d(out, [b, c, v]);
}

export function initPlanner(rng: Random, cfg: PlannerConfig): Params {
  return initParams(rng, plannerSpecs(cfg));
}

/**
 * Token embeddings [B, S, d]: a row lookup forward, and as gradient each
 * row's summed dy (embeddingGradient), the values layers.ts's one-hot
 * embedding gives without its forward [B·S, V] × [V, d] product or the
 * unused gradient for the one-hot input; on WASM those two were over half of
 * a tiny-preset training step. Gather's own gradient (unsortedSegmentSum) is
 * not on every backend.
 */
export function tokenEmbedding(p: ParamMap, ids: tf.Tensor2D): tf.Tensor3D {
  const table = get(p, 'tok');
  const [v, d] = table.shape;
  const lookupRows = tf.customGrad((...args: (tf.Tensor | tf.GradSaveFunc)[]) => {
    const [t, save] = args as [tf.Tensor, tf.GradSaveFunc];
    // Kept for the backward pass (intermediates not saved are freed when the forward's scope ends).
    save([ids]);
    return {
      value: tf.gather(t, ids),
      gradFunc: (dy: tf.Tensor, saved: tf.Tensor[]) => [embeddingGradient(saved[0], tf.reshape(dy, [-1, d]), v)],
    };
  });
  return lookupRows(table) as tf.Tensor3D;
}

/**
 * The table's gradient [V, d] from the rows' gradients dy [N, d] of token
 * ids [..] (N ids): each id's row gathers the sum of its positions' dy. On
 * WASM and CPU a scatter-add (ScatterNd sums repeated ids in one pass over
 * the N rows), where oneHotᵀ · dy builds an [N, V] one-hot and a product that
 * both grow with the vocabulary. WebGPU's ScatterNd adds with atomics in no
 * fixed order, so there the product stays, and a run gives the same numbers
 * every time; on WebGPU an explicit transpose of the one-hot took 5.4 s of a
 * 67 s planner step on SwiftShader (npm run bench), so its flag does it.
 */
export function embeddingGradient(ids: tf.Tensor, dy: tf.Tensor2D, v: number): tf.Tensor2D {
  const d = dy.shape[1];
  if (tf.getBackend() === 'wasm' || tf.getBackend() === 'cpu') return tf.scatterND(tf.reshape(ids, [-1, 1]), dy, [v, d]) as tf.Tensor2D;
  return transposedTimes(tf.reshape(oneHotFloat(ids, v), [-1, v]), dy) as tf.Tensor2D;
}

/** Position embeddings [length, d] of the positions P − promptTokens … (see the file comment). */
export function positions(p: ParamMap, cfg: PlannerConfig, promptTokens: number, length: number): tf.Tensor {
  const start = cfg.promptLength - promptTokens;
  if (start < 0 || start + length > cfg.promptLength + cfg.completionLength) {
    throw new Error(`planner: ${length} positions from prompt length ${promptTokens} do not fit P = ${cfg.promptLength}, C = ${cfg.completionLength}`);
  }
  return tf.slice(get(p, 'pos'), [start, 0], [length, cfg.dim]);
}

/**
 * Final hidden states [B, S, d] of a whole sequence [B, S] = prompt [B, L]
 * then completion [B, C'] (S = L + C'; `promptTokens` = L, by default S − C).
 */
function plannerHidden(p: ParamMap, cfg: PlannerConfig, seq: tf.Tensor2D, promptTokens = seq.shape[1] - cfg.completionLength): tf.Tensor3D {
  const s = seq.shape[1];
  const valid = tf.notEqual(seq, tf.scalar(SPECIAL.pad, 'int32'));
  // Pads after a real token are never attended by the positions that matter (causal), so
  // masking every pad key is safe; it is what hides the prompt's left padding.
  const mask = tf.add(causalMask(s), keyPaddingMask(valid));
  let x = addToEach(tokenEmbedding(p, seq), positions(p, cfg, promptTokens, s));
  for (let i = 0; i < cfg.layers; i++) x = block(p, `blocks.${i}`, x, cfg.heads, mask);
  return layerNorm(p, 'ln_f', x) as tf.Tensor3D;
}

/** Hidden states [B, n, d] → logits [B, n, V] through the tied embedding table. */
export function unembed(p: ParamMap, cfg: PlannerConfig, h: tf.Tensor): tf.Tensor3D {
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
export function plannerLogProbs(p: ParamMap, cfg: PlannerConfig, prompt: tf.Tensor2D, completion: tf.Tensor2D, mask?: tf.Tensor3D, copy?: tf.Tensor3D): tf.Tensor2D {
  return completionLogProbs(plannerCompletionLogits(p, cfg, prompt, completion, copy), completion, mask);
}

/** Final hidden states [B, P + C, d] of prompt then completion, with a 0/1 mask [B, P + C] of the real (not padding) tokens. */
export function plannerSequenceHidden(p: ParamMap, cfg: PlannerConfig, prompt: tf.Tensor2D, completion: tf.Tensor2D): { hidden: tf.Tensor3D; real: tf.Tensor2D } {
  const seq = tf.concat([prompt, completion], 1) as tf.Tensor2D;
  return { hidden: plannerHidden(p, cfg, seq, prompt.shape[1]), real: tf.cast(tf.notEqual(seq, tf.scalar(SPECIAL.pad, 'int32')), 'float32') as tf.Tensor2D };
}

/** The logits [B, C, V] that predict each completion token, teacher-forced (prompt [B, P] left-padded, completion [B, C]). */
function plannerCompletionLogits(p: ParamMap, cfg: PlannerConfig, prompt: tf.Tensor2D, completion: tf.Tensor2D, copy?: tf.Tensor3D): tf.Tensor3D {
  const [b, pl] = prompt.shape;
  const c = completion.shape[1];
  const h = plannerHidden(p, cfg, tf.concat([prompt, completion], 1) as tf.Tensor2D, pl);
  // Only the C positions that predict the completion go through the (large) output matMul.
  return plannerLogits(p, cfg, tf.slice(h, [0, pl - 1, 0], [b, c, cfg.dim]), copy);
}

/** log π of each completion token [B, C] from the logits [B, C, V] that predict it. */
export function completionLogProbs(predicting: tf.Tensor3D, completion: tf.Tensor2D, mask?: tf.Tensor3D): tf.Tensor2D {
  // Under a decoding constraint, the distribution renormalised over what it allowed (allowedMask).
  return pickedLogProbs(predicting, completion, mask) as tf.Tensor2D;
}

/** A run of positions whose next token is predicted: positions start … start + length − 1. */
export interface Span {
  start: number;
  length: number;
  /** Copy marks [B, length, V] of these predictions (plannerLogits). */
  copy?: tf.Tensor3D;
}

/**
 * Next-token log-probs over whole sequences [B, S] (pretraining: the prompt
 * is a target too), only at the positions of `spans` so the output matMul
 * stays small: for each span [B, length], entry t is log π(seq[start + t + 1]
 * | seq[≤ start + t]), with a 0/1 mask of the predictions that count (both
 * the input and the target are real tokens, so left padding and the padding
 * after eos are skipped).
 */
export function plannerSpanLogProbs(p: ParamMap, cfg: PlannerConfig, seq: tf.Tensor2D, spans: readonly Span[]): { logProbs: tf.Tensor2D; mask: tf.Tensor2D }[] {
  const [b, s] = seq.shape;
  for (const sp of spans) {
    if (sp.start < 0 || sp.length < 1 || sp.start + sp.length > s - 1) throw new Error(`plannerSpanLogProbs: span ${sp.start}+${sp.length} does not fit a sequence of ${s}`);
  }
  const h = plannerHidden(p, cfg, seq);
  const real = maskOf(tf.notEqual(seq, tf.scalar(SPECIAL.pad, 'int32'))) as tf.Tensor2D;
  return spans.map(({ start, length, copy }) => {
    const logits = plannerLogits(p, cfg, tf.slice(h, [0, start, 0], [b, length, cfg.dim]), copy);
    const target = tf.slice(seq, [0, start + 1], [b, length]) as tf.Tensor2D;
    const logProbs = pickedLogProbs(logits, target) as tf.Tensor2D;
    const mask = tf.mul(tf.slice(real, [0, start], [b, length]), tf.slice(real, [0, start + 1], [b, length])) as tf.Tensor2D;
    return { logProbs, mask };
  });
}

/** 1 for completion tokens up to and including the first eos, 0 after (as float32 [B, C]). */
export function completionMask(completion: tf.Tensor2D): tf.Tensor2D {
  return tf.tidy(() => maskOf(tf.notEqual(completion, tf.scalar(SPECIAL.pad, 'int32'))) as tf.Tensor2D);
}
