/**
 * The grounder's 3×3 convolution has two implementations, im2col + matMul
 * (WASM, CPU) and tf.fused.conv2d over the same weight matrix read as a
 * filter, with its own gradient (WebGPU). Both must be the same function
 * with the same gradients, or checkpoints would mean different things on
 * the two backends. Node has no
 * WebGPU, so the test calls the WebGPU form directly on the CPU backend.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import * as tf from '../../src/models/tf';
import '@tensorflow/tfjs-backend-cpu';
import { conv3x3, conv3x3AsFilter, conv3x3Specs } from '../../src/models/layers';
import { disposeParams, get, initParams } from '../../src/models/params';
import { Random } from '../../src/learn/random';

beforeAll(async () => {
  await tf.setBackend('cpu');
});

describe('conv3x3', () => {
  it('im2col × W equals conv2d with W reshaped to [3, 3, C, out], values and gradients', () => {
    const [b, h, w, c, out] = [2, 5, 7, 3, 4];
    const p = initParams(new Random(3), conv3x3Specs('c', c, out));
    const r = new Random(4);
    const x = tf.tensor4d(Array.from({ length: b * h * w * c }, () => r.normal()), [b, h, w, c]);
    const asConv = conv3x3AsFilter;
    const weights = tf.tensor4d(Array.from({ length: b * h * w * out }, () => r.normal()), [b, h, w, out]);
    const loss = (y: tf.Tensor) => tf.sum(tf.mul(y, weights)) as tf.Scalar;
    const viaIm2col = tf.grads((px: tf.Tensor, pw: tf.Tensor, pb: tf.Tensor) => loss(conv3x3({ 'c.w': pw as tf.Variable, 'c.b': pb as tf.Variable }, 'c', px as tf.Tensor4D)));
    const viaConv = tf.grads((px: tf.Tensor, pw: tf.Tensor, pb: tf.Tensor) => loss(asConv(px as tf.Tensor4D, pw, pb)));
    const w0 = get(p, 'c.w');
    const y1 = conv3x3(p, 'c', x);
    const y2 = asConv(x, w0, get(p, 'c.b'));
    expect(y1.shape).toEqual([b, h, w, out]);
    const close = (u: tf.Tensor, v: tf.Tensor) => expect(tf.max(tf.abs(tf.sub(u, v))).dataSync()[0]).toBeLessThan(1e-4);
    close(y1, y2);
    const b0 = tf.add(get(p, 'c.b'), tf.tensor1d(Array.from({ length: out }, () => r.normal())));
    const [gx1, gw1, gb1] = viaIm2col([x, w0, b0]);
    const [gx2, gw2, gb2] = viaConv([x, w0, b0]);
    close(gx1, gx2);
    close(gw1, gw2);
    close(gb1, gb2);
    // Not trivially equal: the gradients are non-zero and depend on the data.
    expect(tf.max(tf.abs(gw1)).dataSync()[0]).toBeGreaterThan(0.1);
    tf.dispose([x, weights, y1, y2, b0, gx1, gx2, gw1, gw2, gb1, gb2]);
    disposeParams(p);
  });
});
