/**
 * Layers the grounder uses to read the screen and match what it read with
 * the instruction. Same rule as layers.ts: only matMul, pad/slice/concat and
 * element-wise ops, so every one has gradients on WebGPU and WASM.
 */
import * as tf from './tf';
import { matMul } from './fastops';
import { addBias, hasRowKernels, softmax, thinProductNT } from './rowOps';
import { dense, denseSpecs, MASKED } from './layers';
import { get, type ParamMap, type ParamSpecs } from './params';
import { oneHotFloat } from './dtype';

/** Log of a probability, kept finite where the probability underflows. */
export const EPS = 1e-6;

export function safeLog(x: tf.Tensor): tf.Tensor {
  return tf.log(tf.add(x, EPS));
}

export function rowConvSpecs(name: string, dim: number, width: number): ParamSpecs {
  return denseSpecs(name, width * dim, dim, 1 / Math.sqrt(width * dim));
}

/**
 * A 1×`width` convolution along each row of a grid [B, H, W, d] (zero
 * padding, odd width): a cell sees the cells left and right of it, the
 * span of a short word, which is how text runs. Written as a sum of one
 * product per shift, not a concat (whose gradient is slow on WASM).
 */
export function rowConv(p: ParamMap, name: string, x: tf.Tensor4D, width: number): tf.Tensor4D {
  const [b, h, w, d] = x.shape;
  const half = (width - 1) / 2;
  const weight = get(p, `${name}.w`);
  const out = weight.shape[1] as number;
  const padded = tf.pad(x, [[0, 0], [0, 0], [half, half], [0, 0]]);
  let acc: tf.Tensor | null = null;
  for (let k = 0; k < width; k++) {
    const view = tf.reshape(tf.slice(padded, [0, 0, k, 0], [b, h, w, d]), [b * h * w, d]) as tf.Tensor2D;
    const y = matMul(view, tf.slice(weight, [k * d, 0], [d, out]));
    acc = acc ? tf.add(acc, y) : y;
  }
  return tf.reshape(addBias(acc as tf.Tensor, get(p, `${name}.b`)), [b, h, w, out]);
}

/**
 * Rows of x [S, ...] each repeated k times in place → [S·k, ...]: several
 * instructions about one screen share that screen's features (the stem runs
 * once per screen). A broadcast add, so the gradient sums over the k copies.
 */
export function repeatRows(x: tf.Tensor, k: number): tf.Tensor {
  if (k === 1) return x;
  const [s, ...rest] = x.shape;
  const spread = tf.add(tf.reshape(x, [s, 1, ...rest]), tf.zeros([1, k, ...rest.map(() => 1)], x.dtype));
  return tf.reshape(spread, [s * k, ...rest]);
}

/** x [U·m, …] whose rows come in U blocks of m → [U·repeat·m, …], each block repeated `repeat` times in place (the gradient sums the copies). */
export function repeatGroups(x: tf.Tensor, groups: number, repeat: number): tf.Tensor {
  if (repeat === 1) return x;
  const [rows, ...rest] = x.shape;
  if (x.size === 0) return tf.zeros([rows * repeat, ...rest]); // an emulator's dropped attention keeps no keys
  return tf.reshape(repeatRows(tf.reshape(x, [groups, -1]), repeat), [rows * repeat, ...rest]);
}

/**
 * Rows `rows` [B] (int32 indices into S) of x [S, …] → [B, …], by a one-hot
 * [B, S] product: exact copies of finite values (times 1, plus zeros), and
 * on WASM about 50× faster than GatherV2 for large rows (5 ms against 280 ms
 * for 16 glyph maps).
 */
export function pickRows(x: tf.Tensor, rows: tf.Tensor1D): tf.Tensor {
  const [s, ...rest] = x.shape;
  const b = rows.shape[0];
  // tf.oneHot needs a depth of at least 2.
  const hot = tf.slice(oneHotFloat(rows, Math.max(s, 2)), [0, 0], [b, s]) as tf.Tensor2D;
  return tf.reshape(tf.matMul(hot, tf.reshape(x, [s, -1])), [b, ...rest]);
}

export function slotPoolSpecs(name: string, dim: number, slots: number): ParamSpecs {
  return denseSpecs(name, dim, slots, 0.02);
}

/**
 * Attention pooling of the instruction's tokens into `slots` summaries
 * (what role, which icon, which colour, where …): each slot scores every
 * token and takes the softmax-weighted mean. text [B, T, d], valid [B, T]
 * (1 = token) → [B, slots, d].
 */
export function slotPool(p: ParamMap, name: string, text: tf.Tensor, valid: tf.Tensor): tf.Tensor {
  const scores = dense(p, name, text); // [B, T, S]
  const masked = tf.add(scores, tf.expandDims(tf.mul(tf.sub(1, valid), MASKED), 2));
  const weights = softmax(tf.transpose(masked, [0, 2, 1])); // [B, S, T]
  return matMul(weights, text); // [B, S, d]
}

/**
 * screen [S, N, C] × want [S·k, C] → [S·k, N]: each of the k wants of a
 * screen against that screen's cells, without copying the screen k times.
 */
export function perScreenProduct(screen: tf.Tensor, want: tf.Tensor, k: number): tf.Tensor {
  const [s, n, c] = screen.shape;
  if (hasRowKernels()) return tf.reshape(thinProductNT(tf.reshape(want, [s, k, c]) as tf.Tensor3D, screen as tf.Tensor3D), [s * k, n]);
  const w = tf.transpose(tf.reshape(want, [s, k, c]), [0, 2, 1]); // [S, C, k]
  return tf.reshape(tf.transpose(matMul(screen, w), [0, 2, 1]), [s * k, n]);
}

/**
 * How well each cell's predicted letter bag explains a wanted bag: the
 * Bernoulli log-likelihood Σ_c want_c·log p_ic + (1 − want_c)·log(1 − p_ic),
 * divided by the number of classes. logP, logQ [S, N, C] (log p, log(1 − p)
 * per screen), want [S·k, C] → [S·k, N].
 */
export function bagLogLikelihood(logP: tf.Tensor, logQ: tf.Tensor, want: tf.Tensor, k: number): tf.Tensor {
  const c = logP.shape[2] as number;
  const ll = tf.add(perScreenProduct(logP, want, k), perScreenProduct(logQ, tf.sub(1, want), k));
  return tf.mul(ll, 1 / c);
}

/**
 * Soft union of the letters of the chosen tokens: weights [B, T] in [0, 1],
 * tokenBags [B, T, C] 0/1 → [B, C], 1 − Π_t (1 − w_t·bag_tc).
 */
export function softUnion(weights: tf.Tensor, tokenBags: tf.Tensor): tf.Tensor {
  const miss = tf.sub(1, tf.mul(tf.expandDims(weights, 2), tokenBags)); // [B, T, C]
  return tf.sub(1, tf.exp(tf.sum(safeLog(miss), 1)));
}

/** log Σ_k q_k p_ik: how likely each cell shows the class the instruction asks for. probs [S, N, K] per screen, q [S·k, K] → [S·k, N]. */
export function classMatch(probs: tf.Tensor, q: tf.Tensor, k: number): tf.Tensor {
  return safeLog(perScreenProduct(probs, q, k));
}
