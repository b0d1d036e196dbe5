/**
 * Layer norm and GELU as single WASM kernels (src/models/rowLoops.ts,
 * registered by workers/wasmKernels.ts) against layers.ts's element-wise
 * forms: the same values and gradients (input and parameters), and no
 * tensor left behind.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import * as tf from '../../src/models/tf';
import '@tensorflow/tfjs-backend-wasm';
import { gelu, layerNorm } from '../../src/models/layers';
import { GELU_TANH, ROW_LAYER_NORM } from '../../src/models/kernelNames';
import { registerWasmKernels } from '../../workers/wasmKernels';

beforeAll(async () => {
  await tf.setBackend('wasm');
  await tf.ready();
});

const worst = (a: Float32Array, b: Float32Array) => a.reduce((m, v, i) => Math.max(m, Math.abs(v - b[i]) / (1 + Math.abs(b[i]))), 0);

/** Values of layerNorm(gelu(x)) and the gradients of a weighted sum of them with respect to x, g and b. */
function run(x: tf.Tensor, g: tf.Variable, b: tf.Variable): { values: Float32Array[]; tensorsLeft: number } {
  const before = tf.memory().numTensors;
  const values = tf.tidy(() => {
    const p = { 'ln.g': g, 'ln.b': b };
    const f = (t: tf.Tensor) => layerNorm(p, 'ln', gelu(t));
    const weights = tf.randomNormal(x.shape, 0, 1, 'float32', 7);
    const { grads } = tf.variableGrads(() => tf.sum(tf.mul(f(tf.mul(x, 1)), weights)) as tf.Scalar, [g, b]);
    const dx = tf.grad((t: tf.Tensor) => tf.sum(tf.mul(f(t), weights)))(x);
    return [f(x), dx, grads[g.name], grads[b.name]].map((t) => t.dataSync() as Float32Array);
  });
  return { values, tensorsLeft: tf.memory().numTensors - before };
}

describe('layer norm and GELU kernels on WASM', () => {
  it('give the element-wise forms’ values and gradients (rows as small as a decoding step’s, where layers.ts uses them)', () => {
    const x = tf.mul(tf.randomNormal([6, 5, 48], 0, 1, 'float32', 1), tf.randomUniform([6, 5, 1], 0.1, 4, 'float32', 2));
    const g = tf.variable(tf.randomNormal([48], 1, 0.3, 'float32', 3), true, 'row-kernels-g');
    const b = tf.variable(tf.randomNormal([48], 0, 0.3, 'float32', 4), true, 'row-kernels-b');
    const plain = run(x, g, b);
    registerWasmKernels();
    expect(tf.getKernel(ROW_LAYER_NORM, 'wasm') && tf.getKernel(GELU_TANH, 'wasm')).toBeTruthy();
    const kernel = run(x, g, b);
    expect(kernel.tensorsLeft).toBe(0);
    kernel.values.forEach((v, i) => {
      expect(v.length).toBe(plain.values[i].length);
      expect(worst(v, plain.values[i]), ['value', 'dx', 'dg', 'db'][i]).toBeLessThan(2e-5);
    });
    [x, g, b].forEach((t) => t.dispose());
  });
});
