/**
 * The dense layer's WASM kernels (workers/wasmAffine.ts, models/affineOp.ts):
 * the layer's output and its gradients for x, w and b are the tensor path's
 * (reshape, product, bias add) bit for bit, for rank 2 and 3 inputs and for
 * data that is not trained through; they launch one kernel each way and
 * leave no tensor behind.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import * as tf from '../../src/models/tf';
import '@tensorflow/tfjs-backend-wasm';
import { registerWasmKernels } from '../../workers/wasmKernels';
import { dense, denseOnData } from '../../src/models/layers';
import { AFFINE, AFFINE_GRAD } from '../../src/models/kernelNames';
import { kernelEngine } from '../../src/bench/kernelTimes';
import { Random } from '../../src/learn/random';
import type { ParamMap } from '../../src/models/params';

beforeAll(async () => {
  tf.env().set('WASM_HAS_MULTITHREAD_SUPPORT', false);
  await tf.setBackend('wasm');
  await tf.ready();
});

const own = new Map<string, tf.KernelConfig>();
/** Runs f with the affine kernels registered (true) or not (the tensor path). */
async function withKernels<T>(on: boolean, f: () => T | Promise<T>): Promise<T> {
  registerWasmKernels();
  for (const n of [AFFINE, AFFINE_GRAD]) {
    const k = tf.getKernel(n, 'wasm');
    if (k) own.set(n, k);
    if (!on && k) tf.unregisterKernel(n, 'wasm');
  }
  try {
    return await f();
  } finally {
    for (const n of [AFFINE, AFFINE_GRAD]) if (!tf.getKernel(n, 'wasm')) tf.registerKernel(own.get(n) as tf.KernelConfig);
  }
}

const random = (shape: number[], seed: number) => {
  const r = new Random(seed);
  return tf.tensor(Array.from({ length: shape.reduce((a, b) => a * b, 1) }, () => r.next() * 2 - 1), shape);
};
const bits = (t: tf.Tensor) => Array.from(new Uint32Array(Float32Array.from(t.dataSync()).buffer));

describe('the dense layer as one WASM kernel each way', () => {
  const cases: [string, number[], boolean][] = [
    ['rank 2', [37, 24], true],
    ['rank 3', [3, 50, 24], true],
    ['rank 3, on data', [3, 50, 24], false],
  ];
  it.each(cases)('%s: the tensor path bit for bit, one kernel each way', async (_, shape, trainsInput) => {
    const w = tf.variable(random([24, 40], 2));
    const b = tf.variable(random([40], 3));
    const p = { 'l.w': w, 'l.b': b } as unknown as ParamMap;
    const x = random(shape, 1);
    const probe = random([...shape.slice(0, -1), 40], 4);
    const run = () => {
      const layer = trainsInput ? dense : denseOnData;
      const f = (xx: tf.Tensor, ww: tf.Tensor, bb: tf.Tensor) => tf.sum(tf.mul(layer({ 'l.w': ww, 'l.b': bb } as unknown as ParamMap, 'l', xx), probe)) as tf.Scalar;
      const y = layer(p, 'l', x);
      const grads = trainsInput ? tf.grads(f)([x, w, b]) : tf.grads((ww: tf.Tensor, bb: tf.Tensor) => f(x, ww, bb))([w, b]);
      const out = [bits(y), ...grads.map(bits)];
      tf.dispose([y, ...grads]);
      return out;
    };
    const want = await withKernels(false, run);
    const before = tf.memory().numTensors;
    const engine = kernelEngine();
    const original = engine.runKernel;
    const names: string[] = [];
    engine.runKernel = function (this: unknown, ...a: Parameters<typeof original>) {
      names.push(a[0]);
      return original.apply(this, a);
    } as typeof original;
    let got: number[][];
    try {
      got = await withKernels(true, run);
    } finally {
      engine.runKernel = original;
    }
    expect(tf.memory().numTensors).toBe(before);
    expect(got.length).toBe(want.length);
    got.forEach((g, i) => expect(g, `output ${i}`).toEqual(want[i]));
    expect(names.filter((n) => n === AFFINE)).toHaveLength(2); // the layer, and f's forward inside tf.grads
    expect(names.filter((n) => n === AFFINE_GRAD)).toHaveLength(1);
    expect(names).not.toContain('BatchMatMul');
    tf.dispose([w, b, x, probe]);
  });
});
