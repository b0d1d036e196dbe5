/**
 * A dense layer, x [..., K] · w [K, N] + b [N], as one WASM kernel each way
 * (AFFINE, AFFINE_GRAD; src/models/affineOp.ts runs them). The tensor path
 * takes eleven kernels per layer and step: a reshape each side of the
 * product, the product, the bias add, and in the backward pass two reshapes,
 * two transposes, two products and the bias's sum (npm run bench). Here the
 * reshapes are only the shapes handed to XNNPACK, the transposes and the
 * bias's sums are loops over the heap, and the products are the backend's
 * own XNNPACK calls on the same operands, so every value is the tensor
 * path's (test/unit/affine-kernel.test.ts).
 */
import * as tf from '../src/models/tf';
import { productOf, shapeBytes, type BackendInternals } from './wasmBatchMatMul';

export interface Heap {
  makeOutput(shape: number[], dtype: 'float32'): tf.TensorInfo;
  typedArrayFromHeap(t: tf.TensorInfo): Float32Array;
  disposeData(dataId: tf.DataId): void;
}
export type Backend = BackendInternals & Heap;

const rowsOf = (t: tf.TensorInfo) => tf.util.sizeFromShape(t.shape.slice(0, -1));
const idOf = (backend: Backend, t: tf.TensorInfo) => backend.dataIdMap.get(t.dataId).id;

/** out [M, N] = a [M, K] · b [K, N], by the backend's XNNPACK product on the tensors' own memory. */
function product(backend: Backend, a: tf.TensorInfo, b: tf.TensorInfo, out: tf.TensorInfo, m: number, k: number, n: number): void {
  productOf(backend.wasm)(idOf(backend, a), shapeBytes([1, m, k]), 3, idOf(backend, b), shapeBytes([1, k, n]), 3, false, false, idOf(backend, out));
}

/** x [..., R, C] (row-major) into a new [..., C, R] tensor: each of its matrices transposed. */
export function transposed(backend: Backend, x: tf.TensorInfo, r: number, c: number): tf.TensorInfo {
  const lead = x.shape.slice(0, -2);
  const out = backend.makeOutput([...lead, c, r], 'float32');
  // Views after makeOutput: growing the heap detaches older ones.
  const src = backend.typedArrayFromHeap(x);
  const dst = backend.typedArrayFromHeap(out);
  const size = r * c;
  for (let at = 0; at < src.length; at += size) for (let i = 0; i < r; i++) for (let j = 0; j < c; j++) dst[at + j * r + i] = src[at + i * c + j];
  return out;
}

export const affineKernel: tf.KernelFunc = ({ inputs, backend: b }) => {
  const backend = b as unknown as Backend;
  const { x, w, bias } = inputs as Record<'x' | 'w' | 'bias', tf.TensorInfo>;
  const [k, n] = w.shape;
  const m = rowsOf(x);
  const out = backend.makeOutput([...x.shape.slice(0, -1), n], 'float32');
  product(backend, x, w, out, m, k, n);
  const y = backend.typedArrayFromHeap(out);
  const add = backend.typedArrayFromHeap(bias);
  for (let i = 0; i < m; i++) for (let j = 0; j < n; j++) y[i * n + j] += add[j];
  return out;
};

/** Outputs [dx, dw, db], or [dw, db] with attrs.inputGrad false (x is data nothing trains through). */
export const affineGradKernel: tf.KernelFunc = ({ inputs, backend: b, attrs }) => {
  const backend = b as unknown as Backend;
  const { dy, x, w } = inputs as Record<'dy' | 'x' | 'w', tf.TensorInfo>;
  const inputGrad = (attrs as { inputGrad: boolean }).inputGrad;
  const [k, n] = w.shape;
  const m = rowsOf(x);
  const outs: tf.TensorInfo[] = [];
  if (inputGrad) {
    const wt = transposed(backend, w, k, n);
    const dx = backend.makeOutput(x.shape, 'float32');
    product(backend, dy, wt, dx, m, n, k);
    backend.disposeData(wt.dataId);
    outs.push(dx);
  }
  const xt = transposed(backend, { ...x, shape: [m, k] }, m, k);
  const dw = backend.makeOutput([k, n], 'float32');
  product(backend, xt, dy, dw, k, m, n);
  backend.disposeData(xt.dataId);
  const db = backend.makeOutput([n], 'float32');
  const g = backend.typedArrayFromHeap(dy);
  const sums = backend.typedArrayFromHeap(db);
  // Row after row in float32, as the backend's Sum adds a column.
  for (let j = 0; j < n; j++) {
    let s = 0;
    for (let i = 0; i < m; i++) s = Math.fround(s + g[i * n + j]);
    sums[j] = s;
  }
  return [...outs, dw, db];
};
