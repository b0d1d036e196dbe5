/**
 * Attention's head split and merge (models/heads.ts) as one WASM kernel each
 * way: the same values and gradients as the reshape-transpose-reshape path,
 * each the inverse of the other, one kernel per call and per gradient.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import * as tf from '../../src/models/tf';
import '@tensorflow/tfjs-backend-wasm';
import { registerWasmKernels } from '../../workers/wasmKernels';
import { mergeHeads, splitHeads } from '../../src/models/heads';
import { HEADS_MERGE, HEADS_SPLIT } from '../../src/models/kernelNames';
import { kernelEngine } from '../../src/bench/kernelTimes';
import { Random } from '../../src/learn/random';

beforeAll(async () => {
  tf.env().set('WASM_HAS_MULTITHREAD_SUPPORT', false);
  await tf.setBackend('wasm');
  await tf.ready();
  registerWasmKernels();
});

const random = (shape: number[], seed: number) => {
  const r = new Random(seed);
  return tf.tensor(Array.from({ length: shape.reduce((a, b) => a * b, 1) }, () => r.next() * 2 - 1), shape);
};

function withoutKernels<T>(f: () => T): T {
  const own = [HEADS_SPLIT, HEADS_MERGE].map((n) => tf.getKernel(n, 'wasm') as tf.KernelConfig);
  for (const k of own) tf.unregisterKernel(k.kernelName, 'wasm');
  try {
    return f();
  } finally {
    for (const k of own) tf.registerKernel(k);
  }
}

describe('head split and merge as one WASM kernel each way', () => {
  it('moves the same values, with the same gradients, in one kernel each', () => {
    const x = random([3, 7, 12], 1);
    const probeSplit = random([12, 7, 3], 2);
    const probeMerge = random([3, 7, 12], 3);
    const run = () => {
      const split = splitHeads(x, 4);
      const merged = mergeHeads(split, 3, 4);
      const f = (v: tf.Tensor) => tf.add(tf.sum(tf.mul(splitHeads(v, 4), probeSplit)), tf.sum(tf.mul(mergeHeads(tf.reshape(v, [12, 7, 3]), 3, 4), probeMerge))) as tf.Scalar;
      const [g] = tf.grads(f)([x]);
      const out = [Array.from(split.dataSync()), Array.from(merged.dataSync()), Array.from(g.dataSync()), split.shape];
      tf.dispose([split, merged, g]);
      return out;
    };
    const want = withoutKernels(run);
    const engine = kernelEngine();
    const original = engine.runKernel;
    const names: string[] = [];
    engine.runKernel = function (this: unknown, ...a: Parameters<typeof original>) {
      names.push(a[0]);
      return original.apply(this, a);
    } as typeof original;
    const before = tf.memory().numTensors;
    let got: unknown[];
    try {
      got = run();
    } finally {
      engine.runKernel = original;
    }
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
