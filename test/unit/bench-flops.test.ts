import { beforeAll, describe, expect, it } from 'vitest';
import * as tf from '../../src/models/tf';
import '@tensorflow/tfjs-backend-wasm';
import { countFlops, matmulShape, shapeFlops } from '../../src/bench/flops';
import { median, profileStep } from '../../src/bench/measure';
import { Random } from '../../src/learn/random';
import { block, blockSpecs, dense, denseSpecs } from '../../src/models/layers';
import { disposeParams, initParams } from '../../src/models/params';
import { AFFINE, AFFINE_GRAD, DECODE_ATTENTION, TRANSPOSED_PRODUCT } from '../../src/models/kernelNames';

beforeAll(async () => {
  await tf.setBackend('wasm');
});

describe('matrix-product shapes from kernel records', () => {
  it('reads m, k, n and the batch of plain, batched and transposed products', () => {
    expect(matmulShape({ name: 'BatchMatMul', inputShapes: [[4, 6], [6, 5]], outputShapes: [[4, 5]] })).toEqual({ batch: 1, m: 4, k: 6, n: 5 });
    expect(matmulShape({ name: 'BatchMatMul', inputShapes: [[3, 7, 2], [3, 2, 9]], outputShapes: [[3, 7, 9]] })).toEqual({ batch: 3, m: 7, k: 2, n: 9 });
    // a transposed (a is [k, m]): k is still what is left of a's size.
    expect(matmulShape({ name: 'BatchMatMul', inputShapes: [[6, 4], [6, 5]], outputShapes: [[4, 5]] })).toEqual({ batch: 1, m: 4, k: 6, n: 5 });
    // Our plain-product kernel on WebGPU: a [B, k, m] transposed, with a bias as its third input.
    expect(matmulShape({ name: 'CoevoPlainProduct', inputShapes: [[2, 6, 4], [2, 6, 5], [5]], outputShapes: [[2, 4, 5]] })).toEqual({ batch: 2, m: 4, k: 6, n: 5 });
    expect(matmulShape({ name: 'Add', inputShapes: [[4, 5], [4, 5]], outputShapes: [[4, 5]] })).toBeNull();
    expect(shapeFlops({ batch: 3, m: 7, k: 2, n: 9 })).toBe(2 * 3 * 7 * 2 * 9);
  });

  it('sums products, counts kernels and names the shape with the largest share', () => {
    const c = countFlops([
      { name: 'BatchMatMul', inputShapes: [[2, 3], [3, 4]], outputShapes: [[2, 4]] },
      { name: 'Add', inputShapes: [[2, 4], [4]], outputShapes: [[2, 4]] },
      { name: 'BatchMatMul', inputShapes: [[10, 10], [10, 10]], outputShapes: [[10, 10]] },
      { name: 'BatchMatMul', inputShapes: [[2, 3], [3, 4]], outputShapes: [[2, 4]] },
    ]);
    expect(c).toEqual({ flops: 48 + 2000 + 48, matmuls: 3, kernels: 4, dominant: { batch: 1, m: 10, k: 10, n: 10 } });
  });

  it('refuses a product whose operand does not fit its output', () => {
    expect(() => matmulShape({ name: 'BatchMatMul', inputShapes: [[5, 7], [7, 3]], outputShapes: [[4, 3]] })).toThrow(/does not fit/);
  });
});

describe('FLOPs of real steps, profiled on WASM, against shapes computed by hand', () => {
  it('a dense layer trained one step: forward x·W, backward dy·Wᵀ and xᵀ·dy', async () => {
    const p = initParams(new Random(1), denseSpecs('d', 6, 5));
    const x = tf.ones([4, 6]);
    const opt = tf.train.sgd(0.1);
    const prof = await profileStep(async () => {
      const loss = tf.tidy(() => {
        const { value, grads } = tf.variableGrads(() => tf.sum(dense(p, 'd', x)) as tf.Scalar, Object.values(p));
        opt.applyGradients(grads);
        return value;
      });
      await loss.data();
      loss.dispose();
    });
    expect(prof.flops).toBe(3 * 2 * 4 * 6 * 5);
    expect(prof.matmuls).toBe(3);
    expect(prof.kernels).toBeGreaterThan(3);
    expect(prof.readBacks).toBe(1); // the loss, once
    const twice = await profileStep(async () => {
      // WASM's slice kernel reads its input on the host: not a read-back.
      const y = tf.slice(tf.add(x, 1), [1, 0], [2, -1]);
      y.dataSync();
      await y.data();
      y.dispose();
    });
    expect(twice.readBacks).toBe(2);
    x.dispose();
    opt.dispose();
    disposeParams(p);
  });

  it('a transformer block forward: 24·B·T·d² for the projections and MLP, 4·B·T²·d for attention', async () => {
    const [b, t, d, heads] = [2, 5, 8, 2];
    const p = initParams(new Random(2), blockSpecs('blk', d));
    const x = tf.ones([b, t, d]);
    const prof = await profileStep(async () => {
      const y = block(p, 'blk', x, heads);
      await y.data();
      y.dispose();
    });
    // q, k, v, o: 4·(2·B·T·d·d); scores and weights·values: 2·(2·B·T·T·d); MLP d→4d→d: 2·(2·B·T·d·4d).
    expect(prof.flops).toBe(8 * b * t * d * d + 4 * b * t * t * d + 16 * b * t * d * d);
    expect(prof.matmuls).toBe(4 + 2 + 2);
    expect(prof.peakStepBytes).toBeGreaterThan(0);
    x.dispose();
    disposeParams(p);
  });
});

describe('convolution FLOPs (the grounder stem on WebGPU)', () => {
  it('counts conv2d and both of its gradients as the products they equal', () => {
    // x [2, 6, 8, 3] * filter [3, 3, 3, 5] → y [2, 6, 8, 5]: 96 positions × 27 window values × 5 outputs.
    const fwd = { name: 'Conv2D', inputShapes: [[2, 6, 8, 3], [3, 3, 3, 5]], outputShapes: [[2, 6, 8, 5]] };
    const dx = { name: 'Conv2DBackpropInput', inputShapes: [[2, 6, 8, 5], [3, 3, 3, 5]], outputShapes: [[2, 6, 8, 3]] };
    const dw = { name: 'Conv2DBackpropFilter', inputShapes: [[2, 6, 8, 3], [2, 6, 8, 5]], outputShapes: [[3, 3, 3, 5]] };
    expect(matmulShape(fwd)).toEqual({ batch: 1, m: 96, k: 27, n: 5 });
    expect(matmulShape(dx)).toEqual({ batch: 1, m: 96, k: 45, n: 3 });
    expect(matmulShape(dw)).toEqual({ batch: 1, m: 27, k: 96, n: 5 });
    // All three are the same work: 2 · positions · 9 · in · out.
    expect(countFlops([fwd, dx, dw]).flops).toBe(3 * 2 * 96 * 9 * 3 * 5);
    expect(() => matmulShape({ name: 'Conv2D', inputShapes: [[6, 8, 3], [3, 3, 3, 5]], outputShapes: [[6, 8, 5]] })).toThrow(/not a 2-D convolution/);
  });
});

describe('decoding attention FLOPs (one WASM kernel per layer and token)', () => {
  it('counts the scores and the weighted values over the prompt, the earlier tokens and the new one', () => {
    // 4 rows × 2 heads, dh 24: prompt keys 100, 5 generated before, grown to 6.
    const k = {
      name: DECODE_ATTENTION,
      inputShapes: [[4, 1, 48], [4, 1, 48], [4, 1, 48], [8, 100, 24], [8, 100, 24], [4, 1, 1, 100], [8, 5, 24], [8, 5, 24]],
      outputShapes: [[4, 1, 48], [8, 6, 24], [8, 6, 24]],
    };
    // The tensor path's products: q·kᵀ and p·v, each [8, 1, 24] × [8, 24, 106] in FLOPs.
    expect(countFlops([k]).flops).toBe(2 * shapeFlops({ batch: 8, m: 1, k: 24, n: 106 }));
    expect(() => matmulShape({ ...k, outputShapes: [[4, 1, 48]] })).toThrow(/not a decoding step/);
  });
});

describe('dense layer FLOPs (one WASM kernel each way)', () => {
  it('counts the forward product, and one or two products in the gradient', () => {
    // x [2, 30, 16] · w [16, 8] + b.
    const fwd = { name: AFFINE, inputShapes: [[2, 30, 16], [16, 8], [8]], outputShapes: [[2, 30, 8]] };
    const both = { name: AFFINE_GRAD, inputShapes: [[2, 30, 8], [2, 30, 16], [16, 8]], outputShapes: [[2, 30, 16], [16, 8], [8]] };
    const dwOnly = { ...both, outputShapes: [[16, 8], [8]] };
    const one = 2 * 60 * 16 * 8;
    expect(countFlops([fwd]).flops).toBe(one);
    expect(countFlops([both]).flops).toBe(2 * one);
    expect(countFlops([dwOnly]).flops).toBe(one);
    expect(countFlops([fwd, both, dwOnly]).matmuls).toBe(3);
    expect(() => matmulShape({ ...fwd, inputShapes: [[2, 30, 16], [16]] })).toThrow(/not a dense layer/);
  });

  it('counts a product with a transposed operand (one WASM kernel) as the product it is', () => {
    // a [6, 40, 16] · bᵀ with b [6, 40, 16] → [6, 40, 40].
    expect(matmulShape({ name: TRANSPOSED_PRODUCT, inputShapes: [[6, 40, 16], [6, 40, 16]], outputShapes: [[6, 40, 40]] })).toEqual({ batch: 6, m: 40, k: 16, n: 40 });
  });
});

describe('median', () => {
  it('is the middle value, or the mean of the two middle values', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([])).toBeNaN();
  });
});
