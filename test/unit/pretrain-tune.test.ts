/**
 * Tuning a base planner (`npm run pretrain -- --only planner --tune DIR`):
 * trainPresetPlanner starts from the given planner's weights (a planner from
 * before the copy gate gets a new gate), runs the tuning recipe's SFT steps,
 * and writes a planner of the preset's shape whose weights moved from the
 * start. Stopped after its first step and resumed, it writes the same bytes
 * as a run never stopped; a checkpoint of a run from another start is
 * refused, and so is a start that is not a planner of the preset's shape.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import * as tf from '../../src/models/tf';
import '@tensorflow/tfjs-backend-wasm';
import { configJson, exportCheckpoint, importCheckpoint } from '../../src/models/checkpoint';
import { initPlanner, type PlannerConfig } from '../../src/models/planner';
import { initGrounder } from '../../src/models/grounder';
import { disposeParams } from '../../src/models/params';
import { grounderPreset, plannerPreset } from '../../src/models/presets';
import { Random } from '../../src/learn/random';
import { defaultTokenizer } from '../../src/text/vocab';
import { scaledPlannerRecipe, trainPresetPlanner } from '../../src/pretrain/plannerTraining';
import { grownStart } from '../../src/pretrain/grownStart';

beforeAll(async () => {
  await tf.setBackend('wasm');
  await tf.ready();
});

const tok = defaultTokenizer();
const preset = plannerPreset('tiny', tok.size);
// Two SFT steps of the tuning recipe.
const scale = 2 / scaledPlannerRecipe('tiny', 1, 1, true).sftSteps;

async function plannerFile(seed: number, cfg: PlannerConfig): Promise<Uint8Array> {
  const p = initPlanner(new Random(seed), cfg);
  try {
    return await exportCheckpoint(p, cfg);
  } finally {
    disposeParams(p);
  }
}

describe('tuning a base planner', () => {
  it('starts from the given weights, adds the copy gate, and resumes to the same bytes', async () => {
    const { copyGate: _gate, ...gateless } = preset;
    const start = await plannerFile(8, gateless);
    const recipe = scaledPlannerRecipe('tiny', 1, scale, true);
    expect(recipe.pretrainSteps).toBe(0);
    expect(recipe.sftSteps).toBe(2);
    const whole = await trainPresetPlanner({ preset: 'tiny', seed: 1, scale, backend: 'wasm', tok, start });
    expect(whole.steps).toBe(2);
    const tuned = importCheckpoint(whole.bytes);
    const before = importCheckpoint(start);
    try {
      expect(configJson(tuned.config)).toBe(configJson(preset));
      expect(Object.keys(tuned.params).sort()).toEqual([...Object.keys(before.params), 'copy.b', 'copy.w'].sort());
      // Moved from the start, but by a tuning's few steps, not replaced.
      const a = Array.from(tuned.params['blocks.0.attn.q.w'].dataSync());
      const b = before.params['blocks.0.attn.q.w'].dataSync();
      const moved = a.reduce((m, v, i) => Math.max(m, Math.abs(v - b[i])), 0);
      expect(moved).toBeGreaterThan(0);
      expect(moved).toBeLessThan(0.05);
    } finally {
      disposeParams(tuned.params);
      disposeParams(before.params);
    }

    const files: Uint8Array[] = [];
    await trainPresetPlanner({ preset: 'tiny', seed: 1, scale, backend: 'wasm', tok, start, checkpoints: { every: 1, save: (c) => files.push(c.bytes) } });
    expect(files).toHaveLength(2);
    const resumed = await trainPresetPlanner({ preset: 'tiny', seed: 1, scale, backend: 'wasm', tok, start, resume: files[0] });
    expect(Buffer.compare(Buffer.from(resumed.bytes), Buffer.from(whole.bytes))).toBe(0);

    const other = await plannerFile(9, gateless);
    await expect(trainPresetPlanner({ preset: 'tiny', seed: 1, scale, backend: 'wasm', tok, start: other, resume: files[0] })).rejects.toThrow(/recipe/);
  }, 120_000);

  it('with trainAdded, a start grown from tiny moves only the block growth added', async () => {
    const demo = plannerPreset('demo', tok.size);
    const start = await plannerFile(3, preset);
    const oneStep = 1 / scaledPlannerRecipe('demo', 1, 1, true).sftSteps;
    const made = await trainPresetPlanner({ preset: 'demo', seed: 1, scale: oneStep, backend: 'wasm', tok, start, trainAdded: true });
    const tuned = importCheckpoint(made.bytes).params;
    const grown = grownStart(start, demo, 1)!;
    try {
      const changed = Object.keys(grown).filter((k) => {
        const [a, b] = [tuned[k].dataSync(), grown[k].dataSync()];
        return a.some((v, i) => v !== b[i]);
      });
      expect(changed.length).toBeGreaterThan(0);
      expect(changed.every((k) => k.startsWith('blocks.2.'))).toBe(true);
      // The added block's output projection starts at zero, so it is what moves first.
      expect(changed).toContain('blocks.2.mlp.proj.w');
    } finally {
      disposeParams(tuned);
      disposeParams(grown);
    }
    await expect(trainPresetPlanner({ preset: 'tiny', seed: 1, scale, backend: 'wasm', tok, start, trainAdded: true })).rejects.toThrow(/needs a smaller preset's base planner/);
  }, 120_000);

  it('refuses a start that is not a planner of the preset', async () => {
    const g = initGrounder(new Random(1), grounderPreset('tiny', tok.size));
    const grounder = await exportCheckpoint(g, grounderPreset('tiny', tok.size));
    disposeParams(g);
    await expect(trainPresetPlanner({ preset: 'tiny', seed: 1, scale, backend: 'wasm', tok, start: grounder })).rejects.toThrow(/base planner to tune does not have the 'tiny' preset's shape/);
    const wide = await plannerFile(1, { ...preset, dim: 64 });
    await expect(trainPresetPlanner({ preset: 'tiny', seed: 1, scale, backend: 'wasm', tok, start: wide })).rejects.toThrow(/preset's shape/);
  });
});
