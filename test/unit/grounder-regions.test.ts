/**
 * The grounder pools cells into 2×2 regions and spreads regions back to
 * cells in two ways: reductions and a broadcast (WASM, CPU) or strided
 * slices and concats (WebGPU, where those reductions were slow). Both must
 * be the same function with the same gradients, or a checkpoint would mean
 * different things on the two backends; the test runs both forms on WASM.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import * as tf from '../../src/models/tf';
import '@tensorflow/tfjs-backend-wasm';
import { fromRegions, REGION_COLS, REGION_ROWS, toRegions } from '../../src/models/grounder';
import { GRID_CELLS, GRID_COLS } from '../../src/models/canvas';
import { Random } from '../../src/learn/random';

beforeAll(async () => {
  await tf.setBackend('wasm');
});

describe('grounder regions', () => {
  it('slices + concats equal mean + broadcast, values and gradients', () => {
    const [b, d] = [2, 3];
    const r = new Random(5);
    const x = tf.tensor3d(Array.from({ length: b * GRID_CELLS * d }, () => r.normal()), [b, GRID_CELLS, d]);
    const weights = tf.tensor3d(Array.from({ length: b * GRID_CELLS * d }, () => r.normal()), [b, GRID_CELLS, d]);
    // Through both halves and a non-linearity, so each gradient depends on both functions.
    const f = (bySlices: boolean) => (v: tf.Tensor) => tf.sum(tf.mul(tf.tanh(fromRegions(tf.mul(toRegions(v, bySlices), 3), bySlices)), weights)) as tf.Scalar;
    const regions = toRegions(x, false);
    expect(regions.shape).toEqual([b, REGION_ROWS * REGION_COLS, d]);
    const gap = (u: tf.Tensor, v: tf.Tensor) => tf.max(tf.abs(tf.sub(u, v))).dataSync()[0];
    expect(gap(regions, toRegions(x, true))).toBeLessThan(1e-6);
    expect(gap(fromRegions(regions, false), fromRegions(regions, true))).toBeLessThan(1e-6);
    const g1 = tf.grad(f(false))(x);
    const g2 = tf.grad(f(true))(x);
    expect(gap(g1, g2)).toBeLessThan(1e-5);
    // Not trivially equal: the gradient is non-zero, and a cell's region mean is what it gets back.
    expect(tf.max(tf.abs(g1)).dataSync()[0]).toBeGreaterThan(0.01);
    const cell0 = tf.slice(fromRegions(regions, true), [0, 0, 0], [1, 1, d]).dataSync();
    const x0 = x.dataSync();
    const mean00 = Array.from({ length: d }, (_, k) => (x0[k] + x0[d + k] + x0[GRID_COLS * d + k] + x0[(GRID_COLS + 1) * d + k]) / 4);
    cell0.forEach((v, k) => expect(v).toBeCloseTo(mean00[k], 5));
    tf.dispose([x, weights, regions, g1, g2]);
  });
});
