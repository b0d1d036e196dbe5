import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { strToU8, unzipSync, zipSync } from 'fflate';
import { crc32, exportRun, importRun, ImportError } from '../../src/coevo/archive';
import { Random } from '../../src/learn/random';
import { Store } from '../../src/store/store';
import type { ArchiveManifest } from '../../src/coevo/archive';
import { checkpoint, coevoRun, phase, sample, screen, trajectory } from './coevo-store-fixtures';

let n = 0;
const freshName = () => `coevo-archive-test-${++n}`;
const TRUNCATED = 'This file is not a complete Coevo run export (the zip is truncated or corrupt); nothing was imported.';

/** Run 'r' (two phases of outputs, a screen, two checkpoints, curves with a NaN) and run 'other' beside it. */
async function storeWithRuns(): Promise<Store> {
  const store = await Store.open(freshName());
  await store.putRun(coevoRun('r', 1_000));
  await store.putRun(coevoRun('other', 2_000));
  const drop = [{ stage: 'verifier' as const, decision: 'keep' as const, reason: 'verified' }, { stage: 'too-easy' as const, decision: 'drop' as const, reason: 'too easy: all 4 of 4 sampled points hit' }];
  await store.commitPhase('r', {
    phase: phase('r', 0, 'seed-data', 0, { samples: 3 }),
    samples: [sample('r', 0, { screenHash: 'h1' }), sample('r', 1, { style: 'icon', screenHash: 'h1' }), sample('r', 2, { kept: false, style: null })],
    trajectories: [trajectory('r', 0, 0, ['h1', 'h2'])],
    screens: [screen('h1'), screen('h2', 120, 208)],
    checkpoints: [checkpoint('r', 'planner', 0), checkpoint('r', 'grounder', 0)],
    metrics: [{ name: 'grounder-sft/loss', steps: [1, 2, 3], values: [2.5, Number.NaN, 1.25] }],
    runPatch: { cursor: { iteration: 1, phase: 'planner-grpo' } },
  });
  await store.commitPhase('r', {
    phase: phase('r', 4, 'distill', 1, { kept: 1, note: 'distilled' }),
    samples: [sample('r', 0, { iteration: 1, curation: drop, kept: false }), { ...sample('r', 1, { iteration: 1 }), value: 'Lunch', actionType: 'TYPE' }],
    metrics: [{ name: 'planner-grpo/reward', steps: [1], values: [0.5] }],
    runPatch: { cursor: { iteration: 1, phase: 'grounder-train' }, status: 'done', finishedAt: 9_999 },
  });
  await store.commitPhase('other', { phase: phase('other', 0, 'seed-data', 0), samples: [sample('other', 0, { screenHash: 'h1' })], metrics: [{ name: 'loss', steps: [1], values: [3] }] });
  return store;
}

async function snapshot(store: Store) {
  const runs = await store.listRuns();
  return Promise.all(
    runs.map(async (run) => ({
      run,
      samples: await store.getSamples(run.id),
      phases: await store.listPhases(run.id),
      metrics: await store.getMetrics(run.id),
      trajectories: await store.getTrajectories(run.id),
      checkpoints: (await store.listCheckpoints(run.id)).map((c) => ({ ...c, weights: [...new Uint8Array(c.weights)] })),
    })),
  );
}

/** The export with its manifest edited. */
function editManifest(zip: Uint8Array, edit: (m: ArchiveManifest) => void): Uint8Array {
  const files = unzipSync(zip);
  const manifest = JSON.parse(new TextDecoder().decode(files['manifest.json'])) as ArchiveManifest;
  edit(manifest);
  return zipSync({ ...files, 'manifest.json': strToU8(JSON.stringify(manifest)) });
}

/** The export with one file replaced and the manifest's size and CRC (and optionally counts) updated to match. */
function rewrite(zip: Uint8Array, path: string, edit: (text: string) => string, counts: Partial<ArchiveManifest['counts']> = {}): Uint8Array {
  const files = unzipSync(zip);
  const bytes = strToU8(edit(new TextDecoder().decode(files[path])));
  const manifest = JSON.parse(new TextDecoder().decode(files['manifest.json'])) as ArchiveManifest;
  manifest.files[path] = { bytes: bytes.length, crc32: crc32(bytes) };
  manifest.counts = { ...manifest.counts, ...counts };
  return zipSync({ ...files, [path]: bytes, 'manifest.json': strToU8(JSON.stringify(manifest)) });
}

async function expectRefused(store: Store, bytes: Uint8Array, message: string | RegExp) {
  const before = await snapshot(store);
  const error = await importRun(store, bytes).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(ImportError);
  if (typeof message === 'string') expect((error as Error).message).toBe(message);
  else expect((error as Error).message).toMatch(message);
  expect(await snapshot(store)).toEqual(before);
}

describe('run export and import', () => {
  it('a deleted run comes back from its export exactly as it was', async () => {
    const store = await storeWithRuns();
    const before = (await snapshot(store)).find((s) => s.run.id === 'r')!;
    const counts = await store.countSamples('r');
    const screens = await Promise.all(['h1', 'h2'].map(async (h) => new Uint8Array(await (await store.getScreen(h))!.png.arrayBuffer())));
    const zip = await exportRun(store, 'r', 123);

    const files = unzipSync(zip);
    expect(Object.keys(files).sort()).toEqual([
      'checkpoints/r%2Fgrounder%400.json',
      'checkpoints/r%2Fgrounder%400.safetensors',
      'checkpoints/r%2Fplanner%400.json',
      'checkpoints/r%2Fplanner%400.safetensors',
      'manifest.json',
      'metrics.json',
      'phases.json',
      'run.json',
      'samples.jsonl',
      'screens/h1.png',
      'screens/h2.png',
      'trajectories.jsonl',
    ]);
    const manifest = JSON.parse(new TextDecoder().decode(files['manifest.json'])) as ArchiveManifest;
    expect(manifest).toMatchObject({ format: 'coevo-run', version: 1, runId: 'r', createdAt: 123, counts: { samples: 5, trajectories: 1, phases: 2, metrics: 2, screens: 2, checkpoints: 2 } });
    const lines = new TextDecoder().decode(files['samples.jsonl']).trim().split('\n');
    expect(lines).toHaveLength(5);
    expect(JSON.parse(lines[0])).toEqual(sample('r', 0, { screenHash: 'h1' }));

    await store.deleteRun('r');
    expect(await store.getRun('r')).toBeUndefined();
    const imported = await importRun(store, zip);
    expect(imported).toEqual(before.run);
    const after = (await snapshot(store)).find((s) => s.run.id === 'r')!;
    expect(after.run.config).toEqual(coevoRun('r').config);
    expect(after).toEqual(before); // samples, phases, metrics (the NaN too), trajectories, checkpoint bytes
    expect(await store.countSamples('r')).toEqual(counts);
    expect((await store.getMetric('r', 'grounder-sft/loss'))!.values[1]).toBeNaN();
    const h2 = await store.getScreen('h2');
    expect([h2?.width, h2?.height]).toEqual([120, 208]);
    expect(new Uint8Array(await h2!.png.arrayBuffer())).toEqual(screens[1]);
    expect(new Uint8Array(await (await store.getScreen('h1'))!.png.arrayBuffer())).toEqual(screens[0]);
    store.close();
  });

  it('refuses a truncated file with a clear message and leaves every stored run as it was', async () => {
    const store = await storeWithRuns();
    const zip = await exportRun(store, 'r');
    await store.deleteRun('r');
    for (const end of [10, 200, Math.floor(zip.length / 2), zip.length - 30, zip.length - 1]) {
      await expectRefused(store, zip.slice(0, end), TRUNCATED);
    }
    expect((await store.listRuns()).map((r) => r.id)).toEqual(['other']);
    expect(await store.countSamples('other')).toMatchObject({ total: 1 });
    store.close();
  });

  it('refuses a file with a damaged entry that the zip reader would accept', async () => {
    const store = await storeWithRuns();
    const zip = await exportRun(store, 'r');
    await store.deleteRun('r');
    // The PNGs are stored uncompressed: flip a byte inside one, past its signature.
    const at = zip.findIndex((b, i) => b === 0x89 && zip[i + 1] === 0x50 && zip[i + 2] === 0x4e && zip[i + 3] === 0x47);
    const damaged = zip.slice();
    damaged[at + 20] ^= 0xff;
    await expectRefused(store, damaged, /not a complete Coevo run export \(the zip is truncated or corrupt: screens\/h\d\.png is damaged\); nothing was imported\./);
    store.close();
  });

  it('refuses foreign zips, random bytes and other formats as not a Coevo run export', async () => {
    const store = await storeWithRuns();
    await expectRefused(store, zipSync({ 'readme.txt': strToU8('hello') }), 'This file is not a Coevo run export (the zip has no manifest.json); nothing was imported.');
    await expectRefused(store, zipSync({}), /the zip has no manifest\.json/);
    const random = new Random(7);
    await expectRefused(store, Uint8Array.from({ length: 4096 }, () => random.int(0, 255)), 'This file is not a Coevo run export (it is not a zip file); nothing was imported.');
    await expectRefused(store, new Uint8Array(0), /it is not a zip file/);
    await expectRefused(store, zipSync({ 'manifest.json': strToU8('{"format":"something-else","version":1}') }), /not a Coevo run export \(its manifest\.json does not say format "coevo-run"\)/);
    const zip = await exportRun(store, 'r');
    await store.deleteRun('r');
    await expectRefused(store, editManifest(zip, (m) => ((m as { version: number }).version = 2)), /format version 2, but this app reads version 1/);
    store.close();
  });

  it('refuses a run whose id is already stored, and changes nothing', async () => {
    const store = await storeWithRuns();
    const zip = await exportRun(store, 'r');
    await expectRefused(store, zip, 'A run with id r ("coevo r") is already stored. Delete it first, then import this file again; nothing was imported.');
    store.close();
  });

  it('refuses records with missing or mistyped fields, naming the file, line and field', async () => {
    const store = await storeWithRuns();
    const zip = await exportRun(store, 'r');
    await store.deleteRun('r');
    const secondLine = (edit: (o: Record<string, unknown>) => void) => (t: string) =>
      t
        .split('\n')
        .map((line, i) => {
          if (i !== 1) return line;
          const o = JSON.parse(line) as Record<string, unknown>;
          edit(o);
          return JSON.stringify(o);
        })
        .join('\n');
    await expectRefused(store, rewrite(zip, 'samples.jsonl', secondLine((o) => delete o.kept)), /samples\.jsonl line 2: field 'kept' must be true or false \(found nothing\)\. Nothing was imported\./);
    await expectRefused(store, rewrite(zip, 'samples.jsonl', secondLine((o) => (o.iteration = 'one'))), /samples\.jsonl line 2: field 'iteration' must be an integer from 0 to 10 \(found "one"\)/);
    await expectRefused(store, rewrite(zip, 'samples.jsonl', secondLine((o) => (o.actionType = 'JUMP'))), /field 'actionType' must be one of CLICK, TYPE/);
    await expectRefused(store, rewrite(zip, 'samples.jsonl', secondLine((o) => (o.runId = 'other'))), /field 'runId' must be the exported run's id r/);
    await expectRefused(store, rewrite(zip, 'samples.jsonl', (t) => t.replace('}\n', '\n')), /samples\.jsonl line 1 is not valid JSON/);
    await expectRefused(store, rewrite(zip, 'run.json', (t) => t.replace('"seed":1', '"seed":"1"')), /run\.json: field 'seed' must be a number/);
    await expectRefused(store, rewrite(zip, 'metrics.json', (t) => t.replace('[1,2,3]', '[1,2]')), /metrics\.json\[\d\] has 2 steps but 3 values/);
    await expectRefused(store, rewrite(zip, 'phases.json', (t) => t, { phases: 3 }), /the manifest lists 3 phases but the file holds 2/);
    await expectRefused(store, editManifest(zip, (m) => delete m.files['run.json']), /it holds run\.json, which its manifest does not list/);
    await expectRefused(store, zipSync({ ...unzipSync(zip), 'run.json': strToU8('{}') }), /truncated or corrupt: run\.json is damaged\); nothing was imported\./);
    await expectRefused(store, rewrite(zip, 'checkpoints/r%2Fplanner%400.safetensors', () => 'not safetensors'), /checkpoints\/r%2Fplanner%400\.safetensors is not a readable safetensors file/);
    store.close();
  });

  it('writes nothing of the run when the store rejects one of its records', async () => {
    const store = await storeWithRuns();
    const zip = await exportRun(store, 'r');
    await store.deleteRun('r');
    // A sample id that run 'other' already uses: its add fails after the run's other records were written.
    const clash = rewrite(zip, 'samples.jsonl', (t) => t.replace('"id":"r/1/1"', '"id":"other/0/0"'));
    await expectRefused(store, clash, /Importing run r failed, so nothing was imported/);
    expect(await store.getRun('r')).toBeUndefined();
    expect(await store.getSamples('other')).toEqual([sample('other', 0, { screenHash: 'h1' })]);
    await importRun(store, zip);
    expect(await store.countSamples('r')).toMatchObject({ total: 5, kept: 3 });
    store.close();
  });
});
