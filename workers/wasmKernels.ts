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
 * BatchMatMul: products with a batch as one XNNPACK product per entry
 * (wasmBatchMatMul.ts), where the backend runs a scalar loop.
 *
 * GLYPH_WINDOWS_T: the glyph reader's windows for its weight gradient in
 * one pass (src/models/glyphWindows.ts), where the tensor path takes 36
 * slices, a concat and a transpose.
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
import { GLYPH_WINDOWS_T, glyphWindowsShape, glyphWindowsTransposed } from '../src/models/glyphWindows';

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

/** The backend's own BatchMatMul, kept for the products the replacement hands back. */
let backendProduct: tf.KernelConfig | undefined;

export function registerWasmKernels(): void {
  if (!tf.getKernel(SPELLED_CELLS, 'wasm')) tf.registerKernel({ kernelName: SPELLED_CELLS, backendName: 'wasm', kernelFunc: spelledCells });
  if (!tf.getKernel(GLYPH_WINDOWS_T, 'wasm')) tf.registerKernel({ kernelName: GLYPH_WINDOWS_T, backendName: 'wasm', kernelFunc: glyphWindowsT });
  if (!backendProduct) {
    backendProduct = { ...(tf.getKernel('BatchMatMul', 'wasm') as tf.KernelConfig) };
    tf.unregisterKernel('BatchMatMul', 'wasm');
    tf.registerKernel({ ...backendProduct, kernelFunc: batchedProductKernel(backendProduct.kernelFunc) });
  }
  if (tf.getKernel('Identity', 'wasm')?.kernelFunc === sharedIdentity) return;
  tf.unregisterKernel('Identity', 'wasm');
  tf.registerKernel({ kernelName: 'Identity', backendName: 'wasm', kernelFunc: sharedIdentity });
}
