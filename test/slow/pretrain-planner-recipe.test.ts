/**
 * `npm run pretrain` trains the base planner with trainPresetPlanner
 * (checkpointed, resumable) and leaves measuring to buildBasePlanner, which
 * has its own copy of the training call: the two must train the same weights
 * from a seed, byte for byte, or the command would ship other weights than
 * buildBasePlanner's tests measure. A one-step pretraining and a four-step
 * SFT of the tiny recipe (scale 0.002); slow only for buildBasePlanner's
 * held-out measurement after it (minutes on a 2-core machine).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import * as tf from '../../src/models/tf';
import '@tensorflow/tfjs-backend-wasm';
import { defaultTokenizer } from '../../src/text/vocab';
import { buildBasePlanner } from '../../src/pretrain/planner';
import { scaledPlannerRecipe, trainPresetPlanner } from '../../src/pretrain/plannerTraining';

beforeAll(async () => {
  await tf.setBackend('wasm');
  await tf.ready();
});

describe('base planner recipe', () => {
  it('trains what buildBasePlanner trains, to the byte', async () => {
    const tok = defaultTokenizer();
    const scale = 0.002;
    const recipe = scaledPlannerRecipe('tiny', 3, scale);
    expect(recipe.pretrainSteps).toBeGreaterThan(0);
    expect(recipe.sftSteps).toBeGreaterThan(0);
    const trained = await trainPresetPlanner({ preset: 'tiny', seed: 3, scale, backend: 'wasm', tok });
    const built = await buildBasePlanner({ preset: 'tiny', seed: 3, scale, tok });
    expect(trained.steps).toBe(built.steps);
    expect(trained.parameters).toBe(built.parameters);
    let differ = -1;
    for (let i = 0; i < Math.max(trained.bytes.length, built.bytes.length) && differ < 0; i++) if (trained.bytes[i] !== built.bytes[i]) differ = i;
    expect(differ).toBe(-1);
  }, 1_800_000);
});
