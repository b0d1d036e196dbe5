/**
 * The dense layer's WASM kernels (workers/wasmAffine.ts, models/affineOp.ts):
 * the layer's output and its gradients for x, w and b are the tensor path's
 * (reshape, product, bias add) bit for bit, for rank 2 and 3 inputs and for
 * data that is not trained through; they launch one kernel each way and
 * leave no tensor behind.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import * as tf from '../../src/models/tf';
import { dense, denseOnData } from '../../src/models/layers';
import { AFFINE, AFFINE_GRAD } from '../../src/models/kernelNames';
import type { ParamMap } from '../../src/models/params';
import { bitsOf, kernelsDuring, seeded, wasmWithOwnKernels, withoutKernels } from './kernel-fixtures';

beforeAll(wasmWithOwnKernels);


describe('the dense layer as one WASM kernel each way', () => {
  const cases: [string, number[], boolean][] = [
    ['rank 2', [37, 24], true],
    ['rank 3', [3, 50, 24], true],
    ['rank 3, on data', [3, 50, 24], false],
  ];
  it.each(cases)('%s: the tensor path bit for bit, one kernel each way', async (_, shape, trainsInput) => {
    const w = tf.variable(seeded([24, 40], 2));
    const b = tf.variable(seeded([40], 3));
    const p = { 'l.w': w, 'l.b': b } as unknown as ParamMap;
    const x = seeded(shape, 1);
    const probe = seeded([...shape.slice(0, -1), 40], 4);
    const run = () => {
      const layer = trainsInput ? dense : denseOnData;
      const f = (xx: tf.Tensor, ww: tf.Tensor, bb: tf.Tensor) => tf.sum(tf.mul(layer({ 'l.w': ww, 'l.b': bb } as unknown as ParamMap, 'l', xx), probe)) as tf.Scalar;
      const y = layer(p, 'l', x);
      const grads = trainsInput ? tf.grads(f)([x, w, b]) : tf.grads((ww: tf.Tensor, bb: tf.Tensor) => f(x, ww, bb))([w, b]);
      const out = [bitsOf(y), ...grads.map(bitsOf)];
      tf.dispose([y, ...grads]);
      return out;
    };
    const want = await withoutKernels([AFFINE, AFFINE_GRAD], run);
    const before = tf.memory().numTensors;
    const { result: got, names } = await kernelsDuring(run);
    expect(tf.memory().numTensors).toBe(before);
    expect(got.length).toBe(want.length);
    got.forEach((g, i) => expect(g, `output ${i}`).toEqual(want[i]));
    expect(names.filter((n) => n === AFFINE)).toHaveLength(2); // the layer, and f's forward inside tf.grads
    expect(names.filter((n) => n === AFFINE_GRAD)).toHaveLength(1);
    expect(names).not.toContain('BatchMatMul');
    tf.dispose([w, b, x, probe]);
  });
});
