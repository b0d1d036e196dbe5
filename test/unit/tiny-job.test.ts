import { beforeAll, describe, expect, it } from 'vitest';
import * as tf from '../../src/models/tf';
import '@tensorflow/tfjs-backend-wasm';
import { runTinyJob, validateTinyJobConfig, TINY_JOB_DEFAULTS, type LossPoint } from '../../src/learn/tinyJob';

beforeAll(async () => {
  await tf.setBackend('wasm');
  await tf.ready();
});

describe('tiny job on the WASM backend', () => {
  it('learns: the loss at the last step is far below the first, and no tensor leaks', async () => {
    expect(tf.getBackend()).toBe('wasm');
    const before = tf.memory().numTensors;
    const points: LossPoint[] = [];
    const result = await runTinyJob({ ...TINY_JOB_DEFAULTS, steps: 150 }, (p) => void points.push(...p));
    console.log(`wasm tiny job: loss ${result.firstLoss.toFixed(4)} -> ${result.lastLoss.toFixed(4)} over ${result.steps} steps`);
    expect(points.map((p) => p.step)).toEqual(Array.from({ length: 150 }, (_, i) => i + 1));
    expect(result.lastLoss).toBeLessThan(result.firstLoss / 4);
    expect(tf.memory().numTensors).toBe(before);
  });

  it('is reproducible from its seed', async () => {
    const run = async (seed: number) => {
      const losses: number[] = [];
      await runTinyJob({ ...TINY_JOB_DEFAULTS, steps: 5, seed }, (p) => void losses.push(...p.map((x) => x.loss)));
      return losses;
    };
    expect(await run(3)).toEqual(await run(3));
    expect(await run(3)).not.toEqual(await run(4));
  });

  it('refuses bad configs naming the field and its range', () => {
    expect(() => validateTinyJobConfig({ ...TINY_JOB_DEFAULTS, steps: 0 })).toThrow(/steps must be an integer from 1 to 100000; got 0/);
    expect(() => validateTinyJobConfig({ ...TINY_JOB_DEFAULTS, lr: Number.NaN })).toThrow(/^lr must be a number/);
    expect(() => validateTinyJobConfig({ ...TINY_JOB_DEFAULTS, batch: 2.5 })).toThrow(/batch/);
    expect(() => validateTinyJobConfig(TINY_JOB_DEFAULTS)).not.toThrow();
  });
});
