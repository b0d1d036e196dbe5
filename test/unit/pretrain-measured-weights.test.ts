/** `npm run pretrain -- --measure` loads weights only when they have the preset's exact shape. */
import { beforeAll, describe, expect, it } from 'vitest';
import * as tf from '../../src/models/tf';
import '@tensorflow/tfjs-backend-wasm';
import { exportCheckpoint } from '../../src/models/checkpoint';
import { initGrounder } from '../../src/models/grounder';
import { initPlanner } from '../../src/models/planner';
import { disposeParams } from '../../src/models/params';
import { grounderPreset, plannerPreset } from '../../src/models/presets';
import { Random } from '../../src/learn/random';
import { measuredWeights } from '../../src/pretrain/measuredWeights';

beforeAll(async () => {
  await tf.setBackend('wasm');
  await tf.ready();
});

describe('weights to measure', () => {
  it("loads a checkpoint of the preset's shape as it is, and refuses any other", async () => {
    const cfg = grounderPreset('tiny');
    const made = initGrounder(new Random(5), cfg);
    const bytes = await exportCheckpoint(made, cfg);
    const loaded = measuredWeights(bytes, cfg, 'grounder', 'tiny');
    const name = 'parse.spell.w';
    expect(Array.from(await loaded[name].data())).toEqual(Array.from(await made[name].data()));
    disposeParams(loaded);
    disposeParams(made);

    const before = tf.memory().numTensors;
    const planner = initPlanner(new Random(5), plannerPreset('tiny'));
    const plannerBytes = await exportCheckpoint(planner, plannerPreset('tiny'));
    disposeParams(planner);
    expect(() => measuredWeights(plannerBytes, cfg, 'grounder', 'tiny')).toThrow(/does not have the 'tiny' preset's shape/);
    expect(() => measuredWeights(bytes, grounderPreset('demo'), 'grounder', 'demo')).toThrow(/does not have the 'demo' preset's shape/);
    expect(tf.memory().numTensors).toBe(before); // refused weights are not left behind
    expect(() => measuredWeights(new Uint8Array([1, 2, 3]), cfg, 'grounder', 'tiny')).toThrow(/not a readable checkpoint/);
  });
});
