import { beforeAll, describe, expect, it } from 'vitest';
import * as tf from '../../src/models/tf';
import '@tensorflow/tfjs-backend-wasm';
import { byKernelName, timeKernels } from '../../src/bench/kernelTimes';
import { profileStep } from '../../src/bench/measure';
import { Random } from '../../src/learn/random';
import { dense, denseSpecs } from '../../src/models/layers';
import { disposeParams, initParams } from '../../src/models/params';

beforeAll(async () => {
  await tf.setBackend('wasm');
});

describe('time per kernel by replay', () => {
  it('replays every distinct call of a training step once per signature and leaves no tensor behind', async () => {
    const p = initParams(new Random(1), denseSpecs('d', 64, 32));
    const x = tf.ones([128, 64]);
    const opt = tf.train.sgd(0.01);
    const prof = await profileStep(async () => {
      const loss = tf.tidy(() => {
        const { value, grads } = tf.variableGrads(() => tf.mean(tf.square(dense(p, 'd', x))) as tf.Scalar, Object.values(p));
        opt.applyGradients(grads);
        return value;
      });
      await loss.data();
      loss.dispose();
    });
    const before = tf.memory().numTensors;
    const t = await timeKernels(prof.calls, 2);
    expect(tf.memory().numTensors).toBe(before);
    // Every call is either timed (counted in its group) or skipped.
    expect(t.kernels.reduce((s, k) => s + k.count, 0) + t.skipped).toBe(prof.calls.length);
    expect(t.skipped).toBe(0);
    // Forward x·W and both gradients are products: three BatchMatMul calls, of three shapes.
    const products = t.kernels.filter((k) => k.kernel === 'BatchMatMul' || k.kernel === '_FusedMatMul');
    expect(products.reduce((s, k) => s + k.count, 0)).toBe(3);
    for (const k of t.kernels) {
      expect(k.msEach).toBeGreaterThanOrEqual(0);
      expect(k.msTotal).toBeCloseTo(k.msEach * k.count, 9);
    }
    // Most expensive first, and the per-name table adds up to the same estimate.
    for (let i = 1; i < t.kernels.length; i++) expect(t.kernels[i - 1].msTotal).toBeGreaterThanOrEqual(t.kernels[i].msTotal);
    const names = byKernelName(t.kernels);
    expect(names.reduce((s, e) => s + e.msTotal, 0)).toBeCloseTo(t.estimateMs, 6);
    expect(names.reduce((s, e) => s + e.count, 0)).toBe(prof.calls.length);
    x.dispose();
    opt.dispose();
    disposeParams(p);
  });
});
