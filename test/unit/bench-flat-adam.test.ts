import { beforeAll, describe, expect, it } from 'vitest';
import * as tf from '../../src/models/tf';
import '@tensorflow/tfjs-backend-wasm';
import { FlatAdam } from '../../src/models/flatAdam';
import { Random } from '../../src/learn/random';
import { grounderPreset } from '../../src/models/presets';
import { initGrounder } from '../../src/models/grounder';
import { cloneParams, disposeParams, snapshot, type Params } from '../../src/models/params';
import { profileStep } from '../../src/bench/measure';
import { FLAT_ADAM_STEP } from '../../src/models/kernelNames';
import { registerWasmKernels } from '../../workers/wasmKernels';

beforeAll(async () => {
  await tf.setBackend('wasm');
});

/** A loss that touches every parameter differently, so every slice of the flat update matters. */
function lossOf(p: Params): tf.Scalar {
  return Object.values(p)
    .map((v, i) => tf.sum(tf.mul(tf.square(tf.sub(v, 0.01 * i)), 1 + (i % 3))))
    .reduce((a, b) => tf.add(a, b)) as tf.Scalar;
}

async function train(p: Params, opt: tf.Optimizer, steps: number): Promise<void> {
  for (let s = 0; s < steps; s++) {
    tf.tidy(() => {
      const { grads } = tf.variableGrads(() => lossOf(p), Object.values(p));
      opt.applyGradients(grads);
    });
  }
}

describe('FlatAdam', () => {
  it('gives exactly the weights tf.train.adam gives, step after step, on the grounder parameters', async () => {
    const a = initGrounder(new Random(3), grounderPreset('tiny'));
    const b = cloneParams(a, true);
    const ref = tf.train.adam(0.01);
    const flat = new FlatAdam(0.01);
    await train(a, ref, 3);
    await train(b, flat, 3);
    const [va, vb] = [await snapshot(a), await snapshot(b)];
    const names = Object.keys(a);
    for (let i = 0; i < names.length; i++) expect(vb[Object.keys(b)[i]]).toEqual(va[names[i]]);
    ref.dispose();
    flat.dispose();
    disposeParams(a);
    disposeParams(b);
  });

  it('runs a fraction of tf.train.adam’s kernels, leaks nothing and refuses a changed variable set', async () => {
    const p = initGrounder(new Random(4), grounderPreset('tiny'));
    const vars = Object.values(p).length;
    const count = async (opt: tf.Optimizer) => {
      await train(p, opt, 1); // creates the moments
      const grads = tf.tidy(() => tf.variableGrads(() => lossOf(p), Object.values(p)).grads);
      const before = tf.memory().numTensors;
      const prof = await profileStep(async () => opt.applyGradients(grads));
      expect(tf.memory().numTensors).toBe(before);
      tf.dispose(grads);
      return prof.kernels;
    };
    const ref = tf.train.adam(0.01);
    const flat = new FlatAdam(0.01);
    const [kRef, kFlat] = [await count(ref), await count(flat)];
    // tf.train.adam: about 13 kernels a variable; FlatAdam: a slice, a reshape and an add a variable, and a dozen in all.
    expect(kRef).toBeGreaterThan(12 * vars);
    expect(kFlat).toBeLessThan(kRef / 3);
    console.log(`optimizer kernels per step with ${vars} variables: tf.train.adam ${kRef}, FlatAdam ${kFlat}`);
    const first = Object.values(p)[0];
    expect(() => tf.tidy(() => flat.applyGradients({ [first.name]: tf.zerosLike(first) }))).toThrow(/same variables/);
    ref.dispose();
    flat.dispose();
    disposeParams(p);
  });

  // Last in the file: it registers the app's WASM kernels for the process.
  it('as one WASM kernel, gives the tensor path’s weights, moments and powers to the bit', async () => {
    const init = initGrounder(new Random(5), grounderPreset('tiny'));
    const a = cloneParams(init, true);
    const b = cloneParams(init, true);
    const plain = new FlatAdam(0.01);
    await train(a, plain, 4);
    registerWasmKernels();
    expect(tf.getKernel(FLAT_ADAM_STEP, 'wasm')).toBeDefined();
    const fused = new FlatAdam(0.01);
    await train(b, fused, 3);
    // The fourth step profiled: one kernel, nothing left behind.
    const grads = tf.tidy(() => tf.variableGrads(() => lossOf(b), Object.values(b)).grads);
    const before = tf.memory().numTensors;
    const prof = await profileStep(async () => fused.applyGradients(grads));
    expect(prof.calls.map((k) => k.name)).toEqual([FLAT_ADAM_STEP]);
    expect(tf.memory().numTensors).toBe(before);
    tf.dispose(grads);
    const [va, vb] = [await snapshot(a), await snapshot(b)];
    for (const name of Object.keys(init)) expect(Array.from(vb[name]), name).toEqual(Array.from(va[name]));
    const [sa, sb] = [await plain.saveState(), await fused.saveState()];
    // The variables' names differ between the two copies; everything else must not.
    expect({ ...sb, names: [] }).toEqual({ ...sa, names: [] });
    expect(Array.from(sa?.m ?? []).some((x) => x !== 0)).toBe(true);
    [plain, fused].forEach((o) => o.dispose());
    [init, a, b].forEach(disposeParams);
  });
});
