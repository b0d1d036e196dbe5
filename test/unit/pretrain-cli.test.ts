import { afterEach, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parsePretrainArgs, type PretrainArgs } from '../../scripts/lib/pretrain-args';
import { checkpointIntervals, checkpointsReplaced, checkpointsToResume, keepCheckpoint, removeCheckpoints } from '../../scripts/lib/pretrain-resume';
import { RESUME_FILE_FORMAT, RESUME_FORMAT, type ResumeHeader } from '../../src/pretrain/resumeKey';
import { figureTable } from '../../scripts/lib/pretrain-run';
import { shippedBaseLoader } from '../../workers/baseModels';
import { mergeManifests, remeasuredManifest, soupManifest, tunedManifest, type BaseManifest } from '../../src/pretrain/baseTypes';

describe('npm run pretrain arguments', () => {
  it('defaults to both tiny models on wasm into public/base', () => {
    const p = parsePretrainArgs([]);
    expect(p).toEqual({
      help: false,
      args: { preset: 'tiny', seed: 1, out: 'public/base', backend: 'wasm', backendExplicit: false, models: ['grounder', 'planner'], scale: 1, measure: null, tune: null, growFrom: null, trainAdded: false, soup: null, resume: null, checkpointEvery: null, realShare: 0, tuneStyles: null },
    });
  });

  it('takes --flag value and --flag=value', () => {
    const p = parsePretrainArgs(['--preset=demo', '--seed', '7', '--only', 'planner', '--scale', '0.05', '--backend', 'webgpu']);
    expect(p.help).toBe(false);
    if (!p.help) expect(p.args).toMatchObject({ preset: 'demo', seed: 7, models: ['planner'], scale: 0.05, backend: 'webgpu', backendExplicit: true });
    const m = parsePretrainArgs(['--only', 'grounder', '--measure', 'public/base']);
    if (!m.help) expect(m.args).toMatchObject({ models: ['grounder'], measure: 'public/base', out: 'public/base' });
    const r = parsePretrainArgs(['--only', 'planner', '--resume', '/tmp/run', '--checkpoint-every', '10']);
    if (!r.help) expect(r.args).toMatchObject({ models: ['planner'], resume: '/tmp/run', out: '/tmp/run', checkpointEvery: 10 });
    const t = parsePretrainArgs(['--only', 'planner', '--tune', 'public/base', '--out', '/tmp/tuned']);
    if (!t.help) expect(t.args).toMatchObject({ models: ['planner'], tune: 'public/base', out: '/tmp/tuned' });
    const grow = parsePretrainArgs(['--preset', 'demo', '--only', 'planner', '--tune', 'public/base', '--grow-from', 'tiny']);
    if (!grow.help) expect(grow.args).toMatchObject({ preset: 'demo', models: ['planner'], tune: 'public/base', growFrom: 'tiny' });
    const growGrounder = parsePretrainArgs(['--preset', 'demo', '--only', 'grounder', '--tune', 'public/base', '--grow-from', 'tiny', '--real-share', '0.15']);
    if (!growGrounder.help) expect(growGrounder.args).toMatchObject({ preset: 'demo', models: ['grounder'], tune: 'public/base', growFrom: 'tiny', realShare: 0.15, trainAdded: false });
    const added = parsePretrainArgs(['--preset', 'demo', '--only', 'grounder', '--tune', 'public/base', '--grow-from', 'tiny', '--train', 'added']);
    if (!added.help) expect(added.args).toMatchObject({ growFrom: 'tiny', trainAdded: true });
    if (!t.help) expect(t.args.growFrom).toBeNull();
    const g = parsePretrainArgs(['--only', 'grounder', '--tune', 'public/base', '--real-share', '0.5', '--out', '/tmp/tuned']);
    if (!g.help) expect(g.args).toMatchObject({ models: ['grounder'], tune: 'public/base', realShare: 0.5 });
    const s = parsePretrainArgs(['--only', 'planner', '--soup', '/tmp/a, /tmp/b,/tmp/c', '--out', '/tmp/soup']);
    if (!s.help) expect(s.args).toMatchObject({ models: ['planner'], soup: ['/tmp/a', '/tmp/b', '/tmp/c'], out: '/tmp/soup' });
    const o = parsePretrainArgs(['--resume', '/tmp/run', '--out', '/tmp/other', '--checkpoint-every=0']);
    if (!o.help) expect(o.args).toMatchObject({ resume: '/tmp/run', out: '/tmp/other', checkpointEvery: 0 });
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
    [['--checkpoint-every', '-5'], /--checkpoint-every must be an integer ≥ 0/],
    [['--resume', 'a', '--measure', 'b'], /nothing to --resume/],
    [['--tune', 'public/base'], /give --only planner or --only grounder/],
    [['--preset', 'demo', '--only', 'planner', '--tune', 'a', '--grow-from', 'demo'], /--grow-from must be tiny/],
    [['--only', 'planner', '--tune', 'a', '--grow-from', 'tiny'], /give --preset demo/],
    [['--preset', 'demo', '--tune', 'a', '--grow-from', 'tiny'], /--tune continues one base model/],
    [['--preset', 'demo', '--only', 'planner', '--grow-from', 'tiny'], /give --only planner or --only grounder and --tune DIR/],
    [['--preset', 'demo', '--only', 'planner', '--tune', 'a', '--grow-from', 'tiny', '--train', 'some'], /--train must be all or added/],
    [['--preset', 'demo', '--only', 'planner', '--tune', 'a', '--train', 'added'], /--train added trains the blocks growth adds; give --grow-from tiny/],
    [['--only', 'planner', '--tune', 'a', '--measure', 'b'], /nothing to --tune/],
    [['--soup', 'a,b'], /--soup averages one base model; give --only/],
    [['--only', 'planner', '--soup', 'a'], /two or more folders/],
    [['--only', 'planner', '--soup', 'a,,b'], /two or more folders/],
    [['--only', 'planner', '--soup', 'a,b', '--tune', 'c'], /does not go with --tune/],
    [['--only', 'planner', '--soup', 'a,b', '--resume', 'c'], /does not go with --resume/],
    [['--only', 'grounder', '--soup', 'a,b', '--real-share', '0.3'], /--soup trains nothing/],
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

  it('after --tune, the tuned planner names the entry of the planner it started from', () => {
    const tuned: BaseManifest = { ...planner, createdAt: 'now', models: [{ ...entry('planner', 600), tunedFrom: { bytes: entry('planner', 400).bytes, crc32: 7 } }] };
    const m = tunedManifest(tuned, planner);
    expect(m.models[0].tunedFrom).toEqual({ bytes: entry('planner', 400).bytes, crc32: 7, entry: { ...entry('planner', 400), seed: 1, backend: 'wasm', scale: 1, createdAt: 'earlier' } });
    expect(m.figures).toEqual(tuned.figures);
    // A manifest that describes other weights (another byte count) adds nothing.
    const other = { ...tuned, models: [{ ...entry('planner', 600), tunedFrom: { bytes: 3, crc32: 7 } }] };
    expect(tunedManifest(other, planner)).toEqual(other);
    expect(tunedManifest(tuned, null)).toEqual(tuned);
    // A tuned grounder names the grounder beside it, not the planner.
    const beside: BaseManifest = { ...planner, models: [entry('planner', 400), entry('grounder', 3000)] };
    const grounder: BaseManifest = { ...planner, createdAt: 'now', models: [{ ...entry('grounder', 600), tunedFrom: { bytes: entry('grounder', 3000).bytes, crc32: 9 } }] };
    expect(tunedManifest(grounder, beside).models[0].tunedFrom?.entry).toMatchObject({ model: 'grounder', steps: 3000 });
  });

  it('after --soup, the mean names every model it averages, with its entry where the manifest beside it describes it', () => {
    const made: BaseManifest = { ...planner, createdAt: 'now', models: [{ ...entry('planner', 0), wallSeconds: 60 }] };
    const size = entry('planner', 400).bytes;
    const m = soupManifest(made, [
      { bytes: size, crc32: 1, beside: planner },
      { bytes: size, crc32: 2, beside: null },
      { bytes: size + 4, crc32: 3, beside: planner },
    ]);
    expect(m.models[0].soupOf).toEqual([
      { bytes: size, crc32: 1, entry: { ...entry('planner', 400), seed: 1, backend: 'wasm', scale: 1, createdAt: 'earlier' } },
      { bytes: size, crc32: 2 },
      { bytes: size + 4, crc32: 3 },
    ]);
    expect(m.figures).toEqual(made.figures);
    expect(m.models[0].steps).toBe(0);
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

describe('pretraining checkpoints on disk', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });
  const tempDir = () => {
    const d = mkdtempSync(join(tmpdir(), 'coevo-resume-'));
    dirs.push(d);
    return d;
  };
  const args = (over: Partial<PretrainArgs>): PretrainArgs => ({ preset: 'tiny', seed: 1, out: 'out', backend: 'wasm', backendExplicit: false, models: ['grounder', 'planner'], scale: 0.02, measure: null, tune: null, growFrom: null, trainAdded: false, soup: null, resume: null, checkpointEvery: null, realShare: 0, tuneStyles: null, ...over });
  /** A resume file's header, as the app writes it (a safetensors file with no tensors). */
  const resumeFile = (h: ResumeHeader): Buffer => {
    const json = Buffer.from(JSON.stringify({ __metadata__: { format: RESUME_FILE_FORMAT, header: JSON.stringify(h) } }));
    const len = Buffer.alloc(8);
    len.writeUInt32LE(json.length, 0);
    return Buffer.concat([len, json]);
  };
  const header = (model: 'grounder' | 'planner', seed = 1): ResumeHeader => ({ key: { format: RESUME_FORMAT, preset: 'tiny', model, seed, scale: 0.02, backend: 'wasm', recipe: '{}' }, stage: 'sft', step: 12, steps: 36 });

  it('checkpoints every 25 grounder and 50 planner steps unless told, and never when measuring', () => {
    expect(checkpointIntervals(args({}))).toEqual({ grounder: 25, planner: 50 });
    expect(checkpointIntervals(args({ checkpointEvery: 7, models: ['planner'] }))).toEqual({ planner: 7 });
    expect(checkpointIntervals(args({ measure: 'public/base' }))).toEqual({});
    expect(checkpointIntervals(args({ soup: ['a', 'b'], models: ['planner'] }))).toEqual({});
  });

  it('resumes the models that have a checkpoint, and says where each continues', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'tiny-planner.resume.safetensors'), resumeFile(header('planner')));
    const r = checkpointsToResume(args({ resume: dir }));
    expect(Object.keys(r?.files ?? {})).toEqual(['planner']);
    expect(Buffer.from(r?.files.planner ?? '', 'base64')).toEqual(resumeFile(header('planner')));
    expect(r?.notes.join('\n')).toMatch(/no grounder checkpoint .* starts afresh\.\n.*planner continues from sft step 12 of 36/);
    expect(checkpointsToResume(args({}))).toBeNull();
    // A fresh run into that folder says it replaces the checkpoint.
    expect(checkpointsReplaced(args({ out: dir }), dir)).toEqual([join(dir, 'tiny-planner.resume.safetensors')]);
  });

  it('refuses another run\u2019s checkpoint, a file that is none, and a folder with none', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'tiny-planner.resume.safetensors'), resumeFile(header('planner', 2)));
    expect(() => checkpointsToResume(args({ resume: dir, models: ['planner'] }))).toThrow(/checkpoint of another run \(seed: the checkpoint has 2, this run 1\)/);
    expect(() => checkpointsToResume(args({ resume: dir, models: ['planner'], seed: 2, backend: 'webgpu' }))).toThrow(/backend: the checkpoint has "wasm", this run "webgpu"/);
    writeFileSync(join(dir, 'tiny-planner.resume.safetensors'), Buffer.from('not a checkpoint at all'));
    expect(() => checkpointsToResume(args({ resume: dir, models: ['planner'] }))).toThrow(/cannot be resumed: not a pretraining checkpoint/);
    expect(() => checkpointsToResume(args({ resume: dir, models: ['grounder'] }))).toThrow(/no checkpoint to resume in .*tiny-grounder.resume.safetensors\); run without --resume/);
    // Another preset's checkpoint there: the message names the options that resume it.
    writeFileSync(join(dir, 'tiny-planner.resume.safetensors'), resumeFile(header('planner', 3)));
    expect(() => checkpointsToResume(args({ resume: dir, models: ['grounder'] }))).toThrow(
      /it holds tiny-planner\.resume\.safetensors \(--preset tiny --only planner --seed 3 --scale 0.02 --backend wasm\): resume with those options\./,
    );
  });

  it('replaces a kept checkpoint by renaming a whole new file over it, and removes them when the run is done', () => {
    const dir = join(tempDir(), 'new');
    const file = (seq: number, bytes: number[]) => ({ model: 'planner' as const, name: '../elsewhere', stage: 'sft', step: seq, steps: 9, seq, base64: Buffer.from(bytes).toString('base64') });
    const path = keepCheckpoint(dir, 'tiny', file(1, [1, 2, 3]));
    expect(path).toBe(join(dir, 'tiny-planner.resume.safetensors'));
    keepCheckpoint(dir, 'tiny', file(2, [4, 5]));
    expect([...readFileSync(path)]).toEqual([4, 5]);
    expect(readdirSync(dir)).toEqual(['tiny-planner.resume.safetensors']);
    removeCheckpoints(dir, 'tiny', ['grounder', 'planner']);
    expect(existsSync(path)).toBe(false);
  });
});
