import { describe, expect, it } from 'vitest';
import { parsePretrainArgs } from '../../scripts/lib/pretrain-args';
import { figureTable } from '../../scripts/lib/pretrain-run';
import { shippedBaseLoader } from '../../workers/baseModels';
import { mergeManifests, remeasuredManifest, type BaseManifest } from '../../src/pretrain/baseTypes';

describe('npm run pretrain arguments', () => {
  it('defaults to both tiny models on wasm into public/base', () => {
    const p = parsePretrainArgs([]);
    expect(p).toEqual({ help: false, args: { preset: 'tiny', seed: 1, out: 'public/base', backend: 'wasm', backendExplicit: false, models: ['grounder', 'planner'], scale: 1, measure: null } });
  });

  it('takes --flag value and --flag=value', () => {
    const p = parsePretrainArgs(['--preset=demo', '--seed', '7', '--only', 'planner', '--scale', '0.05', '--backend', 'webgpu']);
    expect(p.help).toBe(false);
    if (!p.help) expect(p.args).toMatchObject({ preset: 'demo', seed: 7, models: ['planner'], scale: 0.05, backend: 'webgpu', backendExplicit: true });
    const m = parsePretrainArgs(['--only', 'grounder', '--measure', 'public/base']);
    if (!m.help) expect(m.args).toMatchObject({ models: ['grounder'], measure: 'public/base', out: 'public/base' });
  });

  it.each([
    [['--preset', 'full'], /--preset must be tiny or demo/],
    [['--seed', '-1'], /--seed must be an integer/],
    [['--scale', '0'], /--scale must be a number/],
    [['--only', 'both'], /--only must be grounder or planner/],
    [['--seed', '1', '--seed', '2'], /given twice/],
    [['--bogus', '1'], /unknown option --bogus/],
    [['--out'], /needs a value/],
    [['--measure'], /needs a value/],
  ])('refuses %j', (argv, message) => {
    expect(() => parsePretrainArgs(argv)).toThrow(message);
  });

  it('prints figures as percentages with their chance level', () => {
    const table = figureTable({
      preset: 'tiny',
      seed: 1,
      backend: 'wasm',
      scale: 1,
      createdAt: '2026-11-30T00:00:00Z',
      models: [],
      figures: [
        { model: 'grounder', name: 'grounding accuracy, text style', value: 0.5123, chance: 0.1, n: 200 },
        { model: 'planner', name: 'parse rate', value: 0.97 },
      ],
    });
    expect(table.split('\n')).toHaveLength(4);
    expect(table).toContain('51.2%');
    expect(table).toContain('10.0%');
    expect(table).toContain('97.0%');
  });
});

describe('merging manifests', () => {
  const entry = (model: 'grounder' | 'planner', steps: number) => ({ model, file: `tiny-${model}.safetensors`, bytes: 10, parameters: 5, steps, wallSeconds: 1 });
  const planner: BaseManifest = {
    preset: 'tiny', seed: 1, backend: 'wasm', scale: 1, createdAt: 'earlier',
    models: [entry('planner', 400)], figures: [{ model: 'planner', name: 'parse rate', value: 0.98 }],
  };
  const grounder: BaseManifest = {
    preset: 'tiny', seed: 1, backend: 'wasm', scale: 1, createdAt: 'later',
    models: [entry('grounder', 3000)], figures: [{ model: 'grounder', name: 'text', value: 0.5, chance: 0.1 }],
  };

  it('keeps the models a run did not train, with the run that made them', () => {
    const m = mergeManifests(planner, grounder);
    expect(m.createdAt).toBe('later');
    expect(m.models.map((x) => [x.model, x.steps, x.createdAt])).toEqual([['grounder', 3000, undefined], ['planner', 400, 'earlier']]);
    expect(m.figures.map((f) => f.model)).toEqual(['grounder', 'planner']);
  });

  it('replaces what the run trained again, and ignores another preset', () => {
    const again = { ...planner, createdAt: 'now', models: [entry('planner', 40)], figures: [{ model: 'planner' as const, name: 'parse rate', value: 0.5 }] };
    expect(mergeManifests(planner, again)).toEqual(again);
    expect(mergeManifests({ ...planner, preset: 'demo' }, grounder)).toEqual(grounder);
    expect(mergeManifests(null, grounder)).toEqual(grounder);
  });

  it('after --measure, keeps which run trained the weights and takes the new figures', () => {
    const both: BaseManifest = { ...planner, models: [entry('grounder', 3000), entry('planner', 400)], figures: [...grounder.figures, ...planner.figures] };
    const measured: BaseManifest = {
      preset: 'tiny', seed: 1, backend: 'webgpu', scale: 1, createdAt: 'now',
      models: [{ ...entry('grounder', 0), wallSeconds: 90 }], figures: [{ model: 'grounder', name: 'text', value: 0.7, chance: 0.1 }],
    };
    const m = remeasuredManifest(both, measured);
    expect(m.createdAt).toBe('earlier');
    expect(m.models[0]).toEqual({ ...entry('grounder', 3000), seed: 1, backend: 'wasm', scale: 1, createdAt: 'earlier', measuredAt: 'now', measuredOn: 'webgpu' });
    expect(m.models[1]).toEqual(entry('planner', 400));
    expect(m.figures.map((f) => [f.model, f.value])).toEqual([['grounder', 0.7], ['planner', 0.98]]);
    // Other weights than the manifest describes (another size): the entry is the measurement's own.
    const other = { ...measured, models: [{ ...entry('grounder', 0), bytes: 11 }] };
    expect(remeasuredManifest(both, other).models[0]).toEqual({ ...entry('grounder', 0), bytes: 11 });
    expect(remeasuredManifest(null, measured)).toEqual(measured);
  });
});

describe('shipped base loader', () => {
  it('reads base/<preset>-<model>.safetensors under the app root', async () => {
    const asked: string[] = [];
    const load = shippedBaseLoader(async (url) => {
      asked.push(url);
      return { ok: true, status: 200, arrayBuffer: async () => new Uint8Array([1, 2, 3]).buffer };
    }, '/app/');
    expect(Array.from(await load('grounder', 'tiny'))).toEqual([1, 2, 3]);
    expect(asked).toEqual(['/app/base/tiny-grounder.safetensors']);
  });

  it('says how to make a missing base model, or how to run without one', async () => {
    const load = shippedBaseLoader(async () => ({ ok: false, status: 404, arrayBuffer: async () => new ArrayBuffer(0) }), '/');
    await expect(load('planner', 'demo')).rejects.toThrow(/No base planner ships for preset 'demo'.*npm run pretrain -- --preset demo.*start=scratch/);
  });
});
