/**
 * 200 hostile or damaged run exports, each refused with a clear message and
 * the database left byte-identical, or imported as a valid run (which then
 * exports and re-reads cleanly, and deletes back to the same database). A zip
 * bomb's peak memory is measured from a second thread while import runs.
 */
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { Worker } from 'node:worker_threads';
import { strToU8, unzipSync } from 'fflate';
import { crc32, exportRun, importRun, ImportError, readArchive, type ArchiveManifest } from '../../src/coevo/archive';
import { defaultConfig } from '../../src/coevo/config';
import { configRecord } from '../../src/coevo/runner';
import { Random } from '../../src/learn/random';
import { Store } from '../../src/store/store';
import type { RunRecord } from '../../src/store/schema';
import { checkpoint, coevoRun, phase, sample, screen, trajectory } from './coevo-store-fixtures';
import { groupsOf, targetedStates } from './grpo-groups-fixtures';
import { dumpDatabase, entriesOf, entry, writeZip, zerosBomb, type RawEntry } from './archive-fuzz-fixtures';

let n = 0;
const MiB = 1024 * 1024;

/** The flat config runner.ts stores for a run. */
const storedConfig = (): RunRecord['config'] => configRecord(defaultConfig('tiny', 1));

/** A store with run 'other', and the export of run 'r' (every kind of record, groups included), 'r' deleted again. */
async function fixture(): Promise<{ store: Store; name: string; zip: Uint8Array }> {
  const name = `coevo-archive-fuzz-${++n}`;
  const store = await Store.open(name);
  await store.putRun({ ...coevoRun('r', 1_000), config: storedConfig() });
  await store.putRun(coevoRun('other', 2_000));
  await store.commitPhase('r', {
    phase: phase('r', 0, 'seed-data', 0, { samples: 3, loss_last: Number.NaN }),
    samples: [sample('r', 0, { screenHash: 'h1' }), sample('r', 1, { style: 'icon', screenHash: 'h2' }), sample('r', 2, { kept: false, style: null })],
    trajectories: [trajectory('r', 0, 0, ['h1', 'h2'])],
    screens: [screen('h1'), screen('h2', 120, 208)],
    checkpoints: [checkpoint('r', 'planner', 0)],
    metrics: [{ name: 'grounder-sft/loss', steps: [1, 2, 3], values: [2.5, Number.NaN, 1.25] }],
    groups: await groupsOf('r', 1, 0, targetedStates(2), 2),
    runPatch: { cursor: { iteration: 1, phase: 'planner-grpo' } },
  });
  await store.commitPhase('other', { phase: phase('other', 0, 'seed-data', 0), samples: [sample('other', 0, { screenHash: 'h1' })], screens: [screen('h1')] });
  const zip = await exportRun(store, 'r', 5_000);
  await store.deleteRun('r');
  return { store, name, zip };
}

// ---------------------------------------------------------------------------
// Mutations

const HOSTILE: readonly unknown[] = [
  Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, -1, 0, 0.5, 1e15, 1e308, -1e308, 2 ** 53 + 2,
  '', 'x'.repeat(70_000), '<img src=x onerror=alert(1)>', '../../etc/passwd', null, true, [], {}, [1, 'two', null], { $nonfinite: 'NaN' }, undefined,
];

/** Writes a non-finite number as the archive does, so that it reaches the schema (JSON itself has no NaN). */
const encode = (v: unknown) => JSON.stringify(v, (_k, x: unknown) => (typeof x === 'number' && !Number.isFinite(x) ? { $nonfinite: String(x) } : x));

/** Sets (or deletes, for undefined) one randomly chosen field somewhere inside `record`. */
function mutateField(record: unknown, random: Random, value: unknown): unknown {
  if (typeof record !== 'object' || record === null) return value;
  const container = record as Record<string, unknown>;
  const keys = Object.keys(container);
  if (keys.length === 0) return value;
  const key = random.pick(keys);
  const child = container[key];
  // Go deeper half the time where there is something deeper.
  if (typeof child === 'object' && child !== null && random.chance(0.5)) container[key] = mutateField(child, random, value);
  else if (value === undefined) delete container[key];
  else container[key] = value;
  return record;
}

interface Archive {
  entries: RawEntry[];
  manifest: ArchiveManifest;
}

function open(zip: Uint8Array): Archive {
  const entries = entriesOf(zip);
  const manifest = JSON.parse(new TextDecoder().decode(unzipSync(zip)['manifest.json'])) as ArchiveManifest;
  return { entries, manifest };
}

/** The archive with `path` replaced by `bytes`, the manifest's size and CRC for it updated (so the edit reaches the schema). */
function replaced(a: Archive, path: string, bytes: Uint8Array, updateManifest = true): Uint8Array {
  const manifest = structuredClone(a.manifest);
  if (updateManifest && path !== 'manifest.json') manifest.files[path] = { bytes: bytes.length, crc32: crc32(bytes) };
  const entries = a.entries.map((e) => (e.name === path ? entry(path, bytes, e.method) : e));
  return writeZip(entries.map((e) => (e.name === 'manifest.json' && path !== 'manifest.json' ? entry('manifest.json', strToU8(JSON.stringify(manifest))) : e)));
}

function textOf(a: Archive, path: string): string {
  const e = a.entries.find((x) => x.name === path)!;
  return new TextDecoder().decode(e.method === 8 ? unzipSync(writeZip([e]))[path] : e.data);
}

const JSON_FILES = (a: Archive) => a.entries.map((e) => e.name).filter((p) => /\.jsonl?$/.test(p));

/** What the last field case changed, for the log of cases that imported. */
let lastEdit = '';

function fieldCase(a: Archive, random: Random): Uint8Array {
  const path = random.pick(JSON_FILES(a));
  const value = random.pick(HOSTILE);
  const text = textOf(a, path);
  lastEdit = `${path}: ${value === undefined ? 'a field deleted' : `a field set to ${String(encode(value)).slice(0, 40)}`}`;
  let edited: string;
  if (path.endsWith('.jsonl')) {
    const lines = text.split('\n').filter((l) => l !== '');
    const i = random.int(0, lines.length - 1);
    lines[i] = encode(mutateField(JSON.parse(lines[i]), random, value));
    edited = lines.join('\n') + '\n';
  } else {
    const parsed = JSON.parse(text) as unknown;
    const target = Array.isArray(parsed) && parsed.length > 0 ? parsed : [parsed];
    const i = random.int(0, target.length - 1);
    target[i] = mutateField(target[i], random, value);
    edited = encode(Array.isArray(parsed) ? target : target[0]);
  }
  return replaced(a, path, strToU8(edited));
}

function typeCase(a: Archive, random: Random): Uint8Array {
  const path = random.pick(JSON_FILES(a));
  const content = random.pick<Uint8Array>([strToU8(''), strToU8('null'), strToU8('"text"'), strToU8('[1,2,3]'), strToU8('{"a":'), new Uint8Array([0xff, 0xfe, 0x00, 0x41]), strToU8('{}\n{}\n'), strToU8('1e999')]);
  return replaced(a, path, content);
}

function structureCase(a: Archive, random: Random, zip: Uint8Array, k: number): Uint8Array {
  const names = a.entries.map((e) => e.name);
  const some = () => random.pick(names);
  switch (k % 13) {
    case 0: {
      const path = some();
      return writeZip(a.entries.map((e) => (e.name === path ? { ...e, size: e.size + random.int(1, 1000) } : e)));
    }
    case 1: {
      const path = some();
      return writeZip(a.entries.map((e) => (e.name === path ? { ...e, size: Math.max(0, e.size - random.int(1, 10)) } : e)));
    }
    case 2:
      return replaced(a, 'manifest.json', strToU8(JSON.stringify({ ...a.manifest, files: { ...a.manifest.files, [some()]: { bytes: 3_000_000_000, crc32: 1 } } })));
    case 3:
      return writeZip([...a.entries, a.entries[random.int(0, a.entries.length - 1)]]);
    case 4:
      return writeZip([...a.entries, entry(random.pick(['../run.json', '/etc/passwd', 'screens/../../x.png', 'a\\b.json', 'C:/x.json', 'screens/./h1.png', 'screens//h1.png']), strToU8('{}'))]);
    case 5:
      return writeZip([...a.entries, entry('notes.txt', strToU8('hello'))]);
    case 6: {
      const path = random.pick(names.filter((p) => p !== 'manifest.json'));
      return writeZip(a.entries.filter((e) => e.name !== path));
    }
    case 7:
      return zip.slice(0, random.int(0, zip.length - 1));
    case 8: {
      const damaged = zip.slice();
      damaged[random.int(0, damaged.length - 1)] ^= 1 << random.int(0, 7);
      return damaged;
    }
    case 9: {
      const counts = { ...a.manifest.counts, [random.pick(Object.keys(a.manifest.counts))]: random.int(0, 1_000_000) };
      return replaced(a, 'manifest.json', strToU8(JSON.stringify({ ...a.manifest, counts })));
    }
    case 10:
      return writeZip(a.entries.map((e) => (e.name === 'run.json' ? { ...e, method: 12 as 8 } : e)));
    case 11:
      return writeZip(a.entries.map((e) => (e.name === some() ? { ...e, crc: (e.crc ^ 0x5a5a) >>> 0 } : e)));
    default:
      return replaced(a, 'manifest.json', strToU8(JSON.stringify({ ...a.manifest, runId: random.pick(['', 'x'.repeat(300), 'other', '<svg onload=alert(1)>']) })));
  }
}

/** Zip bombs and huge declared sizes; `bomb` is a raw deflate stream of gigabytes of zeros. */
function bombCase(a: Archive, random: Random, bomb: Uint8Array, k: number): Uint8Array {
  const target = random.pick(['samples.jsonl', 'trajectories.jsonl', 'metrics.json', 'run.json', 'screens/h1.png', 'checkpoints/r%2Fplanner%400.safetensors']);
  const honest = a.entries.find((e) => e.name === target)!;
  switch (k % 5) {
    case 0: // lies: declares the real file's size and CRC (the manifest agrees), holds the bomb
      return writeZip(a.entries.map((e) => (e.name === target ? { ...honest, method: 8, data: bomb } : e)));
    case 1: // declares almost 4 GiB
      return writeZip(a.entries.map((e) => (e.name === target ? { ...honest, method: 8, data: bomb, size: 0xfffffffe } : e)));
    case 2: // declares 1.5 GB, and so does the manifest
      return replaced(
        { ...a, entries: a.entries.map((e) => (e.name === target ? { ...honest, method: 8, data: bomb, size: 1_500_000_000 } : e)) },
        'manifest.json',
        strToU8(JSON.stringify({ ...a.manifest, files: { ...a.manifest.files, [target]: { bytes: 1_500_000_000, crc32: honest.crc } } })),
      );
    case 3: // the bomb under a name of its own, listed in the manifest with a small size
      return replaced(
        { ...a, entries: [...a.entries, { name: 'screens/bomb.png', data: bomb, method: 8, crc: 0, size: 1000 }] },
        'manifest.json',
        strToU8(JSON.stringify({ ...a.manifest, files: { ...a.manifest.files, 'screens/bomb.png': { bytes: 1000, crc32: 0 } }, counts: { ...a.manifest.counts, screens: a.manifest.counts.screens + 1 } })),
      );
    default: // the manifest itself is the bomb
      return writeZip(a.entries.map((e) => (e.name === 'manifest.json' ? { ...e, method: 8, data: bomb } : e)));
  }
}

// ---------------------------------------------------------------------------

/** Runs the import; on a refusal checks the message and that the database is byte-identical. */
async function tryImport(store: Store, name: string, bytes: Uint8Array, before: string): Promise<{ refused: string } | { imported: RunRecord }> {
  let run: RunRecord;
  try {
    run = await importRun(store, bytes);
  } catch (e) {
    expect(e).toBeInstanceOf(ImportError);
    const message = (e as Error).message;
    expect(message).toMatch(/nothing was imported\.$/i);
    expect(message.length).toBeLessThan(600);
    expect(await dumpDatabase(name)).toBe(before);
    return { refused: message };
  }
  // Imported: what is stored reads back as a valid export, the run is listed, and deleting it restores the database.
  expect((await store.listRuns()).map((r) => r.id)).toContain(run.id);
  readArchive(await exportRun(store, run.id));
  await store.deleteRun(run.id);
  expect(await dumpDatabase(name)).toBe(before);
  return { imported: run };
}

describe('archive fuzz', () => {
  it('a 4.9 MB zip that inflates to 4.7 GiB is refused at once, memory staying far under 200 MB above baseline', async () => {
    const { store, name, zip } = await fixture();
    const { stream, inflatedBytes } = zerosBomb(75);
    const a = open(zip);
    const samples = a.entries.find((e) => e.name === 'samples.jsonl')!;
    const bombZip = writeZip(a.entries.map((e) => (e.name === 'samples.jsonl' ? { ...samples, data: stream } : e)));
    const before = await dumpDatabase(name);

    const peak = new PeakRss();
    const baseline = process.memoryUsage();
    const t0 = performance.now();
    const outcome = await tryImport(store, name, bombZip, before);
    const ms = performance.now() - t0;
    const maxRss = await peak.stop();
    const rise = maxRss - baseline.rss;
    console.log(
      `bomb: zip ${(bombZip.length / MiB).toFixed(2)} MiB, inflates to ${(inflatedBytes / 1024 / MiB).toFixed(2)} GiB; refused in ${ms.toFixed(0)} ms; ` +
        `rss baseline ${(baseline.rss / MiB).toFixed(1)} MiB, peak ${(maxRss / MiB).toFixed(1)} MiB (+${(rise / MiB).toFixed(1)} MiB, ${peak.samples} samples); ` +
        `message: ${'refused' in outcome ? outcome.refused : 'imported'}`,
    );
    expect(bombZip.length).toBeGreaterThan(4.5 * MiB);
    expect(inflatedBytes).toBeGreaterThan(1024 * MiB);
    expect(outcome).toEqual({ refused: expect.stringMatching(/samples\.jsonl expands past the .* its zip directory declares/) });
    expect(rise).toBeLessThan(200 * MiB);
    store.close();
  });

  it('200 fuzzed archives: each refused with a clear message and the database unchanged, or imported valid', async () => {
    const { store, name, zip } = await fixture();
    const a = open(zip);
    const { stream: bomb } = zerosBomb(20);
    const before = await dumpDatabase(name);
    const random = new Random(34);
    const cases: { kind: string; bytes: () => Uint8Array }[] = [
      ...Array.from({ length: 120 }, (_, k) => ({ kind: 'field', bytes: () => fieldCase(a, random.fork(`field${k}`)) })),
      ...Array.from({ length: 20 }, (_, k) => ({ kind: 'type', bytes: () => typeCase(a, random.fork(`type${k}`)) })),
      ...Array.from({ length: 30 }, (_, k) => ({ kind: 'structure', bytes: () => structureCase(a, random.fork(`structure${k}`), zip, k) })),
      ...Array.from({ length: 30 }, (_, k) => ({ kind: 'bomb', bytes: () => bombCase(a, random.fork(`bomb${k}`), bomb, k) })),
    ];
    const tally: Record<string, { refused: number; imported: number; slowestMs: number }> = {};
    const reasons = new Map<string, number>();
    const imported: string[] = [];
    for (const c of cases) {
      const t0 = performance.now();
      const outcome = await tryImport(store, name, c.bytes(), before);
      const ms = performance.now() - t0;
      const t = (tally[c.kind] ??= { refused: 0, imported: 0, slowestMs: 0 });
      t.slowestMs = Math.max(t.slowestMs, Math.round(ms));
      if ('refused' in outcome) {
        t.refused++;
        const reason = outcome.refused.replace(/^This file is (not a (valid|complete) )?/, '').slice(0, 70);
        reasons.set(reason, (reasons.get(reason) ?? 0) + 1);
      } else {
        t.imported++;
        if (c.kind === 'field') imported.push(lastEdit);
      }
      if (c.kind === 'bomb') expect(outcome).toHaveProperty('refused');
    }
    console.log(`fuzz: ${cases.length} archives ${JSON.stringify(tally)}`);
    console.log([...reasons].sort((x, y) => y[1] - x[1]).slice(0, 25).map(([r, k]) => `  ${k} × ${r}`).join('\n'));
    console.log(`imported field edits:\n  ${imported.join('\n  ')}`);
    expect(cases).toHaveLength(200);
    // The unmodified export still imports (the fuzzing refused what it should, not everything).
    expect(await tryImport(store, name, zip, before)).toHaveProperty('imported');
    store.close();
  }, 600_000);
});

/** The process's peak resident set size, sampled every millisecond by a second thread while this one is busy. */
class PeakRss {
  private readonly shared = new SharedArrayBuffer(16);
  private readonly worker: Worker;
  samples = 0;
  constructor() {
    const code = `
      const { workerData } = require('node:worker_threads');
      const flag = new Int32Array(workerData, 0, 2);
      const peak = new Float64Array(workerData, 8, 1);
      while (Atomics.load(flag, 0) === 0) {
        const rss = process.memoryUsage.rss();
        if (rss > peak[0]) peak[0] = rss;
        Atomics.add(flag, 1, 1);
        Atomics.wait(flag, 0, 0, 1);
      }`;
    new Float64Array(this.shared, 8, 1)[0] = process.memoryUsage.rss();
    this.worker = new Worker(code, { eval: true, workerData: this.shared });
  }
  async stop(): Promise<number> {
    const flag = new Int32Array(this.shared, 0, 2);
    Atomics.store(flag, 0, 1);
    Atomics.notify(flag, 0);
    await new Promise((resolve) => this.worker.once('exit', resolve));
    this.samples = flag[1];
    return new Float64Array(this.shared, 8, 1)[0];
  }
}
