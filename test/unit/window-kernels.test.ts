/**
 * The WASM kernels for the grounder's window operations
 * (src/models/windowLoops.ts, registered by workers/wasmKernels.ts) against
 * the tensor ops they replace: im2col for a 3×3 window with its gradient,
 * and glyphsNearCells's window maximum with its gradient, including ties
 * (which must go to the same value as tf.maximum's gradient sends them to)
 * and no tensor left behind.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import * as tf from '../../src/models/tf';
import '@tensorflow/tfjs-backend-wasm';
import { im2col3x3 } from '../../src/models/fastops';
import { glyphsNearCells } from '../../src/models/glyphReader';
import { GLYPH_POSITIONS } from '../../src/models/canvas';
import { LETTER_CLASSES } from '../../src/world/cellLabels';
import { COL2IM_3X3, NEAR_MAX } from '../../src/models/kernelNames';
import { registerWasmKernels } from '../../workers/wasmKernels';

beforeAll(async () => {
  await tf.setBackend('wasm');
  await tf.ready();
});

interface Run {
  value: Float32Array;
  grad: Float32Array;
  tensorsLeft: number;
}

/** f(x)'s values and the gradient of Σ f(x)·weights with respect to x. */
function valueAndGrad(f: (x: tf.Tensor) => tf.Tensor, x: tf.Tensor, seed: number): Run {
  const before = tf.memory().numTensors;
  const out = tf.tidy(() => {
    const value = f(x);
    const weights = tf.randomNormal(value.shape, 0, 1, 'float32', seed);
    const grad = tf.grad((t: tf.Tensor) => tf.sum(tf.mul(f(t), weights)))(x);
    return { value: value.dataSync() as Float32Array, grad: grad.dataSync() as Float32Array };
  });
  return { ...out, tensorsLeft: tf.memory().numTensors - before };
}

const worst = (a: Float32Array, b: Float32Array) => a.reduce((m, v, i) => Math.max(m, Math.abs(v - b[i]) / (1 + Math.abs(b[i]))), 0);

/** Glyph logits where most positions share one logit vector, so the window maximum has many ties. */
function tiedLogits(): tf.Tensor3D {
  return tf.tidy(() => {
    const shared = tf.tile(tf.randomNormal([1, 1, LETTER_CLASSES], 0, 1, 'float32', 3), [2, GLYPH_POSITIONS, 1]);
    const own = tf.randomNormal([2, GLYPH_POSITIONS, LETTER_CLASSES], 0, 2, 'float32', 4);
    const pick = tf.less(tf.randomUniform([2, GLYPH_POSITIONS, 1], 0, 1, 'float32', 5), 0.1);
    return tf.where(tf.broadcastTo(pick, own.shape), own, shared) as tf.Tensor3D;
  });
}

describe('window kernels on WASM', () => {
  it('give the tensor path’s values and gradients', () => {
    const x = tf.randomNormal([2, 7, 5, 3], 0, 1, 'float32', 1);
    const logits = tiedLogits();
    const im2colPlain = valueAndGrad((t) => im2col3x3(t as tf.Tensor4D), x, 11);
    const nearPlain = valueAndGrad((t) => glyphsNearCells(t as tf.Tensor3D), logits, 12);
    registerWasmKernels();
    expect(tf.getKernel(COL2IM_3X3, 'wasm') && tf.getKernel(NEAR_MAX, 'wasm')).toBeTruthy();
    const im2colKernel = valueAndGrad((t) => im2col3x3(t as tf.Tensor4D), x, 11);
    const nearKernel = valueAndGrad((t) => glyphsNearCells(t as tf.Tensor3D), logits, 12);
    for (const [plain, kernel] of [[im2colPlain, im2colKernel], [nearPlain, nearKernel]]) {
      expect(kernel.value.length).toBe(plain.value.length);
      expect(worst(kernel.value, plain.value)).toBeLessThan(1e-6);
      expect(worst(kernel.grad, plain.grad)).toBeLessThan(1e-5);
      expect(kernel.tensorsLeft).toBe(0);
    }
    x.dispose();
    logits.dispose();
  });
});
