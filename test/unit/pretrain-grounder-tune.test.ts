/**
 * Tuning a base grounder (`npm run pretrain -- --only grounder --tune DIR`):
 * the tuning plan skips the reading and easy stages (whole screens, then the
 * anneal) and moves the weights it starts from without replacing them; the
 * recipe refuses a start that is not a grounder of the preset's shape, and a
 * checkpoint of a tuning run from another start.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import * as tf from '../../src/models/tf';
import '@tensorflow/tfjs-backend-wasm';
import { exportCheckpoint } from '../../src/models/checkpoint';
import { initGrounder, type GrounderConfig } from '../../src/models/grounder';
import { initPlanner } from '../../src/models/planner';
import { disposeParams, type Params } from '../../src/models/params';
import { grounderPreset, plannerPreset } from '../../src/models/presets';
import { syntheticScreenImage } from '../../src/models/rasterize';
import { Random } from '../../src/learn/random';
import { defaultTokenizer } from '../../src/text/vocab';
import { pretrainGrounder } from '../../src/pretrain/grounder';
import { GROUNDER_TUNE, grounderRecipe } from '../../src/pretrain/recipes';
import type { RecipeCheckpoint } from '../../src/pretrain/recipeTypes';

beforeAll(async () => {
  await tf.setBackend('wasm');
  await tf.ready();
});

const tok = defaultTokenizer();

class Stop extends Error {}

function snapshot(p: Params): Map<string, Float32Array> {
  return new Map(Object.entries(p).map(([k, v]) => [k, v.dataSync().slice() as Float32Array]));
}

describe('tuning a base grounder', () => {
  it('runs whole screens then the anneal, and moves the start a little', async () => {
    const cfg: GrounderConfig = { ...grounderPreset('tiny', tok.size), glyphs: 32 };
    const params = initGrounder(new Random(4), cfg);
    const before = snapshot(params);
    try {
      const stages: string[] = [];
      const report = await pretrainGrounder(params, cfg, tok, { seed: 3, steps: 5, paint: syntheticScreenImage, batchSize: 4, perScreen: 2, screens: 20, plan: 'tune', lr: 1e-3 }, (p) => stages.push(p.stage));
      expect(stages).toEqual(['full', 'full', 'full', 'full', 'anneal']);
      expect(report.stages.map((s) => [s.stage, s.steps])).toEqual([['full', 4], ['anneal', 1]]);
      let moved = 0;
      for (const [k, v] of Object.entries(params)) {
        const b = before.get(k) as Float32Array;
        v.dataSync().forEach((x, i) => (moved = Math.max(moved, Math.abs(x - b[i]))));
      }
      // Five Adam steps at 1e-3 move no weight by more than about 5e-3.
      expect(moved).toBeGreaterThan(0);
      expect(moved).toBeLessThan(0.01);
    } finally {
      disposeParams(params);
    }
  }, 120_000);

  it('refuses a start of another shape, and a checkpoint of a tuning run from another start', async () => {
    const cfg = grounderPreset('tiny', tok.size);
    const fileOf = async (seed: number) => {
      const p = initGrounder(new Random(seed), cfg);
      try {
        return await exportCheckpoint(p, cfg);
      } finally {
        disposeParams(p);
      }
    };
    const pcfg = plannerPreset('tiny', tok.size);
    const planner = initPlanner(new Random(1), pcfg);
    const plannerFile = await exportCheckpoint(planner, pcfg);
    disposeParams(planner);
    const scale = 1 / GROUNDER_TUNE.tiny.steps;
    const base = { preset: 'tiny' as const, seed: 1, scale, backend: 'wasm', paint: syntheticScreenImage, onProgress: () => {} };
    await expect(grounderRecipe({ ...base, start: plannerFile })).rejects.toThrow(/base grounder to tune does not have the 'tiny' preset's shape/);

    const files: RecipeCheckpoint[] = [];
    const save = (c: RecipeCheckpoint) => {
      files.push(c);
      throw new Stop();
    };
    await expect(grounderRecipe({ ...base, start: await fileOf(5), checkpoints: { every: 1, save } })).rejects.toBeInstanceOf(Stop);
    expect(files.map((f) => [f.step, f.steps])).toEqual([[1, 1]]);
    await expect(grounderRecipe({ ...base, start: await fileOf(6), resume: files[0].bytes })).rejects.toThrow(/recipe/);
  }, 120_000);
});
