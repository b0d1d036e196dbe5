/**
 * Slice on WASM without copying its input.
 *
 * tfjs-backend-wasm 4.22's Slice reads its whole input back to JS
 * (readSync copies the heap bytes) before taking the part it wants: each
 * slice of a flat 215,808-value parameter vector took about 0.5 ms, and the
 * grounder's slices of large activations far more. This kernel reads the
 * input where it lies in the WASM heap and copies only the slice, one run
 * along the last axis at a time.
 */
import * as tf from '../src/models/tf';
import type { BackendWasm } from '@tensorflow/tfjs-backend-wasm';

export function heapSliceKernel(original: tf.KernelFunc): tf.KernelFunc {
  return (args) => {
    const x = args.inputs.x as tf.TensorInfo;
    if (x.dtype === 'string') return original(args);
    const backend = args.backend as unknown as BackendWasm;
    const { begin, size } = args.attrs as { begin: number | number[]; size: number | number[] };
    const [start, extent] = tf.slice_util.parseSliceParams(x as tf.Tensor, begin, size);
    const out = backend.makeOutput(extent, x.dtype);
    if (tf.util.sizeFromShape(extent) === 0) return out;
    // Views after makeOutput: growing the heap detaches older ones.
    const from = backend.typedArrayFromHeap(x);
    const to = backend.typedArrayFromHeap(out);
    const rank = x.shape.length;
    const strides = tf.util.computeStrides(x.shape);
    if (rank === 0 || tf.slice_util.isSliceContinous(x.shape, start, extent)) {
      const offset = rank === 0 ? 0 : tf.slice_util.computeFlatOffset(start, strides);
      to.set(from.subarray(offset, offset + to.length));
      return out;
    }
    const run = extent[rank - 1];
    const index = new Array<number>(rank - 1).fill(0);
    for (let o = 0; o < to.length; o += run) {
      let at = start[rank - 1];
      for (let i = 0; i < rank - 1; i++) at += (start[i] + index[i]) * strides[i];
      to.set(from.subarray(at, at + run), o);
      // Next run: the odometer over every axis but the last.
      for (let i = rank - 2; i >= 0; i--) {
        if (++index[i] < extent[i]) break;
        index[i] = 0;
      }
    }
    return out;
  };
}
