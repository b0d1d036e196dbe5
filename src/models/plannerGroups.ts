/**
 * Planner log-probs for groups of completions that share a prompt (a GRPO
 * group: G samples of one state). The causal mask means a prompt's hidden
 * states never see the completion, so the prompt goes through the network
 * once per group instead of once per row, and each completion attends to
 * its group's prompt keys and values. Prompts are most of a sequence (about
 * 300 tokens against 48), so a group of 7 costs about a quarter of the
 * FLOPs plannerLogProbs spends on the same rows; the values are the same
 * (planner-groups test, 1e-5).
 */
import * as tf from './tf';
import { SPECIAL } from '../text/tokenizer';
import { addToEach, causalMask, dense, harmonizer, harmonizerName, isReplaced, keyPaddingMask, layerNorm, mlpUnit } from './layers';
import { matMul } from './fastops';
import { softmax } from './rowOps';
import { repeatGroups } from './readLayers';
import type { ParamMap } from './params';
import { completionLogProbs, plannerLogits, positions, tokenEmbedding, type PlannerConfig } from './planner';
import { mergeHeads, splitHeads } from './heads';

/**
 * What plannerLogProbs gives for prompt row ⌊i / repeat⌋ with completion
 * row i: prompt [U, L] (left-padded), completion [U·repeat, C] → [U·repeat, C].
 */
export function plannerGroupLogProbs(p: ParamMap, cfg: PlannerConfig, prompt: tf.Tensor2D, completion: tf.Tensor2D, repeat: number, mask?: tf.Tensor3D, copy?: tf.Tensor3D): tf.Tensor2D {
  const [u, pl] = prompt.shape;
  const [n, c] = completion.shape;
  if (n !== u * repeat) throw new Error(`plannerGroupLogProbs: ${n} completions are not ${u} prompts × ${repeat}`);
  const h = cfg.heads;
  const dh = cfg.dim / h;
  const scale = 1 / Math.sqrt(dh);
  const promptKeys = keyPaddingMask(tf.notEqual(prompt, tf.scalar(SPECIAL.pad, 'int32'))); // [U, 1, 1, L]
  const promptSelf = tf.add(causalMask(pl), promptKeys);
  const promptKeysN = repeatGroups(promptKeys, u, repeat); // [n, 1, 1, L]: every completion query sees the whole prompt
  const completionSelf = tf.add(causalMask(c), keyPaddingMask(tf.notEqual(completion, tf.scalar(SPECIAL.pad, 'int32'))));
  const pos = positions(p, cfg, pl, pl + c);
  let xp: tf.Tensor = addToEach(tokenEmbedding(p, prompt), tf.slice(pos, [0, 0], [pl, cfg.dim]));
  let xc: tf.Tensor = addToEach(tokenEmbedding(p, completion), tf.slice(pos, [pl, 0], [c, cfg.dim]));
  for (let i = 0; i < cfg.layers; i++) {
    const name = `blocks.${i}`;
    if (isReplaced(p, name, 'attn')) {
      const hz = harmonizerName(name, 'attn');
      xp = mlpUnit(p, name, tf.add(xp, harmonizer(p, hz, xp)));
      xc = mlpUnit(p, name, tf.add(xc, harmonizer(p, hz, xc)));
      continue;
    }
    const ap = layerNorm(p, `${name}.ln1`, xp);
    const qp = splitHeads(dense(p, `${name}.attn.q`, ap), h);
    const kp = splitHeads(dense(p, `${name}.attn.k`, ap), h);
    const vp = splitHeads(dense(p, `${name}.attn.v`, ap), h);
    const scoresP = tf.add(tf.reshape(tf.mul(matMul(qp, kp, true), scale), [u, h, pl, pl]), promptSelf);
    const attP = matMul(tf.reshape(softmax(scoresP), [u * h, pl, pl]), vp);

    const ac = layerNorm(p, `${name}.ln1`, xc);
    const qc = splitHeads(dense(p, `${name}.attn.q`, ac), h);
    const kc = splitHeads(dense(p, `${name}.attn.k`, ac), h);
    const vc = splitHeads(dense(p, `${name}.attn.v`, ac), h);
    // One softmax over the group's prompt keys and the row's own completion keys, as the full forward takes it.
    const sp = tf.add(tf.reshape(tf.mul(matMul(qc, repeatGroups(kp, u, repeat), true), scale), [n, h, c, pl]), promptKeysN);
    const sc = tf.add(tf.reshape(tf.mul(matMul(qc, kc, true), scale), [n, h, c, c]), completionSelf);
    const probs = tf.reshape(softmax(tf.concat([sp, sc], 3)), [n * h, c, pl + c]);
    const attC = tf.add(matMul(tf.slice(probs, [0, 0, 0], [n * h, c, pl]), repeatGroups(vp, u, repeat)), matMul(tf.slice(probs, [0, 0, pl], [n * h, c, c]), vc));

    xp = mlpUnit(p, name, tf.add(xp, dense(p, `${name}.attn.o`, mergeHeads(attP, u, h))));
    xc = mlpUnit(p, name, tf.add(xc, dense(p, `${name}.attn.o`, mergeHeads(attC, n, h))));
  }
  // The prompt's last position predicts the first completion token; completion position t predicts token t + 1.
  const first = repeatGroups(tf.slice(xp, [0, pl - 1, 0], [u, 1, cfg.dim]), u, repeat);
  const rest = tf.slice(xc, [0, 0, 0], [n, c - 1, cfg.dim]);
  const hidden = layerNorm(p, 'ln_f', tf.concat([first, rest], 1));
  return completionLogProbs(plannerLogits(p, cfg, hidden, copy), completion, mask);
}
