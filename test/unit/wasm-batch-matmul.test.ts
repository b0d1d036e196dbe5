/**
 * The WASM BatchMatMul that runs a batched product as one XNNPACK product
 * per entry (workers/wasmBatchMatMul.ts): the same values as the backend's
 * own loop for batched, broadcast and higher-rank products, gradients
 * through it, and no tensor or heap memory left behind.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as tf from '../../src/models/tf';
import '@tensorflow/tfjs-backend-wasm';
import { registerWasmKernels } from '../../workers/wasmKernels';

let backendOwn: tf.KernelConfig;

beforeAll(async () => {
  await tf.setBackend('wasm');
  await tf.ready();
  backendOwn = { ...(tf.getKernel('BatchMatMul', 'wasm') as tf.KernelConfig) };
});

afterAll(() => {
  registerWasmKernels();
});

const SHAPES: [number[], number[]][] = [
  [[16, 24, 7], [16, 7, 24]],
  [[3, 5, 9], [3, 9, 4]],
  [[2, 3, 6, 5], [2, 3, 5, 8]],
  [[1, 6, 5], [4, 5, 3]],
  [[4, 6, 5], [5, 3]],
  [[6, 5], [4, 5, 3]],
  [[4, 1, 5], [4, 5, 1]],
];

function products(): Float32Array[] {
  return SHAPES.map(([sa, sb], i) =>
    tf.tidy(() => tf.matMul(tf.randomNormal(sa, 0, 1, 'float32', 10 + i), tf.randomNormal(sb, 0, 1, 'float32', 50 + i)).dataSync() as Float32Array),
  );
}

function gradients(): Float32Array[] {
  return tf.tidy(() => {
    const q = tf.randomNormal([8, 12, 6], 0, 1, 'float32', 3);
    const k = tf.randomNormal([8, 6, 12], 0, 1, 'float32', 4);
    const g = tf.grads((x: tf.Tensor, y: tf.Tensor) => tf.sum(tf.square(tf.matMul(tf.softmax(tf.matMul(x, y)), tf.transpose(y, [0, 2, 1])))));
    return g([q, k]).map((t) => t.dataSync() as Float32Array);
  });
}

describe('batched products on WASM', () => {
  it('match the backend’s own kernel to 1e-5, with gradients, leaving nothing behind', () => {
    tf.unregisterKernel('BatchMatMul', 'wasm');
    tf.registerKernel(backendOwn);
    const [plain, plainGrads] = [products(), gradients()];
    registerWasmKernels();
    expect(tf.getKernel('BatchMatMul', 'wasm')?.kernelFunc).not.toBe(backendOwn.kernelFunc);
    const before = { tensors: tf.memory().numTensors, bytes: tf.memory().numBytes };
    const [fast, fastGrads] = [products(), gradients()];
    expect(tf.memory().numTensors).toBe(before.tensors);
    expect(tf.memory().numBytes).toBe(before.bytes);
    [...fast, ...fastGrads].forEach((got, i) => {
      const want = [...plain, ...plainGrads][i];
      expect(got.length).toBe(want.length);
      const worst = got.reduce((m, v, j) => Math.max(m, Math.abs(v - want[j]) / (1 + Math.abs(want[j]))), 0);
      expect(worst, `product ${i}`).toBeLessThan(1e-5);
    });
  });

  it('keeps the shape of the broadcast operand', () => {
    registerWasmKernels();
    const out = tf.tidy(() => tf.matMul(tf.ones([2, 3, 4, 5]), tf.ones([2, 3, 5, 6])));
    expect(out.shape).toEqual([2, 3, 4, 6]);
    expect(out.dataSync()[0]).toBe(5);
    out.dispose();
  });
});
