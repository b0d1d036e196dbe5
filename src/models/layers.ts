/**
 * The building blocks of both models, as plain functions over a ParamMap and
 * a name prefix. Each block has a `…Specs` function that declares its
 * weights, so a model's parameter list is written once, next to its use.
 *
 * Only ops with gradients on both WebGPU and WASM: matMul, softmax,
 * element-wise ops, reshape/transpose/slice/concat/pad, sum/mean. So no conv
 * op (conv3x3 below is padded slices + concat + matMul) and no gather
 * (embedding is one-hot × matrix).
 */
import * as tf from './tf';
import { maskOf, oneHotFloat } from './dtype';
import { im2col3x3, matMul, matMulData } from './fastops';
import { affineKernelOp, hasAffineKernel } from './affineOp';
import { mergeHeads, splitHeads } from './heads';
import { get, normal, ONES, ZEROS, type ParamMap, type ParamSpecs } from './params';
import { GELU_TANH, GELU_TANH_GRAD, ROW_LAYER_NORM } from './kernelNames';
import { addBiasRows, affineRows, columnSums, flaggedProduct, hasRowKernels, im2colKernel, LAYER_NORM_EPS, layerNormRows, softmax } from './rowOps';

/** Additive mask value: large enough to silence a logit, small enough to stay finite in float32 softmax. */
export const MASKED = -1e9;

export function denseSpecs(name: string, fanIn: number, fanOut: number, std = 1 / Math.sqrt(fanIn)): ParamSpecs {
  return { [`${name}.w`]: { shape: [fanIn, fanOut], init: normal(std) }, [`${name}.b`]: { shape: [fanOut], init: ZEROS } };
}

/** x [..., in] → [..., out]; trainsInput false skips the input's gradient (pixels). */
function affine(p: ParamMap, name: string, x: tf.Tensor, trainsInput: boolean): tf.Tensor {
  const [w, b] = [get(p, `${name}.w`), get(p, `${name}.b`)];
  if (hasAffineKernel()) return affineKernelOp(x, w, b, trainsInput);
  const lead = x.shape.slice(0, -1);
  const x2 = tf.reshape(x, [-1, x.shape[x.shape.length - 1]]) as tf.Tensor2D;
  const y = hasRowKernels() ? affineRows(x2, w, b, trainsInput) : tf.add((trainsInput ? matMul : matMulData)(x2, w), b);
  return tf.reshape(y, [...lead, w.shape[1] as number]);
}

export function dense(p: ParamMap, name: string, x: tf.Tensor): tf.Tensor {
  return affine(p, name, x, true);
}

/** dense() on data that is never trained through (pixels): the backward pass skips the input's gradient. */
export function denseOnData(p: ParamMap, name: string, x: tf.Tensor): tf.Tensor {
  return affine(p, name, x, false);
}

/** x [B, ...S] + t [...S]: one table (positions) added to every item; on WebGPU its gradient is a product, not a reduce over B. */
export function addToEach(x: tf.Tensor, t: tf.Tensor, byProducts = hasRowKernels()): tf.Tensor {
  if (!byProducts) return tf.add(x, t);
  const rows = tf.reshape(x, [x.shape[0], -1]) as tf.Tensor2D;
  return tf.reshape(addBiasRows(rows, tf.reshape(t, [-1])), x.shape);
}

/**
 * rows [R, d] ⊕ cols [C, d] → [R·C, d], row-major: cell (r, c) gets
 * rows[r] + cols[c]. On WebGPU as one-hot products, whose gradients are
 * products too (a broadcast add's are reduce shaders).
 */
export function gridSum(rows: tf.Tensor, cols: tf.Tensor, byProducts = hasRowKernels()): tf.Tensor2D {
  const [r, d] = rows.shape as [number, number];
  const c = cols.shape[0] as number;
  if (!byProducts) return tf.reshape(tf.add(tf.reshape(rows, [r, 1, d]), tf.reshape(cols, [1, c, d])), [r * c, d]);
  const cells = Array.from({ length: r * c }, (_, i) => i);
  const rowOf = oneHotFloat(tf.tensor1d(cells.map((i) => Math.floor(i / c)), 'int32'), r) as tf.Tensor2D;
  const colOf = oneHotFloat(tf.tensor1d(cells.map((i) => i % c), 'int32'), c) as tf.Tensor2D;
  return tf.add(matMul(rowOf, rows), matMul(colOf, cols));
}

export function layerNormSpecs(name: string, dim: number): ParamSpecs {
  return { [`${name}.g`]: { shape: [dim], init: ONES }, [`${name}.b`]: { shape: [dim], init: ZEROS } };
}

/** Layer norm over the last axis, from mean and variance (tf.moments' gradient is not needed). */
export function layerNorm(p: ParamMap, name: string, x: tf.Tensor): tf.Tensor {
  const eps = LAYER_NORM_EPS;
  if (hasRowKernels() || (x.size <= SMALL && tf.getKernel(ROW_LAYER_NORM, tf.getBackend()))) {
    const rows = tf.reshape(x, [-1, x.shape[x.shape.length - 1]]) as tf.Tensor2D;
    return tf.reshape(layerNormRows(rows, get(p, `${name}.g`), get(p, `${name}.b`)), x.shape);
  }
  const mean = tf.mean(x, -1, true);
  const d = tf.sub(x, mean);
  const variance = tf.mean(tf.mul(d, d), -1, true);
  const xhat = tf.div(d, tf.sqrt(tf.add(variance, eps)));
  return tf.add(tf.mul(xhat, get(p, `${name}.g`)), get(p, `${name}.b`));
}

/**
 * Up to this many values, layer norm runs as one WASM kernel (rowLoops.ts):
 * a decoding step's rows, where tfjs's cost per kernel is most of the work.
 * Larger ones (training batches) keep the WASM backend's element-wise ops,
 * which were as fast per value as the loops in JS (layer norm with its
 * gradients on [4096, 128]: 31–53 ms as ops, 47 ms as kernels). GELU runs
 * as one kernel at every size: its tanh from a fast exp (fastExp.ts) made
 * the loops faster than the ops even on training batches (GELU with its
 * gradient on [8, 240, 192]: 9.5–12 ms against 14–23 ms, Node WASM).
 */
const SMALL = 32_768;

/** GELU and its gradient as one kernel each (WASM: rowLoops.ts). */
const geluByKernel = tf.customGrad((...args: (tf.Tensor | tf.GradSaveFunc)[]) => {
  const [x, save] = args as [tf.Tensor, tf.GradSaveFunc];
  save([x]);
  return {
    value: tf.engine().runKernel(GELU_TANH, { x }, {}) as tf.Tensor,
    gradFunc: (dy: tf.Tensor, saved: tf.Tensor[]) => [tf.engine().runKernel(GELU_TANH_GRAD, { x: saved[0], dy }, {}) as tf.Tensor],
  };
}) as (x: tf.Tensor) => tf.Tensor;

/** GELU, tanh approximation: one kernel where the backend has it, else element-wise ops. */
export function gelu(x: tf.Tensor): tf.Tensor {
  if (tf.getKernel(GELU_TANH, tf.getBackend())) return geluByKernel(x);
  const c = Math.sqrt(2 / Math.PI);
  const inner = tf.mul(tf.add(x, tf.mul(tf.mul(tf.mul(x, x), x), 0.044715)), c);
  return tf.mul(tf.mul(x, 0.5), tf.add(tf.tanh(inner), 1));
}

export function relu(x: tf.Tensor): tf.Tensor {
  return tf.relu(x);
}

export function mlpSpecs(name: string, dim: number, hidden: number): ParamSpecs {
  return { ...denseSpecs(`${name}.fc`, dim, hidden), ...denseSpecs(`${name}.proj`, hidden, dim, 1 / Math.sqrt(hidden) / 2) };
}

export function mlp(p: ParamMap, name: string, x: tf.Tensor): tf.Tensor {
  return dense(p, `${name}.proj`, gelu(dense(p, `${name}.fc`, x)));
}

export function embeddingSpecs(name: string, vocab: number, dim: number, std = 0.02 * 5): ParamSpecs {
  return { [name]: { shape: [vocab, dim], init: normal(std) } };
}

/** ids (int32, any shape) → [...ids.shape, dim], as oneHot(ids) × table so the gradient is a matMul. */
export function embedding(p: ParamMap, name: string, ids: tf.Tensor): tf.Tensor {
  const table = get(p, name) as tf.Tensor2D;
  const oh = tf.reshape(oneHotFloat(ids, table.shape[0]), [-1, table.shape[0]]) as tf.Tensor2D;
  return tf.reshape(matMul(oh, table), [...ids.shape, table.shape[1]]);
}

export function attentionSpecs(name: string, dim: number, kvDim = dim): ParamSpecs {
  return {
    ...denseSpecs(`${name}.q`, dim, dim),
    ...denseSpecs(`${name}.k`, kvDim, dim),
    ...denseSpecs(`${name}.v`, kvDim, dim),
    ...denseSpecs(`${name}.o`, dim, dim, 1 / Math.sqrt(dim) / 2),
  };
}

/**
 * Multi-head attention: queries from `xq` [B, Tq, d], keys and values from
 * `xkv` [B, Tk, dkv] (pass xq again for self-attention). `mask` is additive,
 * broadcastable to [B, heads, Tq, Tk] (0 = attend, MASKED = not).
 */
export function attention(p: ParamMap, name: string, xq: tf.Tensor, xkv: tf.Tensor, heads: number, mask?: tf.Tensor): tf.Tensor {
  const [b, tq, d] = xq.shape;
  const q = splitHeads(dense(p, `${name}.q`, xq), heads);
  const k = splitHeads(dense(p, `${name}.k`, xkv), heads);
  const v = splitHeads(dense(p, `${name}.v`, xkv), heads);
  const tk = xkv.shape[1] as number;
  let scores = tf.reshape(tf.mul(matMul(q, k, true), 1 / Math.sqrt(d / heads)), [b, heads, tq, tk]);
  if (mask) scores = tf.add(scores, mask);
  const out = matMul(tf.reshape(softmax(scores), [b * heads, tq, tk]), v); // [B·h, Tq, dh]
  return dense(p, `${name}.o`, mergeHeads(out, b, heads));
}

/** [B, Tk] 1/0 validity (1 = real token) → additive mask [B, 1, 1, Tk]. */
export function keyPaddingMask(valid: tf.Tensor): tf.Tensor {
  const [b, t] = valid.shape;
  return tf.reshape(tf.mul(tf.sub(1, valid.dtype === 'bool' ? maskOf(valid) : valid), MASKED), [b, 1, 1, t]);
}

/** Additive causal mask [1, 1, T, T]: position i sees keys 0..i. */
export function causalMask(t: number): tf.Tensor {
  // Written on the host: as a broadcast comparison of two ranges it took 4.6 ms of a 150-ms planner SFT step on WASM.
  const values = new Float32Array(t * t);
  for (let q = 0; q < t; q++) values.fill(MASKED, q * t + q + 1, (q + 1) * t); // key > query
  return tf.tensor4d(values, [1, 1, t, t]);
}

export function conv3x3Specs(name: string, cin: number, cout: number): ParamSpecs {
  return denseSpecs(name, 9 * cin, cout, Math.sqrt(2 / (9 * cin)));
}

/**
 * 3×3 convolution, stride 1, zero padding 1, on x [B, H, W, C], with one
 * [9C, out] weight matrix whose rows run dy-major, then dx, then channel.
 * On WASM the nine shifted views are concatenated along channels and
 * multiplied by it (only pad/slice/concat/matMul, fast gradients there). On
 * WebGPU that im2col tensor is 9× the activations and made the grounder step
 * memory-bound (npm run bench), so the same matrix, read as a [3, 3, C, out]
 * filter, goes to tf.conv2d, whose shaders gather the windows themselves.
 */
export function conv3x3(p: ParamMap, name: string, x: tf.Tensor4D): tf.Tensor4D {
  if (tf.getBackend() !== 'webgpu') return dense(p, name, im2col3x3(x)) as tf.Tensor4D;
  return conv3x3AsFilter(x, get(p, `${name}.w`), get(p, `${name}.b`));
}

type Arg = tf.Tensor | tf.GradSaveFunc;

/**
 * conv3x3's WebGPU form: the [9C, out] weight matrix as a [3, 3, C, out]
 * filter, the bias inside the convolution's kernel. The filter gradient is
 * im2col(x)ᵀ · dy, a tiled product at the step's best rate, rather than
 * tfjs-webgpu's Conv2DBackpropFilter, one thread per filter weight walking
 * every position (0.9 s of a 7.9 s grounder step on SwiftShader, npm run
 * bench); the bias gradient is a column sum, not a reduce shader.
 */
const convAsFilter = tf.customGrad((...args: Arg[]) => {
  const [x, w, b, save] = args as [tf.Tensor4D, tf.Tensor2D, tf.Tensor1D, tf.GradSaveFunc];
  const [cin, cout] = [x.shape[3], w.shape[1]];
  save([x, w]);
  return {
    value: tf.fused.conv2d({ x, filter: tf.reshape(w, [3, 3, cin, cout]) as tf.Tensor4D, strides: 1, pad: 'same', bias: b }),
    gradFunc: (dy: tf.Tensor, saved: tf.Tensor[]) => {
      const [sx, sw] = saved as [tf.Tensor4D, tf.Tensor2D];
      const dx = tf.conv2dTranspose(dy as tf.Tensor4D, tf.reshape(sw, [3, 3, cin, cout]) as tf.Tensor4D, sx.shape, 1, 'same');
      const rows = tf.reshape(dy, [-1, cout]);
      const cols = tf.reshape(hasRowKernels() ? im2colKernel(sx) : im2col3x3(sx), [-1, 9 * cin]);
      return [dx, flaggedProduct(cols, rows, true, false), columnSums(rows)];
    },
  };
});

export function conv3x3AsFilter(x: tf.Tensor4D, w: tf.Tensor, b: tf.Tensor): tf.Tensor4D {
  return convAsFilter(x, w, b) as tf.Tensor4D;
}

/** [B, H, W, C] → [B, H/f, W/f, f·f·C]: each f×f block becomes one position (space-to-depth). */
export function spaceToDepth(x: tf.Tensor4D, f: number): tf.Tensor4D {
  const [b, h, w, c] = x.shape;
  const blocks = tf.transpose(tf.reshape(x, [b, h / f, f, w / f, f, c]), [0, 1, 3, 2, 4, 5]);
  return tf.reshape(blocks, [b, h / f, w / f, f * f * c]);
}

export function blockSpecs(name: string, dim: number, crossDim?: number): ParamSpecs {
  return {
    ...layerNormSpecs(`${name}.ln1`, dim),
    ...attentionSpecs(`${name}.attn`, dim),
    ...(crossDim !== undefined ? { ...layerNormSpecs(`${name}.lnx`, dim), ...attentionSpecs(`${name}.cross`, dim, crossDim) } : {}),
    ...layerNormSpecs(`${name}.ln2`, dim),
    ...mlpSpecs(`${name}.mlp`, dim, 4 * dim),
  };
}

/**
 * A harmonizer (offsite tuning, src/offsite): a light residual map that
 * stands in for a block's self-attention or MLP sub-block when an emulator
 * replaces it, x ↦ x + up(gelu(down(LN(x)))). `up` starts at zero, so an
 * untrained harmonizer is the identity: dropping the sub-block outright.
 */
export function harmonizerSpecs(name: string, dim: number, hidden: number): ParamSpecs {
  return { ...layerNormSpecs(`${name}.ln`, dim), ...denseSpecs(`${name}.down`, dim, hidden), [`${name}.up.w`]: { shape: [hidden, dim], init: ZEROS }, [`${name}.up.b`]: { shape: [dim], init: ZEROS } };
}

/** The residual a harmonizer adds (the caller adds x). */
export function harmonizer(p: ParamMap, name: string, x: tf.Tensor): tf.Tensor {
  return dense(p, `${name}.up`, gelu(dense(p, `${name}.down`, layerNorm(p, `${name}.ln`, x))));
}

/** Name of the harmonizer that replaces a block's `attn` or `mlp` sub-block. */
export const harmonizerName = (blockName: string, unit: 'attn' | 'mlp') => `${blockName}.${unit}_harm`;

/**
 * Whether a parameter map replaces that sub-block by a harmonizer. The map
 * itself says so, so every forward (training, KV-cached decoding,
 * evaluation) runs an emulator without a separate code path or flag.
 */
export function isReplaced(p: ParamMap, blockName: string, unit: 'attn' | 'mlp'): boolean {
  return p[`${harmonizerName(blockName, unit)}.down.w`] !== undefined;
}

/** A block's MLP sub-block with its residual, or the harmonizer standing in for it. */
export function mlpUnit(p: ParamMap, name: string, h: tf.Tensor): tf.Tensor {
  if (isReplaced(p, name, 'mlp')) return tf.add(h, harmonizer(p, harmonizerName(name, 'mlp'), h));
  return tf.add(h, mlp(p, `${name}.mlp`, layerNorm(p, `${name}.ln2`, h)));
}

/** Pre-norm transformer block: self-attention, optional cross-attention to `memory`, MLP (either sub-block possibly a harmonizer). */
export function block(
  p: ParamMap,
  name: string,
  x: tf.Tensor,
  heads: number,
  selfMask?: tf.Tensor,
  memory?: tf.Tensor,
  memoryMask?: tf.Tensor,
): tf.Tensor {
  let h: tf.Tensor;
  if (isReplaced(p, name, 'attn')) h = tf.add(x, harmonizer(p, harmonizerName(name, 'attn'), x));
  else {
    const a = layerNorm(p, `${name}.ln1`, x);
    h = tf.add(x, attention(p, `${name}.attn`, a, a, heads, selfMask));
  }
  if (memory) h = tf.add(h, attention(p, `${name}.cross`, layerNorm(p, `${name}.lnx`, h), memory, heads, memoryMask));
  return mlpUnit(p, name, h);
}
