/**
 * The grounder's weighted sum of score maps as one WASM kernel each way
 * (models/weightedSumOp.ts, weightedSumLoops.ts): the value and the
 * gradients for the weights and every map are the tensor path's (a slice,
 * product and add per map) bit for bit, with per-item and shared maps,
 * in one kernel each way and without leaking a tensor.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import * as tf from '../../src/models/tf';
import { useLeanGradients } from '../../workers/leanGradients';
import { weightedSumKernelOp } from '../../src/models/weightedSumOp';
import { WEIGHTED_SUM, WEIGHTED_SUM_GRAD } from '../../src/models/kernelNames';
import { bitsOf, kernelsDuring, seeded, wasmWithOwnKernels } from './kernel-fixtures';

beforeAll(async () => {
  await wasmWithOwnKernels();
  useLeanGradients();
});

/** The grounder's tensor path (grounder.ts weightedSum without the kernel). */
function tensorPath(w: tf.Tensor, maps: tf.Tensor[]): tf.Tensor {
  const b = w.shape[0];
  return maps.map((m, f) => tf.mul(tf.slice(w, [0, f], [b, 1]), m)).reduce((acc, t) => tf.add(acc, t));
}

describe('the weighted sum of score maps as one WASM kernel each way', () => {
  it('gives the tensor path’s value and gradients bit for bit, for per-item and shared maps', async () => {
    const b = 6;
    const n = 40;
    const w = seeded([b, 4], 1);
    const maps = [seeded([b, n], 2), seeded([1, n], 3), seeded([b, n], 4), seeded([1, n], 5)];
    const probe = seeded([b, n], 6);
    const run = (f: (w: tf.Tensor, maps: tf.Tensor[]) => tf.Tensor) => {
      const loss = (...xs: tf.Tensor[]) => tf.sum(tf.mul(f(xs[0], xs.slice(1)), probe)) as tf.Scalar;
      const y = f(w, maps);
      const grads = tf.grads(loss)([w, ...maps]);
      const out = [bitsOf(y), ...grads.map(bitsOf)];
      tf.dispose([y, ...grads]);
      return out;
    };
    const want = run(tensorPath);
    const before = tf.memory().numTensors;
    const { result: got, names } = await kernelsDuring(() => run(weightedSumKernelOp));
    expect(tf.memory().numTensors).toBe(before);
    got.forEach((g, i) => expect(g, `output ${i}`).toEqual(want[i]));
    expect(names.filter((x) => x === WEIGHTED_SUM)).toHaveLength(2);
    expect(names.filter((x) => x === WEIGHTED_SUM_GRAD)).toHaveLength(1);
    expect(names).not.toContain('Slice');
    expect(() => weightedSumKernelOp(w, maps.slice(1))).toThrow(/3 maps for 4 weights/);
    tf.dispose([w, ...maps, probe]);
  });
});
