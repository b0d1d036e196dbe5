/**
 * The WASM Identity that shares its input's data (workers/wasmKernels.ts):
 * a clone reads the same values, outlives its source, frees its memory with
 * the last reference, and a training step's gradients are the same as with
 * the copying Identity.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as tf from '../../src/models/tf';
import '@tensorflow/tfjs-backend-wasm';
import { registerWasmKernels } from '../../workers/wasmKernels';

let copying: tf.KernelConfig;

beforeAll(async () => {
  await tf.setBackend('wasm');
  await tf.ready();
  copying = { ...(tf.getKernel('Identity', 'wasm') as tf.KernelConfig) };
});

afterAll(() => {
  tf.unregisterKernel('Identity', 'wasm');
  tf.registerKernel(copying);
});

function gradsOfStep(): Float32Array[] {
  return tf.tidy(() => {
    const w = tf.variable(tf.randomNormal([6, 5], 0, 1, 'float32', 11), true, `w${Math.random()}`);
    const x = tf.randomNormal([4, 6], 0, 1, 'float32', 12);
    const { grads } = tf.variableGrads(() => tf.sum(tf.square(tf.tanh(tf.matMul(tf.mul(x, 2), w)))) as tf.Scalar, [w]);
    const out = Object.values(grads).map((g) => g.dataSync() as Float32Array);
    w.dispose();
    return out;
  });
}

describe('shared-data Identity on WASM', () => {
  it('gives the same gradients as the copying Identity, and the same tensor count', () => {
    const before = tf.memory().numTensors;
    const copied = gradsOfStep();
    registerWasmKernels();
    registerWasmKernels(); // twice, as after a fallback to WASM: still registered once
    const shared = gradsOfStep();
    expect(shared.map((g) => Array.from(g))).toEqual(copied.map((g) => Array.from(g)));
    expect(tf.memory().numTensors).toBe(before);
  });

  it('lets a clone outlive its source and frees the bytes with the last reference', () => {
    registerWasmKernels();
    const bytes = tf.memory().numBytes;
    const a = tf.tensor1d([1, 2, 3]);
    const b = tf.clone(a);
    a.dispose();
    expect(Array.from(b.dataSync())).toEqual([1, 2, 3]);
    b.dispose();
    expect(tf.memory().numBytes).toBe(bytes);
  });
});
