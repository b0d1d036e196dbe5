/**
 * Kernels the app replaces in the tfjs WASM backend.
 *
 * Identity: tfjs clones every tensor a gradient saves for the backward pass
 * (engine.saveTensorsForBackwardMode), and the WASM backend's Identity copies
 * the data, 1,444 copies in a tiny grounder SFT step (npm run bench). Tensors
 * are never written in place once made, so the clone can share the data and
 * count one more reference, as the CPU backend's Identity and WASM's own
 * Reshape do. The values are the same; only the copy goes.
 *
 * Slice: reads its input in the heap, where the backend's copies all of it
 * to JS first (wasmSlice.ts).
 *
 * BatchMatMul: products with a batch as one XNNPACK product per entry
 * (wasmBatchMatMul.ts), where the backend runs a scalar loop.
 *
 * GLYPH_WINDOWS_T: the glyph reader's windows for its weight gradient in
 * one pass (src/models/glyphWindows.ts), where the tensor path takes 36
 * slices, a concat and a transpose.
 *
 * IM2COL_3X3 and COL2IM_3X3, NEAR_MAX and NEAR_MAX_GRAD: the 3×3 convolution's
 * windows and glyphsNearCells's window maximum, each way as one kernel
 * (src/models/windowLoops.ts) where the tensor path takes dozens of ops.
 *
 * ROW_LAYER_NORM (with its gradient and ROW_STANDARDIZE), GELU_TANH and
 * GELU_TANH_GRAD: layer norm and GELU as one kernel each way
 * (src/models/rowLoops.ts), where the tensor path takes 9 to 30 small ops;
 * decoding pays tfjs's per-kernel cost on every token.
 *
 * PICKED_LOG_PROB and PICKED_LOG_PROB_GRAD: log softmax at one picked
 * column per row (src/models/pickedLoops.ts), where the tensor path makes
 * several full-width passes over a planner step's [B·C, V] logits.
 *
 * DECODE_ATTENTION: a decoding step's attention with its cache growth
 * (src/models/decodeAttentionLoops.ts), where the tensor path takes some
 * thirty small ops per layer and token.
 *
 * FLAT_ADAM_STEP: the optimizer's update of every variable in one pass
 * (src/models/adamLoops.ts), bit for bit the tensor path's values.
 *
 * AFFINE and AFFINE_GRAD: a dense layer as one kernel each way
 * (wasmAffine.ts), where the tensor path takes four and seven.
 *
 * HEADS_SPLIT and HEADS_MERGE: attention's head split and merge as one
 * permutation each (src/models/headLoops.ts), where the tensor path takes
 * a reshape, a transpose and a reshape.
 *
 * TRANSPOSED_PRODUCT: a product with a transposed operand, the explicit
 * transpose fastops.ts makes on WASM and the product in one kernel
 * (wasmTransposedProduct.ts).
 *
 * WEIGHTED_SUM and WEIGHTED_SUM_GRAD: the grounder's weighted sum of
 * score maps (src/models/weightedSumLoops.ts), where the tensor path takes
 * about nine kernels per map.
 *
 * SPELLED_CELLS: the grounder's in-order spelling match (orderedMatch.ts)
 * as one pass over the WASM heap (orderedMatchRows.ts), where the tensor
 * path runs some 150 small ops per batch.
 */
import * as tf from '../src/models/tf';
import type { BackendWasm } from '@tensorflow/tfjs-backend-wasm';
import { GRID_CELLS } from '../src/models/canvas';
import { SPELLED_CELLS, spelledCellsRows } from '../src/models/orderedMatchRows';
import { batchedProductKernel } from './wasmBatchMatMul';
import { affineGradKernel, affineKernel } from './wasmAffine';
import { transposedProductKernel } from './wasmTransposedProduct';
import { heapSliceKernel } from './wasmSlice';
import { glyphWindowsShape, glyphWindowsTransposed } from '../src/models/glyphWindows';
import { geluGradInto, geluInto, layerNormGradInto, layerNormInto } from '../src/models/rowLoops';
import { AFFINE, AFFINE_GRAD, HEADS_MERGE, HEADS_SPLIT, TRANSPOSED_PRODUCT, WEIGHTED_SUM, WEIGHTED_SUM_GRAD, COL2IM_3X3, DECODE_ATTENTION, FLAT_ADAM_STEP, GELU_TANH, GELU_TANH_GRAD, GLYPH_WINDOWS_T, IM2COL_3X3, NEAR_MAX, NEAR_MAX_GRAD, PICKED_LOG_PROB, PICKED_LOG_PROB_GRAD, ROW_LAYER_NORM, ROW_LAYER_NORM_GRAD, ROW_STANDARDIZE } from '../src/models/kernelNames';
import { adamStepInto, nextPower, type AdamConstants } from '../src/models/adamLoops';
import { decodeAttentionInto } from '../src/models/decodeAttentionLoops';
import { pickedLogProbGradInto, pickedLogProbInto } from '../src/models/pickedLoops';
import { mergeHeadsInto, splitHeadsInto } from '../src/models/headLoops';
import { weightedSumGradInto, weightedSumInto, type MapRows } from '../src/models/weightedSumLoops';
import { col2im3x3Into, im2col3x3Into, nearMaxGradInto, nearMaxInto } from '../src/models/windowLoops';

interface RefCounting {
  incRef(dataId: tf.DataId): void;
}

const sharedIdentity: tf.KernelFunc = ({ inputs, backend }) => {
  const x = inputs.x as tf.TensorInfo;
  (backend as unknown as RefCounting).incRef(x.dataId);
  return { dataId: x.dataId, shape: x.shape, dtype: x.dtype };
};

const spelledCells: tf.KernelFunc = ({ inputs, backend }) => {
  const wasm = backend as unknown as BackendWasm;
  const { logp, letters, afterSpace, rows } = inputs as Record<'logp' | 'letters' | 'afterSpace' | 'rows', tf.TensorInfo>;
  const [b, n] = letters.shape;
  const values = spelledCellsRows(
    wasm.typedArrayFromHeap(logp) as Float32Array,
    logp.shape[2],
    wasm.typedArrayFromHeap(letters) as Int32Array,
    wasm.typedArrayFromHeap(afterSpace) as Float32Array,
    n,
    wasm.typedArrayFromHeap(rows) as Int32Array,
  );
  const out = wasm.makeOutput([b, GRID_CELLS], 'float32');
  (wasm.typedArrayFromHeap(out) as Float32Array).set(values);
  return out;
};

const glyphWindowsT: tf.KernelFunc = ({ inputs, backend, attrs }) => {
  const wasm = backend as unknown as BackendWasm;
  const padded = inputs.padded as tf.TensorInfo;
  const side = (attrs as { side: number }).side;
  const out = wasm.makeOutput(glyphWindowsShape(padded.shape, side), 'float32');
  // Views after makeOutput: growing the heap detaches older ones.
  glyphWindowsTransposed(wasm.typedArrayFromHeap(padded) as Float32Array, padded.shape, side, wasm.typedArrayFromHeap(out) as Float32Array);
  return out;
};

const im2col: tf.KernelFunc = ({ inputs, backend }) => {
  const wasm = backend as unknown as BackendWasm;
  const x = inputs.x as tf.TensorInfo;
  const [b, h, w, c] = x.shape;
  const out = wasm.makeOutput([b, h, w, 9 * c], 'float32');
  im2col3x3Into(wasm.typedArrayFromHeap(x) as Float32Array, x.shape, wasm.typedArrayFromHeap(out) as Float32Array);
  return out;
};

const col2im: tf.KernelFunc = ({ inputs, backend }) => {
  const wasm = backend as unknown as BackendWasm;
  const g = inputs.g as tf.TensorInfo;
  const [b, h, w, c9] = g.shape;
  const out = wasm.makeOutput([b, h, w, c9 / 9], 'float32');
  col2im3x3Into(wasm.typedArrayFromHeap(g) as Float32Array, out.shape, wasm.typedArrayFromHeap(out) as Float32Array);
  return out;
};

const nearMax: tf.KernelFunc = ({ inputs, backend, attrs }) => {
  const wasm = backend as unknown as BackendWasm;
  const x = inputs.x as tf.TensorInfo;
  const { pool, nearRows, nearCols } = attrs as { pool: number; nearRows: number; nearCols: number };
  const [s, h, w, k] = x.shape;
  const value = wasm.makeOutput([s, h / pool, w / pool, k], 'float32');
  const index = wasm.makeOutput(value.shape, 'int32');
  nearMaxInto(wasm.typedArrayFromHeap(x) as Float32Array, x.shape, pool, nearRows, nearCols, wasm.typedArrayFromHeap(value) as Float32Array, wasm.typedArrayFromHeap(index) as Int32Array);
  return [value, index];
};

const nearMaxGrad: tf.KernelFunc = ({ inputs, backend, attrs }) => {
  const wasm = backend as unknown as BackendWasm;
  const { dy, index } = inputs as { dy: tf.TensorInfo; index: tf.TensorInfo };
  const dx = wasm.makeOutput((attrs as { shape: number[] }).shape, 'float32');
  nearMaxGradInto(wasm.typedArrayFromHeap(dy) as Float32Array, wasm.typedArrayFromHeap(index) as Int32Array, wasm.typedArrayFromHeap(dx) as Float32Array);
  return dx;
};

/** Reads a float32 tensor's values in place in the WASM heap (take views after the last makeOutput: growing the heap detaches them). */
const floatViews =
  (wasm: BackendWasm) =>
  (t: tf.TensorInfo): Float32Array =>
    wasm.typedArrayFromHeap(t) as Float32Array;

const pickedLogProb: tf.KernelFunc = ({ inputs, backend }) => {
  const wasm = backend as unknown as BackendWasm;
  const { logits, pick, mask } = inputs as Record<'logits' | 'pick', tf.TensorInfo> & { mask?: tf.TensorInfo };
  const logp = wasm.makeOutput(pick.shape, 'float32');
  const probs = wasm.makeOutput(logits.shape, 'float32');
  const f32 = floatViews(wasm);
  pickedLogProbInto(f32(logits), logits.shape[1], wasm.typedArrayFromHeap(pick) as Int32Array, mask ? f32(mask) : null, f32(logp), f32(probs));
  return [logp, probs];
};

const pickedLogProbGrad: tf.KernelFunc = ({ inputs, backend }) => {
  const wasm = backend as unknown as BackendWasm;
  const { probs, pick, dy } = inputs as Record<'probs' | 'pick' | 'dy', tf.TensorInfo>;
  const out = wasm.makeOutput(probs.shape, 'float32');
  const f32 = floatViews(wasm);
  pickedLogProbGradInto(f32(probs), probs.shape[1], wasm.typedArrayFromHeap(pick) as Int32Array, f32(dy), f32(out));
  return out;
};

const decodeAttention: tf.KernelFunc = ({ inputs, backend, attrs }) => {
  const wasm = backend as unknown as BackendWasm;
  const t = inputs as Record<'q' | 'kNew' | 'vNew' | 'promptK' | 'promptV' | 'promptMask', tf.TensorInfo> & { genK?: tf.TensorInfo; genV?: tf.TensorInfo };
  const heads = (attrs as { heads: number }).heads;
  const [rows, , d] = t.q.shape;
  const headDim = d / heads;
  const generated = t.genK ? t.genK.shape[1] : 0;
  const att = wasm.makeOutput(t.q.shape, 'float32');
  const genK = wasm.makeOutput([rows * heads, generated + 1, headDim], 'float32');
  const genV = wasm.makeOutput([rows * heads, generated + 1, headDim], 'float32');
  // Views after every makeOutput: growing the heap detaches older ones.
  const f32 = floatViews(wasm);
  decodeAttentionInto(
    {
      q: f32(t.q),
      kNew: f32(t.kNew),
      vNew: f32(t.vNew),
      promptK: f32(t.promptK),
      promptV: f32(t.promptV),
      promptMask: f32(t.promptMask),
      genK: t.genK ? f32(t.genK) : null,
      genV: t.genV ? f32(t.genV) : null,
      rows,
      heads,
      headDim,
      promptLength: t.promptK.shape[1],
      generated,
    },
    f32(att),
    f32(genK),
    f32(genV),
  );
  return [att, genK, genV];
};

/** Inputs m, v, accBeta1, accBeta2, g0…g(n−1), x0…x(n−1); outputs m′, v′, accBeta1′, accBeta2′, x0′…x(n−1)′. */
const flatAdamStep: tf.KernelFunc = ({ inputs, backend, attrs }) => {
  const wasm = backend as unknown as BackendWasm;
  const a = attrs as unknown as AdamConstants & { count: number };
  const at = (name: string) => inputs[name] as tf.TensorInfo;
  const order = Array.from({ length: a.count }, (_, i) => i);
  const mOut = wasm.makeOutput(at('m').shape, 'float32');
  const vOut = wasm.makeOutput(at('v').shape, 'float32');
  const acc1 = wasm.makeOutput([], 'float32');
  const acc2 = wasm.makeOutput([], 'float32');
  const xs = order.map((i) => wasm.makeOutput(at(`x${i}`).shape, 'float32'));
  // Views after every makeOutput: growing the heap detaches older ones.
  const f32 = floatViews(wasm);
  const [pow1, pow2] = [f32(at('accBeta1'))[0], f32(at('accBeta2'))[0]];
  adamStepInto(a, pow1, pow2, f32(at('m')), f32(at('v')), order.map((i) => f32(at(`g${i}`))), order.map((i) => f32(at(`x${i}`))), f32(mOut), f32(vOut), xs.map(f32));
  f32(acc1)[0] = nextPower(pow1, a.beta1);
  f32(acc2)[0] = nextPower(pow2, a.beta2);
  return [mOut, vOut, acc1, acc2, ...xs];
};

/** Inputs w [B, F] and m0…m(F−1), each [B, N] or [1, N]; output [B, N]. */
const weightedSum: tf.KernelFunc = ({ inputs, backend }) => {
  const wasm = backend as unknown as BackendWasm;
  const w = inputs.w as tf.TensorInfo;
  const [b, f] = w.shape;
  const maps = Array.from({ length: f }, (_, k) => inputs[`m${k}`] as tf.TensorInfo);
  const n = maps[0].shape[1];
  const out = wasm.makeOutput([b, n], 'float32');
  const f32 = floatViews(wasm);
  weightedSumInto(f32(w), f, maps.map((m): MapRows => ({ values: f32(m), shared: m.shape[0] === 1 && b > 1 })), n, f32(out));
  return out;
};

/** Inputs dy [B, N], w and the maps as WEIGHTED_SUM's; outputs dw, dm0…dm(F−1). */
const weightedSumGrad: tf.KernelFunc = ({ inputs, backend }) => {
  const wasm = backend as unknown as BackendWasm;
  const [dy, w] = [inputs.dy as tf.TensorInfo, inputs.w as tf.TensorInfo];
  const [b, f] = w.shape;
  const maps = Array.from({ length: f }, (_, k) => inputs[`m${k}`] as tf.TensorInfo);
  const n = dy.shape[1];
  const dw = wasm.makeOutput([b, f], 'float32');
  const dmaps = maps.map((m) => wasm.makeOutput(m.shape, 'float32'));
  const f32 = floatViews(wasm);
  weightedSumGradInto(f32(dy), f32(w), f, maps.map((m): MapRows => ({ values: f32(m), shared: m.shape[0] === 1 && b > 1 })), n, f32(dw), dmaps.map(f32));
  return [dw, ...dmaps];
};

/** attrs batch and heads: [B, T, H·dh] → [B·H, T, dh] (split) or back (merge). */
function headsKernel(split: boolean): tf.KernelFunc {
  return ({ inputs, backend, attrs }) => {
    const wasm = backend as unknown as BackendWasm;
    const x = inputs.x as tf.TensorInfo;
    const { batch, heads } = attrs as { batch: number; heads: number };
    const [, t, last] = x.shape;
    const out = wasm.makeOutput(split ? [batch * heads, t, last / heads] : [batch, t, last * heads], 'float32');
    const f32 = floatViews(wasm);
    (split ? splitHeadsInto : mergeHeadsInto)(f32(x), batch, t, heads, f32(out));
    return out;
  };
}

/** A kernel whose output has its first input's shape, computed by `f` from the inputs' heap arrays (and the row length). */
function rowwise(names: string[], f: (inputs: Float32Array[], cols: number, out: Float32Array) => void): tf.KernelFunc {
  return ({ inputs, backend }) => {
    const wasm = backend as unknown as BackendWasm;
    const given = names.map((n) => inputs[n] as tf.TensorInfo);
    const out = wasm.makeOutput(given[0].shape, 'float32');
    const cols = given[0].shape[given[0].shape.length - 1];
    f(given.map((t) => wasm.typedArrayFromHeap(t) as Float32Array), cols, wasm.typedArrayFromHeap(out) as Float32Array);
    return out;
  };
}

const OWN_KERNELS: [string, tf.KernelFunc][] = [
  [ROW_LAYER_NORM, rowwise(['x', 'g', 'b'], ([x, g, b], cols, out) => layerNormInto(x, cols, out, g, b))],
  [ROW_STANDARDIZE, rowwise(['x'], ([x], cols, out) => layerNormInto(x, cols, out))],
  [ROW_LAYER_NORM_GRAD, rowwise(['x', 'g', 'dy'], ([x, g, dy], cols, out) => layerNormGradInto(x, g, dy, cols, out))],
  [GELU_TANH, rowwise(['x'], ([x], _, out) => geluInto(x, out))],
  [GELU_TANH_GRAD, rowwise(['x', 'dy'], ([x, dy], _, out) => geluGradInto(x, dy, out))],
  [SPELLED_CELLS, spelledCells],
  [GLYPH_WINDOWS_T, glyphWindowsT],
  [IM2COL_3X3, im2col],
  [COL2IM_3X3, col2im],
  [NEAR_MAX, nearMax],
  [NEAR_MAX_GRAD, nearMaxGrad],
  [PICKED_LOG_PROB, pickedLogProb],
  [PICKED_LOG_PROB_GRAD, pickedLogProbGrad],
  [DECODE_ATTENTION, decodeAttention],
  [FLAT_ADAM_STEP, flatAdamStep],
  [AFFINE, affineKernel],
  [AFFINE_GRAD, affineGradKernel],
  [WEIGHTED_SUM, weightedSum],
  [WEIGHTED_SUM_GRAD, weightedSumGrad],
  [HEADS_SPLIT, headsKernel(true)],
  [HEADS_MERGE, headsKernel(false)],
  [TRANSPOSED_PRODUCT, transposedProductKernel(() => (tf.getKernel('BatchMatMul', 'wasm') as tf.KernelConfig).kernelFunc)],
];

/** The backend's own kernels that a replacement hands some calls back to (kept once, so registering twice wraps nothing twice). */
const backendOwn = new Map<string, tf.KernelConfig>();

function wrapBackendKernel(name: string, wrap: (original: tf.KernelFunc) => tf.KernelFunc): void {
  if (backendOwn.has(name)) return;
  const own = { ...(tf.getKernel(name, 'wasm') as tf.KernelConfig) };
  backendOwn.set(name, own);
  tf.unregisterKernel(name, 'wasm');
  tf.registerKernel({ ...own, kernelFunc: wrap(own.kernelFunc) });
}

export function registerWasmKernels(): void {
  for (const [kernelName, kernelFunc] of OWN_KERNELS) if (!tf.getKernel(kernelName, 'wasm')) tf.registerKernel({ kernelName, backendName: 'wasm', kernelFunc });
  wrapBackendKernel('BatchMatMul', batchedProductKernel);
  wrapBackendKernel('Slice', heapSliceKernel);
  if (tf.getKernel('Identity', 'wasm')?.kernelFunc === sharedIdentity) return;
  tf.unregisterKernel('Identity', 'wasm');
  tf.registerKernel({ kernelName: 'Identity', backendName: 'wasm', kernelFunc: sharedIdentity });
}
