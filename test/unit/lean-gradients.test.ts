/**
 * workers/leanGradients.ts: the gradients of add, sub, mul, div, sqrt, log,
 * square, sum, mean and reshape, with broadcasting along every kind of axis and
 * positive operands, are bit for bit tfjs's own, leak no tensor, and launch fewer
 * kernels; a step of the tiny grounder gives the same gradients both ways.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as tf from '../../src/models/tf';
import '@tensorflow/tfjs-backend-wasm';
import { useLeanGradients } from '../../workers/leanGradients';
import { bitsOf, kernelsDuring, seeded } from './kernel-fixtures';
import { benchGrounder, grounderSftTrainer } from '../../src/bench/agentSteps';
import { syntheticScreenImage } from '../../src/models/rasterize';
import { disposeParams } from '../../src/models/params';

const NAMES = [tf.Add, tf.Sub, tf.Multiply, tf.RealDiv, tf.Sqrt, tf.Log, tf.Square, tf.Sum, tf.Mean, tf.Reshape];
let tfjs: tf.GradConfig[] = [];
let lean: tf.GradConfig[] = [];

function use(configs: tf.GradConfig[]): void {
  for (const c of configs) tf.registerGradient(c);
}

beforeAll(async () => {
  await tf.setBackend('wasm');
  await tf.ready();
  tfjs = NAMES.map((n) => tf.getGradient(n) as tf.GradConfig);
  useLeanGradients();
  lean = NAMES.map((n) => tf.getGradient(n) as tf.GradConfig);
});

afterAll(() => use(tfjs));

/** Gradients of f at xs with the given configs, their bits, and the kernels the call launched. */
async function gradsWith(configs: tf.GradConfig[], f: (...xs: tf.Tensor[]) => tf.Scalar, xs: tf.Tensor[]): Promise<{ bits: number[][]; kernels: number }> {
  use(configs);
  const { result: bits, names } = await kernelsDuring(() => {
    const grads = tf.grads(f)(xs);
    const out = grads.map(bitsOf);
    tf.dispose(grads);
    return out;
  });
  return { bits, kernels: names.length };
}

describe('lean gradients', () => {
  const cases: [string, number[][], (...xs: tf.Tensor[]) => tf.Scalar, boolean?][] = [
    ['a + b, same shape, then reused', [[3, 4], [3, 4]], (a, b) => tf.sum(tf.mul(tf.add(a, b), tf.add(a, a)))],
    ['a + b, bias row', [[2, 3, 4], [4]], (a, b) => tf.sum(tf.square(tf.add(a, b)))],
    ['a + b, kept axis', [[2, 3, 4], [2, 1, 4]], (a, b) => tf.sum(tf.sin(tf.add(a, b)))],
    ['a − b both ways', [[2, 1, 4], [3, 1]], (a, b) => tf.sum(tf.square(tf.sub(a, b)))],
    ['a · b broadcast', [[2, 3, 4], [3, 1]], (a, b) => tf.sum(tf.square(tf.mul(a, b)))],
    ['a / b broadcast', [[2, 3, 4], [4]], (a, b) => tf.sum(tf.square(tf.div(a, b))), true],
    ['√x, log x, x²', [[5, 2]], (x) => tf.sum(tf.add(tf.add(tf.sqrt(x), tf.log(x)), tf.square(x))), true],
    ['sum and mean, kept dims or not', [[3, 4, 5]], (x) => tf.sum(tf.square(tf.add(tf.sub(x, tf.mean(x, -1, true)), tf.add(tf.sum(x, 0), tf.mean(tf.sum(x, 1, true), [0, 1])))))],
    ['reshape, identity and not', [[4, 6]], (x) => tf.sum(tf.square(tf.reshape(tf.reshape(tf.mul(x, 3), [4, 6]), [2, 12])))],
  ];
  it.each(cases)('%s: the same bits as tfjs, no leak', async (_, shapes, f, positive) => {
    const xs = shapes.map((s, i) => seeded(s, 10 + i, positive));
    const before = tf.memory().numTensors;
    const want = await gradsWith(tfjs, f, xs);
    const got = await gradsWith(lean, f, xs);
    expect(tf.memory().numTensors).toBe(before);
    expect(got.bits).toEqual(want.bits);
    expect(got.kernels).toBeLessThanOrEqual(want.kernels);
    tf.dispose(xs);
  });

  it('launches fewer kernels where tfjs reshapes or casts for nothing', async () => {
    const xs = [seeded([8, 16], 1), seeded([8, 16], 2), seeded([16], 3)];
    const f = (a: tf.Tensor, b: tf.Tensor, c: tf.Tensor): tf.Scalar => tf.sum(tf.div(tf.mul(tf.add(a, b), tf.sub(a, c)), tf.add(tf.square(b), 1)));
    const want = await gradsWith(tfjs, f, xs);
    const got = await gradsWith(lean, f, xs);
    expect(got.bits).toEqual(want.bits);
    expect(want.kernels - got.kernels).toBeGreaterThanOrEqual(6);
    tf.dispose(xs);
  });

  it('a tiny grounder SFT step updates every weight to the same bits, with at least 400 fewer kernels', async () => {
    const after = async (configs: tf.GradConfig[]) => {
      use(configs);
      const g = benchGrounder('tiny', 1);
      const t = grounderSftTrainer(g, { seed: 1, batch: 4, distinct: 1, paint: syntheticScreenImage });
      const { names } = await kernelsDuring(() => t.step());
      const kernels = names.length;
      const bits = Object.fromEntries(Object.entries(g.params).map(([k, v]) => [k, bitsOf(v)]));
      t.dispose();
      disposeParams(g.params);
      return { bits, kernels };
    };
    const want = await after(tfjs);
    const got = await after(lean);
    expect(Object.keys(got.bits).length).toBeGreaterThan(20);
    for (const k of Object.keys(want.bits)) expect(got.bits[k], k).toEqual(want.bits[k]);
    // Measured: 5,541 → 5,011 kernels without the WASM kernels and shared saved tensors the worker adds.
    expect(want.kernels - got.kernels).toBeGreaterThanOrEqual(400);
  }, 120_000);
});
