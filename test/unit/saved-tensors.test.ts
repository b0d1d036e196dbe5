/**
 * workers/savedTensors.ts: with saved tensors kept by reference, a planner
 * SFT loss has bit-identical gradients, runs no Identity kernel, and leaves
 * no tensor behind once the gradients are freed.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import * as tf from '../../src/models/tf';
import '@tensorflow/tfjs-backend-wasm';
import { Random } from '../../src/learn/random';
import { plannerSftLoss } from '../../src/learn/plannerSft';
import { plannerSftBatch, trainingPlannerStates } from '../../src/learn/plannerStates';
import { initPlanner } from '../../src/models/planner';
import { plannerPreset } from '../../src/models/presets';
import { disposeParams } from '../../src/models/params';
import { defaultTokenizer } from '../../src/text/vocab';
import { registerWasmKernels } from '../../workers/wasmKernels';
import { shareSavedTensors } from '../../workers/savedTensors';

beforeAll(async () => {
  await tf.setBackend('wasm');
  await tf.ready();
  registerWasmKernels();
});

describe('saved tensors kept by reference', () => {
  it('give the same gradients with no Identity kernel and no tensor left', async () => {
    const tok = defaultTokenizer();
    const cfg = plannerPreset('tiny');
    const params = initPlanner(new Random(4), cfg);
    const batch = plannerSftBatch(tok, cfg, trainingPlannerStates(new Random(5), 4));
    const vars = Object.values(params).filter((v) => v.trainable);
    const gradients = async () => {
      const before = tf.memory().numTensors;
      let values: Float32Array[] = [];
      const profile = await tf.profile(() => {
        const grads = tf.tidy(() => {
          const prompt = tf.tensor2d(batch.prompt, [batch.examples.length, batch.promptLength], 'int32');
          const completion = tf.tensor2d(batch.completion, [batch.examples.length, cfg.completionLength], 'int32');
          return tf.variableGrads(() => plannerSftLoss(params, cfg, prompt, completion), vars).grads;
        });
        values = Object.keys(grads).sort().map((name) => grads[name].dataSync() as Float32Array);
        tf.dispose(Object.values(grads));
      });
      return { values, identities: profile.kernels.filter((k) => k.name === 'Identity').length, left: tf.memory().numTensors - before };
    };
    const copied = await gradients();
    shareSavedTensors();
    const shared = await gradients();
    expect(copied.identities).toBeGreaterThan(50);
    expect(shared.identities).toBe(0);
    expect(shared.left).toBe(0);
    expect(copied.left).toBe(0);
    shared.values.forEach((g, i) => expect(Array.from(g)).toEqual(Array.from(copied.values[i])));
    expect(shared.values.length).toBeGreaterThan(10);
    expect(shared.values.some((g) => g.some((x) => x !== 0))).toBe(true);
    disposeParams(params);
  });
});
