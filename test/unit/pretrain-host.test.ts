import { describe, expect, it } from 'vitest';
import { createPretrainHost } from '../../workers/pretrainHost';
import type { BaseRecipe } from '../../src/pretrain/recipeTypes';
import type { BaseModelName } from '../../src/pretrain/baseTypes';
import { crc32 } from '../../src/bytes/crc32';

const settle = () => new Promise((r) => setTimeout(r, 0));

function recipe(model: BaseModelName, steps: number, gate?: Promise<void>): BaseRecipe {
  return async ({ onProgress, seed }) => {
    for (let s = 1; s <= steps; s++) onProgress({ stage: `${model} stage`, step: s, steps, loss: 1 / s });
    await gate;
    return { bytes: new Uint8Array([seed, steps, 250]), parameters: 10 * steps, steps, figures: [{ model, name: 'accuracy', value: 0.5, chance: 0.1, n: 4 }] };
  };
}

describe('pretrain host', () => {
  it('runs the asked recipes in order and hands back base64 files and a manifest', async () => {
    let t = 0;
    const host = createPretrainHost({ paint: async () => () => new Float32Array(0), backend: () => 'wasm', recipes: { grounder: recipe('grounder', 3), planner: recipe('planner', 2) }, now: () => (t += 10) });
    await host.start({ preset: 'tiny', seed: 4, models: ['planner', 'grounder'], scale: 1 });
    for (let i = 0; i < 10 && host.status().state === 'running'; i++) await settle();
    expect(host.status().state).toBe('done');
    const { manifest, files } = host.result();
    expect(files.map((f) => f.name)).toEqual(['tiny-planner.safetensors', 'tiny-grounder.safetensors']);
    expect(Array.from(atob(files[1].base64), (c) => c.charCodeAt(0))).toEqual([4, 3, 250]);
    expect(manifest.models.map((m) => [m.model, m.bytes, m.parameters, m.steps])).toEqual([
      ['planner', 3, 20, 2],
      ['grounder', 3, 30, 3],
    ]);
    expect(manifest).toMatchObject({ preset: 'tiny', seed: 4, backend: 'wasm', scale: 1 });
    expect(manifest.figures.map((f) => f.model)).toEqual(['planner', 'grounder']);
  });

  it('writes nothing when the GPU reported an error while a model trained', async () => {
    let fault: string | null = null;
    const failing: BaseRecipe = async (o) => {
      const r = await recipe('grounder', 2)(o);
      fault = 'The number of storage buffers (38) in the Compute stage exceeds the maximum per-stage limit (8).';
      return r;
    };
    const host = createPretrainHost({ paint: async () => () => new Float32Array(0), backend: () => 'webgpu', recipes: { grounder: failing, planner: recipe('planner', 1) }, deviceFault: () => fault });
    await host.start({ preset: 'tiny', seed: 1, models: ['planner', 'grounder'], scale: 1 });
    for (let i = 0; i < 10 && host.status().state === 'running'; i++) await settle();
    expect(host.status().state).toBe('failed');
    expect(host.status().error).toMatch(/GPU reported an error while the base grounder trained.*nothing was written: The number of storage buffers/);
    expect(() => host.result()).toThrow(/No pretraining job has finished/);
  });

  it('refuses a second job while one runs, and bad options before anything starts', async () => {
    let open!: () => void;
    const gate = new Promise<void>((r) => (open = r));
    const host = createPretrainHost({ paint: async () => () => new Float32Array(0), backend: () => 'wasm', recipes: { grounder: recipe('grounder', 2, gate), planner: recipe('planner', 1) } });
    await expect(host.start({ preset: 'full' as 'tiny', seed: 1, models: ['grounder'], scale: 1 })).rejects.toThrow(/preset must be tiny or demo/);
    await expect(host.start({ preset: 'tiny', seed: 1, models: [], scale: 1 })).rejects.toThrow(/models must list/);
    await host.start({ preset: 'tiny', seed: 1, models: ['grounder'], scale: 1 });
    await settle();
    expect(host.status()).toMatchObject({ state: 'running', model: 'grounder', step: 2, steps: 2 });
    expect(() => host.result()).toThrow(/still running/);
    await expect(host.start({ preset: 'tiny', seed: 1, models: ['planner'], scale: 1 })).rejects.toThrow(/already running/);
    open();
    for (let i = 0; i < 10 && host.status().state === 'running'; i++) await settle();
    expect(host.status().state).toBe('done');
  });

  it("estimates the ETA from the current stage's own pace, also in a later stage", async () => {
    let t = 0;
    const etas: (number | null)[] = [];
    const host = createPretrainHost({
      paint: async () => () => new Float32Array(0),
      backend: () => 'wasm',
      now: () => t,
      recipes: {
        planner: recipe('planner', 1),
        // 100 steps: 50 of a fast stage (1 ms each), then a slow one (10 ms each).
        grounder: async ({ onProgress }) => {
          for (let s = 1; s <= 100; s++) {
            t += s <= 50 ? 1 : 10;
            onProgress({ stage: s <= 50 ? 'read' : 'full', step: s, steps: 100, loss: 1 });
            etas.push(host.status().etaMs);
          }
          return { bytes: new Uint8Array([1]), parameters: 1, steps: 100, figures: [] };
        },
      },
    });
    await host.start({ preset: 'tiny', seed: 1, models: ['grounder'], scale: 1 });
    for (let i = 0; i < 10 && host.status().state === 'running'; i++) await settle();
    // Step 60: ten slow steps in, 40 to go at 10 ms each.
    expect(etas[59]).toBe(400);
    expect(etas[50]).toBeNull(); // first step of a stage: no pace yet
  });

  it('hands weights to measure to their recipe, and refuses weights of a model not asked for', async () => {
    const given: (number[] | undefined)[] = [];
    const measuring: BaseRecipe = async (o) => {
      given.push(o.from && Array.from(o.from));
      return recipe('grounder', 0)(o);
    };
    const host = createPretrainHost({ paint: async () => () => new Float32Array(0), backend: () => 'wasm', recipes: { grounder: measuring, planner: recipe('planner', 1) } });
    const weights = btoa(String.fromCharCode(7, 8, 9));
    await expect(host.start({ preset: 'tiny', seed: 1, models: ['planner'], scale: 1, measure: { grounder: weights } })).rejects.toThrow(/measure may only hold weights of the listed models/);
    await host.start({ preset: 'tiny', seed: 1, models: ['grounder'], scale: 1, measure: { grounder: weights } });
    for (let i = 0; i < 10 && host.status().state === 'running'; i++) await settle();
    expect(host.status().state).toBe('done');
    await host.start({ preset: 'tiny', seed: 1, models: ['grounder'], scale: 1 });
    for (let i = 0; i < 10 && host.status().state === 'running'; i++) await settle();
    expect(given).toEqual([[7, 8, 9], undefined]);
  });

  it('hands a model to tune to its own recipe only, records it in the manifest, and refuses one the job does not train', async () => {
    const given: [string, number[] | undefined][] = [];
    const tuning = (model: 'grounder' | 'planner'): BaseRecipe => async (o) => {
      given.push([model, o.start && Array.from(o.start)]);
      return recipe(model, 1)(o);
    };
    const host = createPretrainHost({ paint: async () => () => new Float32Array(0), backend: () => 'wasm', recipes: { grounder: tuning('grounder'), planner: tuning('planner') } });
    const start = new Uint8Array([7, 8, 9]);
    const weights = btoa(String.fromCharCode(...start));
    await expect(host.start({ preset: 'tiny', seed: 1, models: ['grounder'], scale: 1, tune: { planner: weights } })).rejects.toThrow(/tune may only hold weights of the listed models/);
    await expect(host.start({ preset: 'tiny', seed: 1, models: ['planner'], scale: 1, tune: { planner: weights }, measure: { planner: weights } })).rejects.toThrow(/measured .* or tuned/);
    await host.start({ preset: 'tiny', seed: 1, models: ['planner'], scale: 1, tune: { planner: weights } });
    for (let i = 0; i < 10 && host.status().state === 'running'; i++) await settle();
    expect(host.status().state).toBe('done');
    expect(given).toEqual([['planner', [7, 8, 9]]]);
    expect(host.result()?.manifest.models[0].tunedFrom).toEqual({ bytes: 3, crc32: crc32(start) });
    await host.start({ preset: 'tiny', seed: 1, models: ['grounder', 'planner'], scale: 1, tune: { grounder: weights } });
    for (let i = 0; i < 10 && host.status().state === 'running'; i++) await settle();
    expect(given.slice(1)).toEqual([['grounder', [7, 8, 9]], ['planner', undefined]]);
    expect(host.result()?.manifest.models.map((m) => m.tunedFrom)).toEqual([{ bytes: 3, crc32: crc32(start) }, undefined]);
  });

  it('reports a failing recipe with its message', async () => {
    const host = createPretrainHost({
      paint: async () => () => new Float32Array(0),
      backend: () => 'wasm',
      recipes: { grounder: async () => Promise.reject(new Error('out of memory in stage 2')), planner: recipe('planner', 1) },
    });
    await host.start({ preset: 'tiny', seed: 1, models: ['grounder'], scale: 1 });
    for (let i = 0; i < 10 && host.status().state === 'running'; i++) await settle();
    expect(host.status()).toMatchObject({ state: 'failed', error: 'out of memory in stage 2' });
  });

  it('keeps the latest checkpoint of each model for the command, and hands a resume file to its recipe', async () => {
    const resumed: (number[] | undefined)[] = [];
    const checkpointing: BaseRecipe = async ({ checkpoints, resume, backend, onProgress }) => {
      resumed.push(resume && Array.from(resume));
      expect(backend).toBe('wasm');
      for (let s = 1; s <= 5; s++) {
        onProgress({ stage: 'read', step: s, steps: 5, loss: 1 });
        if (checkpoints && (s % checkpoints.every === 0 || s === 5)) checkpoints.save({ stage: 'read', step: s, steps: 5, bytes: new Uint8Array([s]) });
      }
      return { bytes: new Uint8Array([9]), parameters: 1, steps: 5, figures: [] };
    };
    const host = createPretrainHost({ paint: async () => () => new Float32Array(0), backend: () => 'wasm', recipes: { grounder: checkpointing, planner: recipe('planner', 1) } });
    await host.start({ preset: 'tiny', seed: 1, models: ['grounder', 'planner'], scale: 1, checkpointEvery: { grounder: 2 }, resume: { grounder: btoa(String.fromCharCode(4, 2)) } });
    for (let i = 0; i < 10 && host.status().state === 'running'; i++) await settle();
    expect(host.status()).toMatchObject({ state: 'done', checkpoints: 3 });
    // Steps 2, 4 and 5 were handed out; only the newest is kept, and the planner (no interval) made none.
    expect(host.checkpoints()).toEqual([{ model: 'grounder', name: 'tiny-grounder.resume.safetensors', stage: 'read', step: 5, steps: 5, seq: 3, base64: btoa(String.fromCharCode(5)) }]);
    expect(resumed).toEqual([[4, 2]]);
    await expect(host.start({ preset: 'tiny', seed: 1, models: ['planner'], scale: 1, resume: { grounder: 'AA==' } })).rejects.toThrow(/resume may only hold checkpoints of the listed models/);
    await expect(host.start({ preset: 'tiny', seed: 1, models: ['grounder'], scale: 1, checkpointEvery: { grounder: 2.5 } })).rejects.toThrow(/checkpointEvery.grounder must be an integer/);
    await expect(host.start({ preset: 'tiny', seed: 1, models: ['grounder'], scale: 1, resume: { grounder: 'AA==' }, measure: { grounder: 'AA==' } })).rejects.toThrow(/either measured .* or resumed/);
  });
});
