/**
 * BatchMatMul on WASM for products with a batch (attention's QKᵀ and PV).
 *
 * tfjs-backend-wasm 4.22 hands a product to XNNPACK only when neither
 * operand is transposed and both batch sizes are 1; any batched product
 * falls to a scalar triple loop on one thread (about 1.5–2 GFLOP/s against
 * 15–25 for XNNPACK on the same shapes; 60% of a tiny planner SFT step). This
 * kernel runs such a product as one XNNPACK product per batch entry: each
 * entry's operands and output are registered as views into the tensors'
 * own heap memory (no copy), multiplied by the backend's own BatchMatMul
 * with batch 1, and unregistered, which also frees the XNNPACK operator
 * cached on the view. Transposed products keep the backend's path (the
 * app transposes explicitly on WASM: src/models/fastops.ts).
 */
import * as tf from '../src/models/tf';

/** The parts of the WASM module and backend this kernel uses (not in the package's typings). */
export interface WasmModule {
  cwrap(name: string, ret: null, args: string[]): (...args: unknown[]) => void;
  tfjs: { registerTensor(id: number, size: number, offset: number): void; disposeData(id: number): void };
}
export interface BackendInternals {
  wasm: WasmModule;
  dataIdNextNumber: number;
  dataIdMap: { get(dataId: tf.DataId): { id: number; memoryOffset: number } };
  makeOutput(shape: number[], dtype: 'float32'): tf.TensorInfo;
}

export type Product = (aId: number, aShape: Uint8Array, aRank: number, bId: number, bShape: Uint8Array, bRank: number, ta: boolean, tb: boolean, outId: number) => void;

const products = new WeakMap<WasmModule, Product>();

/** The backend's BatchMatMul entry point: XNNPACK for a batch of 1 without transposes. */
export function productOf(wasm: WasmModule): Product {
  let f = products.get(wasm);
  if (!f) {
    f = wasm.cwrap('BatchMatMul', null, ['number', 'array', 'number', 'number', 'array', 'number', 'number', 'number', 'number']) as Product;
    products.set(wasm, f);
  }
  return f;
}

/** Below these an entry's product is cheaper in the backend's loop (measured on the planner's decode: 1.3 ms per [64, 1, 24] × [64, 24, 192] product this way). */
const MIN_ROWS = 8;
const MIN_ENTRY_WORK = 32_768;

export const shapeBytes = (shape: number[]) => new Uint8Array(new Int32Array(shape).buffer);

/** True when the backend's own kernel would run this product on XNNPACK already, or it is not one this kernel takes. */
function backendTakesIt(a: tf.TensorInfo, b: tf.TensorInfo, ta: boolean, tb: boolean): boolean {
  if (ta || tb || a.dtype !== 'float32' || b.dtype !== 'float32') return true;
  const batchA = tf.util.sizeFromShape(a.shape.slice(0, -2));
  const batchB = tf.util.sizeFromShape(b.shape.slice(0, -2));
  if (batchA <= 1 && batchB <= 1) return true;
  // Each entry creates and packs an XNNPACK operator: too dear for a decode step's one-row products.
  const [m, k] = a.shape.slice(-2);
  if (m < MIN_ROWS || m * k * b.shape[b.shape.length - 1] < MIN_ENTRY_WORK) return true;
  // Broadcasting between different batch shapes (other than a batch of 1) stays with the backend.
  return batchA > 1 && batchB > 1 && !tf.util.arraysEqual(a.shape.slice(0, -2), b.shape.slice(0, -2));
}

export function batchedProductKernel(original: tf.KernelFunc): tf.KernelFunc {
  return (args) => {
    const { a, b } = args.inputs as { a: tf.TensorInfo; b: tf.TensorInfo };
    const { transposeA, transposeB } = args.attrs as { transposeA: boolean; transposeB: boolean };
    if (backendTakesIt(a, b, transposeA, transposeB)) return original(args);
    const backend = args.backend as unknown as BackendInternals;
    const [m, k] = a.shape.slice(-2);
    const n = b.shape[b.shape.length - 1];
    if (b.shape[b.shape.length - 2] !== k) throw new Error(`matMul: inner sizes ${k} and ${b.shape[b.shape.length - 2]} of [${a.shape}] and [${b.shape}] differ`);
    const batchA = tf.util.sizeFromShape(a.shape.slice(0, -2));
    const batchB = tf.util.sizeFromShape(b.shape.slice(0, -2));
    const batch = Math.max(batchA, batchB);
    const outer = batchA >= batchB ? a.shape.slice(0, -2) : b.shape.slice(0, -2);
    const out = backend.makeOutput([...outer, m, n], 'float32');
    const offset = (t: tf.TensorInfo) => backend.dataIdMap.get(t.dataId).memoryOffset;
    const [aBase, bBase, outBase] = [offset(a), offset(b), offset(out)];
    const wasm = backend.wasm;
    const product = productOf(wasm);
    const view = (base: number, entry: number, size: number): number => {
      const id = backend.dataIdNextNumber++;
      wasm.tfjs.registerTensor(id, size, base + entry * size * 4);
      return id;
    };
    const aShape = shapeBytes([1, m, k]);
    const bShape = shapeBytes([1, k, n]);
    // A shared b keeps one view, so XNNPACK packs it once for every entry.
    const sharedB = batchB === 1 ? view(bBase, 0, k * n) : -1;
    for (let i = 0; i < batch; i++) {
      const ai = view(aBase, batchA === 1 ? 0 : i, m * k);
      const bi = sharedB >= 0 ? sharedB : view(bBase, i, k * n);
      const oi = view(outBase, i, m * n);
      product(ai, aShape, 3, bi, bShape, 3, false, false, oi);
      wasm.tfjs.disposeData(ai);
      if (bi !== sharedB) wasm.tfjs.disposeData(bi);
      wasm.tfjs.disposeData(oi);
    }
    if (sharedB >= 0) wasm.tfjs.disposeData(sharedB);
    return out;
  };
}
