/**
 * TRANSPOSED_PRODUCT on WASM (workers/wasmTransposedProduct.ts): fastops'
 * products and their gradients, rank 2 and batched rank 3, with and without
 * a transposed operand, are the explicit-transpose path's bit for bit, with
 * no Transpose kernel left and no tensor leaked.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import * as tf from '../../src/models/tf';
import { matMul } from '../../src/models/fastops';
import { TRANSPOSED_PRODUCT } from '../../src/models/kernelNames';
import { bitsOf, kernelsDuring, seeded, wasmWithOwnKernels, withoutKernels } from './kernel-fixtures';

beforeAll(wasmWithOwnKernels);

describe('a product with a transposed operand as one WASM kernel', () => {
  const cases: [string, number[], number[], boolean][] = [
    ['rank 2, a · b', [30, 20], [20, 12], false],
    ['rank 2, a · bᵀ', [30, 20], [12, 20], true],
    ['rank 3 batched (attention), a · bᵀ', [6, 40, 16], [6, 40, 16], true],
    ['rank 3 batched, a · b', [6, 40, 16], [6, 16, 40], false],
  ];
  it.each(cases)('%s: values and gradients bit for bit, no Transpose kernel', async (_, sa, sb, tb) => {
    const a = seeded(sa, 1);
    const b = seeded(sb, 2);
    const probe = seeded(matMul(a, b, tb).shape, 3);
    const run = () => {
      const f = (x: tf.Tensor, y: tf.Tensor) => tf.sum(tf.mul(matMul(x, y, tb), probe)) as tf.Scalar;
      const y = matMul(a, b, tb);
      const grads = tf.grads(f)([a, b]);
      const out = [bitsOf(y), ...grads.map(bitsOf)];
      tf.dispose([y, ...grads]);
      return out;
    };
    const want = await withoutKernels([TRANSPOSED_PRODUCT], run);
    const before = tf.memory().numTensors;
    const { result: got, names } = await kernelsDuring(run);
    expect(tf.memory().numTensors).toBe(before);
    got.forEach((g, i) => expect(g, `output ${i}`).toEqual(want[i]));
    expect(names).not.toContain('Transpose');
    expect(names).toContain(TRANSPOSED_PRODUCT);
    tf.dispose([a, b, probe]);
  });
});
