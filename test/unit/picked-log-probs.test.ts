/**
 * The picked-log-prob kernels on WASM (src/models/pickedLoops.ts) against
 * the log-softmax, one-hot and sum they replace: the same log-probs and the
 * same gradients, with and without an additive mask, for picks in and out
 * of range, and no tensor left behind.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import * as tf from '../../src/models/tf';
import '@tensorflow/tfjs-backend-wasm';
import { oneHotFloat } from '../../src/models/dtype';
import { pickedLogProbs } from '../../src/models/pickedLogProbs';
import { PICKED_LOG_PROB } from '../../src/models/kernelNames';
import { registerWasmKernels } from '../../workers/wasmKernels';

beforeAll(async () => {
  await tf.setBackend('wasm');
  await tf.ready();
  registerWasmKernels();
});

const worst = (a: Float32Array, b: Float32Array) => a.reduce((m, v, i) => Math.max(m, Math.abs(v - b[i]) / (1 + Math.abs(b[i]))), 0);

const plain = (z: tf.Tensor, picks: tf.Tensor, mask?: tf.Tensor) => tf.sum(tf.mul(tf.logSoftmax(mask ? tf.add(z, mask) : z), oneHotFloat(picks, z.shape[z.shape.length - 1] as number)), -1);

/** Log-probs and the gradient of a weighted sum of them with respect to the logits. */
function run(f: typeof plain, z: tf.Tensor, picks: tf.Tensor, mask?: tf.Tensor): Float32Array[] {
  return tf.tidy(() => {
    const w = tf.randomNormal(picks.shape, 0, 1, 'float32', 5);
    const dz = tf.grad((x: tf.Tensor) => tf.sum(tf.mul(f(x, picks, mask), w)))(z);
    return [f(z, picks, mask), dz].map((t) => t.dataSync() as Float32Array);
  });
}

describe('picked log-probs on WASM', () => {
  it('run as the kernel there', () => {
    expect(tf.getKernel(PICKED_LOG_PROB, 'wasm')).toBeDefined();
  });

  it('equal the log-softmax path, with and without a mask, picks out of range included', () => {
    const [b, c, v] = [3, 5, 301];
    const z = tf.mul(tf.randomNormal([b, c, v], 0, 1, 'float32', 1), 4);
    const picks = tf.tensor2d([0, 300, 17, 5, 9, 1, 2, 3, 299, 150, 7, 8, 11, 12, 13], [b, c], 'int32');
    // The constraint's mask: −1e9 on all but a few columns per row, the picked column always allowed.
    const allowed = tf.greater(tf.randomUniform([b, c, v], 0, 1, 'float32', 3), 0.9);
    const mask = tf.tidy(() => tf.mul(tf.sub(1, tf.maximum(tf.cast(allowed, 'float32'), oneHotFloat(picks, v))), -1e9));
    const before = tf.memory().numTensors;
    for (const m of [undefined, mask]) {
      const [lp, dz] = run(pickedLogProbs, z, picks, m);
      const [lp0, dz0] = run(plain, z, picks, m);
      expect(worst(lp, lp0)).toBeLessThan(1e-5);
      expect(worst(dz, dz0)).toBeLessThan(1e-5);
      expect(lp.some((x) => x < -1)).toBe(true); // the comparison is not of zeros
    }
    expect(tf.memory().numTensors).toBe(before);
    // A pick outside the row gives 0 and no gradient, as the one-hot does.
    const out = tf.tensor2d([-1, 400, 2], [1, 3], 'int32');
    const [lp, dz] = run(pickedLogProbs, tf.slice(z, [0, 0, 0], [1, 3, v]), out);
    expect(Array.from(lp.slice(0, 2))).toEqual([0, 0]);
    expect(dz.slice(0, 2 * v).every((x) => x === 0)).toBe(true);
    expect(lp[2]).toBeLessThan(0);
  });
});
