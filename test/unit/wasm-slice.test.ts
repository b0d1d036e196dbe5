/**
 * The WASM Slice that reads its input in the heap (workers/wasmSlice.ts)
 * against the backend's own: every rank from 1 to 5, contiguous and strided
 * slices, int32 and bool, an empty slice, and gradients through it.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import * as tf from '../../src/models/tf';
import '@tensorflow/tfjs-backend-wasm';
import { registerWasmKernels } from '../../workers/wasmKernels';

let backendOwn: tf.KernelConfig;

beforeAll(async () => {
  await tf.setBackend('wasm');
  await tf.ready();
  backendOwn = { ...(tf.getKernel('Slice', 'wasm') as tf.KernelConfig) };
});

const CASES: [number[], number[], number[]][] = [
  [[40], [7], [20]],
  [[6, 9], [0, 2], [6, 5]],
  [[6, 9], [2, 0], [3, 9]],
  [[4, 5, 6], [1, 2, 1], [2, 3, 4]],
  [[3, 4, 5, 6], [1, 0, 2, 3], [2, 4, 3, 3]],
  [[2, 3, 4, 5, 6], [1, 1, 0, 2, 1], [1, 2, 4, 3, 5]],
  [[2, 3, 4, 5, 6], [0, 1, 0, 0, 0], [2, 1, 4, 5, 6]],
  [[5, 4], [2, 1], [0, 3]],
];

function slices(): { values: number[][]; shapes: number[][]; grad: number[] } {
  return tf.tidy(() => {
    const out = CASES.flatMap(([shape, begin, size], i) => {
      const x = tf.randomNormal(shape, 0, 1, 'float32', i + 1);
      return [tf.slice(x, begin, size), tf.slice(tf.cast(tf.mul(x, 10), 'int32'), begin, size), tf.slice(tf.greater(x, 0), begin, size)];
    });
    const x = tf.randomNormal([3, 4, 5], 0, 1, 'float32', 99);
    const grad = tf.grad((t: tf.Tensor) => tf.sum(tf.square(tf.slice(t, [1, 1, 0], [2, 2, 5]))))(x);
    return { values: out.map((t) => Array.from(t.dataSync())), shapes: out.map((t) => t.shape), grad: Array.from(grad.dataSync()) };
  });
}

describe('Slice on WASM from the heap', () => {
  it('gives the backend’s own values, shapes and gradients', () => {
    const own = slices();
    registerWasmKernels();
    expect(tf.getKernel('Slice', 'wasm')?.kernelFunc).not.toBe(backendOwn.kernelFunc);
    const before = tf.memory().numTensors;
    const heap = slices();
    expect(tf.memory().numTensors).toBe(before);
    expect(heap.shapes).toEqual(own.shapes);
    expect(heap.values).toEqual(own.values);
    expect(heap.grad).toEqual(own.grad);
  });
});
