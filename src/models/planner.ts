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
import { DECODE_ATTENTION } from './kernelNames';
import { mergeHeads, splitHeads } from './heads';
import { sampleIndex } from './grounder';
import { repeatGroups } from './readLayers';
import type { RowConstraint } from '../text/instructionConstraint';

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

export interface DecodeOptions {
  /** 0 = greedy; otherwise sample from softmax(logits / temperature) with `rng`. */
  temperature: number;
  rng?: Random;
  /** Tokens that may never be produced (e.g. pad, bos, sep). */
  banned?: readonly number[];
  /**
   * Per row, the grammar constraint (text/instructionConstraint.ts): only
   * the tokens it allows are drawn, from the distribution renormalised over
   * them, and log-probs are taken under that same renormalised
   * distribution, as GRPO's training pass recomputes it (`allowedMask`).
   */
  constraints?: readonly (RowConstraint | null)[];
  /** Each prompt row stands for this many consecutive rows (a GRPO group): the prompt runs once for them (default 1). */
  repeat?: number;
  /**
   * Per row, the copy marks after its tokens so far (text/copyMarks.ts
   * copyTokens): with a copy gate, those tokens' logits get the gate's
   * bonus before sampling, as plannerLogits adds it in training.
   */
  copy?: readonly (RowCopy | null)[];
}

/** The marked next tokens of one row after the tokens generated so far. */
export type RowCopy = (generated: readonly number[]) => readonly number[];

export interface Decoded {
  tokens: number[][]; // per row, up to and including eos (no padding)
  logProbs: number[][]; // per generated token, under temperature 1 (the policy GRPO trains)
  /** Per row and generated token, the allowed set it was drawn from (only for constrained rows). */
  allowed?: (Uint8Array[] | null)[];
}

/**
 * Keys and values of every layer, split by heads ([B·heads, T, dh]): the
 * prompt's, computed once, and the generated tokens', grown one position per
 * step. They stay apart so that a step copies only the short completion part.
 * A layer whose attention an emulator replaced by a harmonizer has empty
 * ([B·heads, 0, dh]) entries: a harmonizer reads only its own position.
 */
interface KvCache {
  promptK: tf.Tensor3D[];
  promptV: tf.Tensor3D[];
  genK: (tf.Tensor3D | null)[];
  genV: (tf.Tensor3D | null)[];
  /** Additive mask on the prompt's keys, [B, 1, 1, P] (hides the left padding). */
  promptMask: tf.Tensor;
}

function disposeCache(c: KvCache): void {
  tf.dispose([...c.promptK, ...c.promptV, ...c.genK.filter((t): t is tf.Tensor3D => t !== null), ...c.genV.filter((t): t is tf.Tensor3D => t !== null), c.promptMask]);
}

/**
 * One decoding step's logits [B, V] from its hidden states [B, 1, d], with
 * the copy gate's bonus as an extra last column [B, V + 1] when the planner
 * has one: the host adds it to the marked tokens (read back in one go).
 */
function decodeLogits(p: ParamMap, cfg: PlannerConfig, h: tf.Tensor): tf.Tensor2D {
  const b = h.shape[0];
  const logits = tf.reshape(unembed(p, cfg, h), [b, cfg.vocabSize]);
  return (cfg.copyGate ? tf.concat([logits, tf.reshape(copyGate(p, h), [b, 1])], 1) : logits) as tf.Tensor2D;
}

/**
 * The prompt [B, P] through every layer once, as plannerHidden would (causal
 * mask plus the padding mask): its keys and values per layer, and the
 * logits [B, V] of its last position (the first completion token's).
 */
function prefill(p: ParamMap, cfg: PlannerConfig, prompt: tf.Tensor2D): { logits: tf.Tensor2D; cache: KvCache } {
  const out = tf.tidy(() => {
    const [b, pl] = prompt.shape;
    const h = cfg.heads;
    const dh = cfg.dim / h;
    const promptMask = keyPaddingMask(tf.notEqual(prompt, tf.scalar(SPECIAL.pad, 'int32')));
    const mask = tf.add(causalMask(pl), promptMask);
    let x: tf.Tensor = tf.add(tokenEmbedding(p, prompt), positions(p, cfg, pl, pl));
    const promptK: tf.Tensor3D[] = [];
    const promptV: tf.Tensor3D[] = [];
    for (let i = 0; i < cfg.layers; i++) {
      const name = `blocks.${i}`;
      if (isReplaced(p, name, 'attn')) {
        promptK.push(tf.zeros([b * h, 0, dh]));
        promptV.push(tf.zeros([b * h, 0, dh]));
        x = mlpUnit(p, name, tf.add(x, harmonizer(p, harmonizerName(name, 'attn'), x)));
        continue;
      }
      const a = layerNorm(p, `${name}.ln1`, x);
      const q = splitHeads(dense(p, `${name}.attn.q`, a), h);
      const k = splitHeads(dense(p, `${name}.attn.k`, a), h);
      const v = splitHeads(dense(p, `${name}.attn.v`, a), h);
      promptK.push(k);
      promptV.push(v);
      const scores = tf.add(tf.reshape(tf.mul(matMul(q, k, true), 1 / Math.sqrt(dh)), [b, h, pl, pl]), mask);
      const att = matMul(tf.reshape(softmax(scores), [b * h, pl, pl]), v);
      const hh = tf.add(x, dense(p, `${name}.attn.o`, mergeHeads(att, b, h)));
      x = mlpUnit(p, name, hh);
    }
    const logits = decodeLogits(p, cfg, layerNorm(p, 'ln_f', tf.slice(x, [0, pl - 1, 0], [b, 1, cfg.dim])));
    return { logits, promptK, promptV, promptMask };
  });
  const { logits, promptK, promptV, promptMask } = out;
  return { logits, cache: { promptK, promptV, genK: promptK.map(() => null), genV: promptV.map(() => null), promptMask } };
}

/** A prefill of U prompts spread to U·repeat rows, each prompt's row repeated in place (frees what it replaces). */
function repeatPrefill(f: { logits: tf.Tensor2D; cache: KvCache }, groups: number, repeat: number): { logits: tf.Tensor2D; cache: KvCache } {
  if (repeat === 1) return f;
  const spread = <T extends tf.Tensor>(t: T): T => {
    const out = tf.tidy(() => repeatGroups(t, groups, repeat)) as T;
    t.dispose();
    return out;
  };
  const c = f.cache;
  return {
    logits: spread(f.logits),
    cache: { promptK: c.promptK.map(spread), promptV: c.promptV.map(spread), genK: c.genK, genV: c.genV, promptMask: spread(c.promptMask) },
  };
}

/**
 * One new token per row, `ids` [B, 1] at completion position `t`, attending to the
 * cached prompt and earlier generated tokens plus itself: its logits [B, V]
 * and the generated keys/values grown by one position (the old ones are the
 * caller's to dispose).
 */
function extend(p: ParamMap, cfg: PlannerConfig, cache: KvCache, ids: tf.Tensor2D, t: number): { logits: tf.Tensor2D; genK: tf.Tensor3D[]; genV: tf.Tensor3D[] } {
  return tf.tidy(() => {
    const b = ids.shape[0];
    const h = cfg.heads;
    const dh = cfg.dim / h;
    const pl = cache.promptMask.shape[3] as number;
    // WASM: each layer's attention and cache growth in one kernel (decodeAttentionLoops.ts).
    const byKernel = Boolean(tf.getKernel(DECODE_ATTENTION, tf.getBackend()));
    let x: tf.Tensor = tf.add(tokenEmbedding(p, ids), tf.slice(get(p, 'pos'), [cfg.promptLength + t, 0], [1, cfg.dim]));
    const genK: tf.Tensor3D[] = [];
    const genV: tf.Tensor3D[] = [];
    for (let i = 0; i < cfg.layers; i++) {
      const name = `blocks.${i}`;
      if (isReplaced(p, name, 'attn')) {
        genK.push(tf.zeros([b * h, 0, dh]));
        genV.push(tf.zeros([b * h, 0, dh]));
        x = mlpUnit(p, name, tf.add(x, harmonizer(p, harmonizerName(name, 'attn'), x)));
        continue;
      }
      const a = layerNorm(p, `${name}.ln1`, x);
      const oldK = cache.genK[i];
      const oldV = cache.genV[i];
      if (byKernel) {
        const inputs = { q: dense(p, `${name}.attn.q`, a), kNew: dense(p, `${name}.attn.k`, a), vNew: dense(p, `${name}.attn.v`, a), promptK: cache.promptK[i], promptV: cache.promptV[i], promptMask: cache.promptMask };
        const [att, k, v] = tf.engine().runKernel(DECODE_ATTENTION, oldK && oldV ? { ...inputs, genK: oldK, genV: oldV } : inputs, { heads: h }) as tf.Tensor3D[];
        genK.push(k);
        genV.push(v);
        x = mlpUnit(p, name, tf.add(x, dense(p, `${name}.attn.o`, att)));
        continue;
      }
      const q = splitHeads(dense(p, `${name}.attn.q`, a), h);
      const kNew = splitHeads(dense(p, `${name}.attn.k`, a), h);
      const vNew = splitHeads(dense(p, `${name}.attn.v`, a), h);
      const k = oldK ? (tf.concat([oldK, kNew], 1) as tf.Tensor3D) : kNew;
      const v = oldV ? (tf.concat([oldV, vNew], 1) as tf.Tensor3D) : vNew;
      genK.push(k);
      genV.push(v);
      const g = k.shape[1];
      // One softmax over prompt and generated keys together, as the full forward takes it.
      const sp = tf.add(tf.reshape(tf.mul(matMul(q, cache.promptK[i], true), 1 / Math.sqrt(dh)), [b, h, 1, pl]), cache.promptMask);
      const sg = tf.reshape(tf.mul(matMul(q, k, true), 1 / Math.sqrt(dh)), [b, h, 1, g]);
      const probs = tf.reshape(softmax(tf.concat([sp, sg], 3)), [b * h, 1, pl + g]);
      const att = tf.add(matMul(tf.slice(probs, [0, 0, 0], [b * h, 1, pl]), cache.promptV[i]), matMul(tf.slice(probs, [0, 0, pl], [b * h, 1, g]), v));
      const hh = tf.add(x, dense(p, `${name}.attn.o`, mergeHeads(att, b, h)));
      x = mlpUnit(p, name, hh);
    }
    const logits = decodeLogits(p, cfg, layerNorm(p, 'ln_f', x));
    return { logits, genK, genV };
  });
}

/**
 * Autoregressive decoding with a key/value cache: the prompt goes through
 * the network once, then each step runs only the B new tokens (one position
 * per row) against the cached keys and values, which gives the same logits
 * as rerunning the whole sequence (planner-decode test). Each step's logits
 * are read back with await data(); sampling draws with the project's Random
 * on the probabilities read back. Rows that finished keep stepping (with
 * eos fed in) so shapes stay batched; their outputs are ignored.
 */
export async function plannerDecode(p: ParamMap, cfg: PlannerConfig, prompt: tf.Tensor2D, opts: DecodeOptions): Promise<Decoded> {
  const repeat = opts.repeat ?? 1;
  if (!Number.isInteger(repeat) || repeat < 1) throw new Error(`plannerDecode: repeat must be an integer ≥ 1; got ${repeat}`);
  const b = prompt.shape[0] * repeat;
  const c = cfg.completionLength;
  if (opts.temperature > 0 && !opts.rng) throw new Error('plannerDecode: sampling needs an rng');
  if (cfg.dim % cfg.heads !== 0) throw new Error(`plannerDecode: dim ${cfg.dim} is not a multiple of heads ${cfg.heads}`);
  const gen: number[][] = Array.from({ length: b }, () => []);
  const lps: number[][] = Array.from({ length: b }, () => []);
  const done = new Array<boolean>(b).fill(false);
  const banned = new Uint8Array(cfg.vocabSize);
  for (const id of [SPECIAL.pad, SPECIAL.bos, SPECIAL.sep, ...(opts.banned ?? [])]) banned[id] = 1;
  const scratch = new Float64Array(cfg.vocabSize);
  const constraints = opts.constraints;
  if (opts.copy && opts.copy.length !== b) throw new Error(`plannerDecode: ${opts.copy.length} copy rows for ${b} rows`);
  const stride = cfg.vocabSize + (cfg.copyGate ? 1 : 0);
  if (constraints && constraints.length !== b) throw new Error(`plannerDecode: ${constraints.length} constraints for ${b} rows`);
  const allowed: (Uint8Array[] | null)[] = Array.from({ length: b }, (_, r) => (constraints?.[r] ? [] : null));
  const rowBanned = new Uint8Array(cfg.vocabSize);
  // The tokens a row may take, in increasing order: the sums below visit only these (a constrained row allows a handful).
  const unbanned = Int32Array.from(banned.keys()).filter((i) => !banned[i]);
  const rowOpen = new Int32Array(cfg.vocabSize);
  const first = repeatPrefill(prefill(p, cfg, prompt), prompt.shape[0], repeat);
  const cache = first.cache;
  let logits: tf.Tensor2D = first.logits;
  try {
    for (let t = 0; t < c; t++) {
      const values = (await logits.data()) as Float32Array;
      logits.dispose();
      for (let r = 0; r < b; r++) {
        if (done[r]) continue;
        let row = values.subarray(r * stride, r * stride + cfg.vocabSize);
        const marks = cfg.copyGate ? (opts.copy?.[r]?.(gen[r]) ?? []) : [];
        if (marks.length > 0) {
          // Float32 adds, as the training pass's logits + gate · marks rounds them.
          row = row.slice();
          const gate = values[r * stride + cfg.vocabSize];
          for (const id of marks) row[id] += gate;
        }
        let ban = banned;
        let open = unbanned;
        let n = unbanned.length;
        const rc = constraints?.[r];
        if (rc) {
          // The grammar leaves room for eos in the last slot, so it never has to be forced there.
          const ok = rc.allowed(gen[r], c);
          (allowed[r] as Uint8Array[]).push(ok);
          n = 0;
          for (let i = 0; i < ok.length; i++) {
            rowBanned[i] = banned[i] || !ok[i] ? 1 : 0;
            if (!rowBanned[i]) rowOpen[n++] = i;
          }
          if (n === 0) throw new Error(`plannerDecode: the constraint allows no token after ${gen[r].length} tokens in row ${r}`);
          ban = rowBanned;
          open = rowOpen;
        }
        const { best, logZ } = rowStats(row, open, n, 1);
        let id = best;
        if (opts.temperature > 0) {
          const hot = opts.temperature === 1 ? { best, logZ } : rowStats(row, open, n, opts.temperature);
          scratch.fill(0);
          for (let k = 0; k < n; k++) scratch[open[k]] = Math.exp(row[open[k]] / opts.temperature - hot.logZ);
          id = sampleIndex(opts.rng as Random, scratch);
        }
        // The last slot must hold eos so every completion is terminated.
        if (t === c - 1) id = SPECIAL.eos;
        gen[r].push(id);
        lps[r].push(ban[id] ? -Infinity : row[id] - logZ);
        if (id === SPECIAL.eos) done[r] = true;
      }
      if (t === c - 1 || done.every(Boolean)) break;
      const ids = tf.tensor2d(gen.map((g) => g[g.length - 1]), [b, 1], 'int32');
      const next = extend(p, cfg, cache, ids, t);
      ids.dispose();
      tf.dispose([...cache.genK, ...cache.genV].filter((x): x is tf.Tensor3D => x !== null));
      cache.genK = next.genK;
      cache.genV = next.genV;
      logits = next.logits;
    }
  } finally {
    if (!logits.isDisposed) logits.dispose();
    disposeCache(cache);
  }
  return { tokens: gen, logProbs: lps, ...(constraints ? { allowed } : {}) };
}

/**
 * The additive mask [B, C, V] that renormalises log-probs over what a
 * constrained decode allowed (0 allowed, −1e9 not): rows without a
 * constraint, and positions after a row's eos, allow everything.
 */
export function allowedMask(allowed: readonly (readonly Uint8Array[] | null)[], cfg: PlannerConfig): tf.Tensor3D {
  const v = cfg.vocabSize;
  const c = cfg.completionLength;
  const out = new Float32Array(allowed.length * c * v);
  allowed.forEach((steps, r) => {
    if (!steps) return;
    steps.forEach((ok, t) => {
      const base = (r * c + t) * v;
      for (let i = 0; i < v; i++) if (!ok[i]) out[base + i] = -1e9;
    });
  });
  return tf.tensor3d(out, [allowed.length, c, v]);
}

/**
 * Over the allowed entries of `row / temperature` (the first n of `open`,
 * in increasing order): the first index of the largest, and log Σ exp (so
 * a log-prob is row[i] / temperature − logZ). Float64 throughout, on the
 * float32 logits read back.
 */
function rowStats(row: Float32Array, open: Int32Array, n: number, temperature: number): { best: number; logZ: number } {
  let max = -Infinity;
  let best = 0;
  for (let k = 0; k < n; k++) {
    const v = row[open[k]] / temperature;
    if (v > max) {
      max = v;
      best = open[k];
    }
  }
  let z = 0;
  for (let k = 0; k < n; k++) z += Math.exp(row[open[k]] / temperature - max);
  return { best, logZ: max + Math.log(z) };
}
