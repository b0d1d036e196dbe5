/**
 * rowOps' dense layer and bias add, and layers' position adds (WebGPU's forms, reductions as products,
 * gradients written by hand) must be the same functions as the plain tf ops
 * that WASM uses, values and gradients alike, or a checkpoint would train
 * differently on the two backends. Both forms run here on WASM.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import * as tf from '../../src/models/tf';
import '@tensorflow/tfjs-backend-wasm';
import { addBiasRows, affineRows } from '../../src/models/rowOps';
import { Random } from '../../src/learn/random';
import { addToEach, gridSum } from '../../src/models/layers';

beforeAll(async () => {
  await tf.setBackend('wasm');
});

const r = new Random(11);
const normal2d = (n: number, c: number, scale = 1, shift = 0) => tf.tensor2d(Array.from({ length: n * c }, () => shift + scale * r.normal()), [n, c]);
const normal1d = (c: number, shift = 0) => tf.tensor1d(Array.from({ length: c }, () => shift + r.normal()));
const gap = (u: tf.Tensor, v: tf.Tensor) => tf.max(tf.abs(tf.sub(u, v))).dataSync()[0];

describe('row ops', () => {
  it('addBiasRows equals tf.add, values and gradients', () => {
    const [x, b, w] = [normal2d(37, 5), normal1d(5), normal2d(37, 5)];
    // tanh after the add, so the gradient of each input depends on the sum.
    const f = (add: (x: tf.Tensor2D, b: tf.Tensor) => tf.Tensor) => (xv: tf.Tensor, bv: tf.Tensor) => tf.sum(tf.mul(tf.tanh(add(xv as tf.Tensor2D, bv)), w)) as tf.Scalar;
    expect(gap(addBiasRows(x, b), tf.add(x, b))).toBeLessThan(1e-6);
    const [gx1, gb1] = tf.grads(f((u, v) => tf.add(u, v)))([x, b]);
    const [gx2, gb2] = tf.grads(f(addBiasRows))([x, b]);
    expect(gb2.shape).toEqual([5]);
    expect(gap(gx1, gx2)).toBeLessThan(1e-6);
    expect(gap(gb1, gb2)).toBeLessThan(1e-5);
    expect(tf.max(tf.abs(gb1)).dataSync()[0]).toBeGreaterThan(0.1);
  });

  it('affineRows equals x·w + b, values and gradients, and on data skips only the input', () => {
    const [x, w, b, v] = [normal2d(23, 6), normal2d(6, 4), normal1d(4), normal2d(23, 4)];
    const f = (dense: (x: tf.Tensor2D, w: tf.Tensor, b: tf.Tensor) => tf.Tensor) => (xv: tf.Tensor, wv: tf.Tensor, bv: tf.Tensor) =>
      tf.sum(tf.mul(tf.tanh(dense(xv as tf.Tensor2D, wv, bv)), v)) as tf.Scalar;
    const plainDense = (xv: tf.Tensor2D, wv: tf.Tensor, bv: tf.Tensor) => tf.add(tf.matMul(xv, wv), bv);
    expect(gap(affineRows(x, w, b, true), plainDense(x, w, b))).toBeLessThan(1e-5);
    const plain = tf.grads(f(plainDense))([x, w, b]);
    const rows = tf.grads(f((xv, wv, bv) => affineRows(xv, wv, bv, true)))([x, w, b]);
    plain.forEach((gp, i) => {
      expect(rows[i].shape).toEqual(gp.shape);
      expect(gap(gp, rows[i])).toBeLessThan(1e-5);
    });
    const onData = tf.grads((wv: tf.Tensor, bv: tf.Tensor) => f((_, wi, bi) => affineRows(x, wi, bi, false))(x, wv, bv))([w, b]);
    expect(gap(onData[0], plain[1])).toBeLessThan(1e-5);
    expect(gap(onData[1], plain[2])).toBeLessThan(1e-5);
  });

  it('addToEach and gridSum give the broadcast forms, values and gradients', () => {
    const [x, t, w] = [normal2d(6, 20), normal2d(4, 5), normal2d(6, 20)];
    const x3 = tf.reshape(x, [6, 4, 5]);
    const f = (by: boolean) => (xv: tf.Tensor, tv: tf.Tensor) => tf.sum(tf.mul(tf.tanh(tf.reshape(addToEach(tf.reshape(xv, [6, 4, 5]), tv, by), [6, 20])), w)) as tf.Scalar;
    expect(gap(addToEach(x3, t, true), addToEach(x3, t, false))).toBeLessThan(1e-6);
    const [a, b] = [tf.grads(f(false))([x, t]), tf.grads(f(true))([x, t])];
    a.forEach((g, i) => expect(gap(g, b[i])).toBeLessThan(1e-5));

    const [rows, cols, v] = [normal2d(3, 4), normal2d(5, 4), normal2d(15, 4)];
    const h = (by: boolean) => (rv: tf.Tensor, cv: tf.Tensor) => tf.sum(tf.mul(tf.tanh(gridSum(rv, cv, by)), v)) as tf.Scalar;
    const grid = gridSum(rows, cols, true);
    expect(gap(grid, gridSum(rows, cols, false))).toBeLessThan(1e-6);
    // Cell (1, 2) is row 1 plus column 2, row-major.
    const cell = tf.slice(grid, [1 * 5 + 2, 0], [1, 4]).dataSync();
    const [r1, c2] = [tf.slice(rows, [1, 0], [1, 4]).dataSync(), tf.slice(cols, [2, 0], [1, 4]).dataSync()];
    cell.forEach((value, k) => expect(value).toBeCloseTo(r1[k] + c2[k], 5));
    const [gPlain, gProducts] = [tf.grads(h(false))([rows, cols]), tf.grads(h(true))([rows, cols])];
    gPlain.forEach((g, i) => expect(gap(g, gProducts[i])).toBeLessThan(1e-5));
  });
});
