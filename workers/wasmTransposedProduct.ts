/**
 * TRANSPOSED_PRODUCT on WASM: a · b with either operand transposed, as one
 * kernel. XNNPACK runs a transposed operand several times slower than a
 * plain one (src/models/fastops.ts), so fastops transposed explicitly: one
 * Transpose kernel per transposed operand, then the product. Here the
 * transpose is a loop over the heap into a scratch tensor and the product
 * is the backend's (batched) BatchMatMul on it, called directly: the same
 * operands and products, one dispatch.
 */
import * as tf from '../src/models/tf';
import { transposed, type Backend } from './wasmAffine';

/** `batchMatMul` is the BatchMatMul kernel the product runs on (the backend's, as registerWasmKernels wraps it). */
export function transposedProductKernel(batchMatMul: () => tf.KernelFunc): tf.KernelFunc {
  return ({ inputs, backend: b, attrs }) => {
    const backend = b as unknown as Backend;
    const { a, b: bb } = inputs as Record<'a' | 'b', tf.TensorInfo>;
    const { transposeA, transposeB } = attrs as { transposeA: boolean; transposeB: boolean };
    const swap = (t: tf.TensorInfo) => transposed(backend, t, t.shape[t.shape.length - 2], t.shape[t.shape.length - 1]);
    const at = transposeA ? swap(a) : a;
    const bt = transposeB ? swap(bb) : bb;
    try {
      return batchMatMul()({ inputs: { a: at, b: bt }, backend: b, attrs: { transposeA: false, transposeB: false } }) as tf.TensorInfo;
    } finally {
      if (at !== a) backend.disposeData(at.dataId);
      if (bt !== bb) backend.disposeData(bt.dataId);
    }
  };
}
