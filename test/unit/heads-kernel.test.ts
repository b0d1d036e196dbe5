/**
 * Attention's head split and merge (models/heads.ts) as one WASM kernel each
 * way: the same values and gradients as the reshape-transpose-reshape path,
 * each the inverse of the other, one kernel per call and per gradient.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import * as tf from '../../src/models/tf';
import { mergeHeads, splitHeads } from '../../src/models/heads';
import { HEADS_MERGE, HEADS_SPLIT } from '../../src/models/kernelNames';
import { kernelsDuring, seeded, wasmWithOwnKernels, withoutKernels } from './kernel-fixtures';

beforeAll(wasmWithOwnKernels);

describe('head split and merge as one WASM kernel each way', () => {
  it('moves the same values, with the same gradients, in one kernel each', async () => {
    const x = seeded([3, 7, 12], 1);
    const probeSplit = seeded([12, 7, 3], 2);
    const probeMerge = seeded([3, 7, 12], 3);
    const run = () => {
      const split = splitHeads(x, 4);
      const merged = mergeHeads(split, 3, 4);
      const f = (v: tf.Tensor) => tf.add(tf.sum(tf.mul(splitHeads(v, 4), probeSplit)), tf.sum(tf.mul(mergeHeads(tf.reshape(v, [12, 7, 3]), 3, 4), probeMerge))) as tf.Scalar;
      const [g] = tf.grads(f)([x]);
      const out = [Array.from(split.dataSync()), Array.from(merged.dataSync()), Array.from(g.dataSync()), split.shape];
      tf.dispose([split, merged, g]);
      return out;
    };
    const want = await withoutKernels([HEADS_SPLIT, HEADS_MERGE], run);
    const before = tf.memory().numTensors;
    const { result: got, names } = await kernelsDuring(run);
    expect(tf.memory().numTensors).toBe(before);
    expect(got).toEqual(want);
    expect(got[1]).toEqual(Array.from(x.dataSync()));
    // split, merge; in f: split, merge, and each one's gradient, the other kernel.
    expect(names.filter((n) => n === HEADS_SPLIT)).toHaveLength(3);
    expect(names.filter((n) => n === HEADS_MERGE)).toHaveLength(3);
    expect(names).not.toContain('Transpose');
    tf.dispose([x, probeSplit, probeMerge]);
  });
});
