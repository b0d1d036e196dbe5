/**
 * The planner's key/value cache for decoding: the prompt through every
 * layer once (prefill), then one new position per row at a time (extend),
 * giving the same logits as rerunning the whole sequence (planner-decode
 * test). plannerDecode.ts drives it.
 */
import * as tf from './tf';
import { SPECIAL } from '../text/tokenizer';
import { causalMask, dense, harmonizer, harmonizerName, isReplaced, keyPaddingMask, layerNorm, mlpUnit } from './layers';
import { matMul } from './fastops';
import { get, type ParamMap } from './params';
import { softmax } from './rowOps';
import { DECODE_ATTENTION } from './kernelNames';
import { mergeHeads, splitHeads } from './heads';
import { repeatGroups } from './readLayers';
import { copyGate, positions, tokenEmbedding, unembed, type PlannerConfig } from './planner';

/**
 * Keys and values of every layer, split by heads ([B·heads, T, dh]): the
 * prompt's, computed once, and the generated tokens', grown one position per
 * step. They stay apart so that a step copies only the short completion part.
 * A layer whose attention an emulator replaced by a harmonizer has empty
 * ([B·heads, 0, dh]) entries: a harmonizer reads only its own position.
 */
export interface KvCache {
  promptK: tf.Tensor3D[];
  promptV: tf.Tensor3D[];
  genK: (tf.Tensor3D | null)[];
  genV: (tf.Tensor3D | null)[];
  /** Additive mask on the prompt's keys, [B, 1, 1, P] (hides the left padding). */
  promptMask: tf.Tensor;
}

export function disposeCache(c: KvCache): void {
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
export function prefill(p: ParamMap, cfg: PlannerConfig, prompt: tf.Tensor2D): { logits: tf.Tensor2D; cache: KvCache } {
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
export function repeatPrefill(f: { logits: tf.Tensor2D; cache: KvCache }, groups: number, repeat: number): { logits: tf.Tensor2D; cache: KvCache } {
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
export function extend(p: ParamMap, cfg: PlannerConfig, cache: KvCache, ids: tf.Tensor2D, t: number): { logits: tf.Tensor2D; genK: tf.Tensor3D[]; genV: tf.Tensor3D[] } {
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


/** Replaces the generated keys and values by the next ones (frees the old). */
export function growCache(cache: KvCache, next: { genK: tf.Tensor3D[]; genV: tf.Tensor3D[] }): void {
  tf.dispose([...cache.genK, ...cache.genV].filter((x): x is tf.Tensor3D => x !== null));
  cache.genK = next.genK;
  cache.genV = next.genV;
}

/** Keeps the first `length` generated positions of every layer (frees the rest); a harmonizer's empty entries stay. */
export function truncateCache(cache: KvCache, length: number): void {
  const cut = (t: tf.Tensor3D | null): tf.Tensor3D | null => {
    if (t === null || t.shape[1] === 0 || t.shape[1] === length) return t;
    if (t.shape[1] < length) throw new Error(`truncateCache: ${t.shape[1]} positions cached, ${length} asked for`);
    const kept = length === 0 ? null : tf.slice(t, [0, 0, 0], [t.shape[0], length, t.shape[2]]);
    t.dispose();
    return kept;
  };
  cache.genK = cache.genK.map(cut);
  cache.genV = cache.genV.map(cut);
}
