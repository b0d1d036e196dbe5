/**
 * Import: every check runs before anything is written, in the order that
 * costs least first: the zip's directory (names, declared sizes, caps), the
 * manifest, the listing of every entry, then each entry inflated within its
 * declared size and checked against its CRC-32, then every record against
 * its schema and the counts. Only then is the whole run written, in one
 * transaction (Store.restoreRun), so a refusal leaves the store untouched.
 */
import type { RunBundle, Store } from '../../store/store';
import { StoreError } from '../../store/store';
import type { CheckpointRecord, RunRecord, ScreenRecord } from '../../store/schema';
import { Fields } from './fields';
import {
  ARCHIVE_FORMAT,
  ARCHIVE_VERSION,
  ImportError,
  MANIFEST,
  OPTIONAL_ROOT_FILES,
  ROOT_FILES,
  crc32,
  invalid,
  isObject,
  notAnExport,
  parse,
  truncated,
  type ArchiveCounts,
  type ArchiveManifest,
} from './format';
import { entryLimit, formatBytes, TEXT_LIMITS } from './limits';
import { checkpointRecord, screenRecord, utf8 } from './entries';
import { groupRecord } from './groups';
import { list, metricRecord, phaseRecord, runRecord, stepSample, trajectoryRecord, unique } from './records';
import { checkDeclaredTotal, inflateEntry, readDirectory, type ZipEntry } from './unzip';

/**
 * Reads an export and stores its run. Refuses (ImportError, nothing stored)
 * a file that is not a complete, valid export, or a run whose id is taken.
 */
export async function importRun(store: Store, bytes: Uint8Array): Promise<RunRecord> {
  const bundle = readArchive(bytes);
  const { run } = bundle;
  const existing = await store.getRun(run.id);
  if (existing) throw new ImportError(`A run with id ${run.id} ("${existing.name}") is already stored. Delete it first, then import this file again; nothing was imported.`);
  try {
    await store.restoreRun(bundle);
  } catch (e) {
    if (e instanceof StoreError) throw new ImportError(`Importing run ${run.id} failed, so nothing was imported: ${e.message}`, { cause: e });
    throw e;
  }
  return run;
}

/** Every check of importRun that needs no database: the run as records, or an ImportError. */
export function readArchive(bytes: Uint8Array): RunBundle {
  const directory = readDirectory(bytes);
  const byPath = new Map(directory.map((e) => [e.path, e]));
  const manifestEntry = byPath.get(MANIFEST);
  if (!manifestEntry) throw notAnExport('the zip has no manifest.json');
  checkEntrySize(manifestEntry);
  const manifest = readManifest(inflateEntry(bytes, manifestEntry));
  checkListing(directory, byPath, manifest);
  checkDeclaredTotal(directory, bytes.length);

  const entries = new Map<string, Uint8Array>();
  for (const entry of directory) {
    const data = entry === manifestEntry ? undefined : inflateEntry(bytes, entry);
    // The manifest's own CRC-32 was checked with the zip's above; every other file must match both.
    if (data && crc32(data) !== manifest.files[entry.path].crc32) throw truncated(`${entry.path} is damaged`);
    if (data) entries.set(entry.path, data);
  }
  return readRecords(entries, manifest);
}

/** The records of the inflated entries, each checked, and the counts the manifest promised. */
function readRecords(entries: ReadonlyMap<string, Uint8Array>, manifest: ArchiveManifest): RunBundle {
  const runId = manifest.runId;
  const run = parseJson(entries, 'run.json', (v) => runRecord(v, runId, 'run.json'));
  const samples = parseLines(entries, 'samples.jsonl', (v, at) => stepSample(v, runId, at));
  const trajectories = parseLines(entries, 'trajectories.jsonl', (v, at) => trajectoryRecord(v, runId, at));
  const phases = parseJson(entries, 'phases.json', (v) => list(v, 'phases.json').map((p, i) => phaseRecord(p, runId, `phases.json[${i}]`)));
  const metrics = parseJson(entries, 'metrics.json', (v) => list(v, 'metrics.json').map((m, i) => metricRecord(m, runId, `metrics.json[${i}]`)));
  const groups = entries.has('groups.jsonl') ? parseLines(entries, 'groups.jsonl', (v, at) => groupRecord(v, runId, at)) : [];
  unique(samples.map((s) => s.id), 'samples.jsonl', 'sample id');
  unique(trajectories.map((t) => t.id), 'trajectories.jsonl', 'trajectory id');
  unique(phases.map((p) => String(p.index)), 'phases.json', 'phase index');
  unique(metrics.map((m) => m.name), 'metrics.json', 'metric name');
  unique(groups.map((g) => `${g.iteration}/${g.batch}/${g.group}`), 'groups.jsonl', 'group (iteration/batch/group)');

  const screens: ScreenRecord[] = [];
  const checkpoints: CheckpointRecord[] = [];
  for (const path of entries.keys()) {
    if (ROOT_FILES.includes(path) || OPTIONAL_ROOT_FILES.includes(path)) continue;
    if (path.startsWith('screens/')) screens.push(screenRecord(path, entries.get(path)!));
    else if (/^checkpoints\/[^/]+\.json$/.test(path)) checkpoints.push(checkpointRecord(entries, path, runId));
    else if (!entries.has(path.replace(/\.safetensors$/, '.json'))) throw invalid(`${path} has no checkpoint record (.json) beside it`);
  }

  const found: ArchiveCounts = { samples: samples.length, trajectories: trajectories.length, phases: phases.length, metrics: metrics.length, screens: screens.length, checkpoints: checkpoints.length, groups: groups.length };
  for (const key of Object.keys(found) as (keyof ArchiveCounts)[]) {
    if (found[key] !== manifest.counts[key]) throw invalid(`the manifest lists ${manifest.counts[key]} ${key} but the file holds ${found[key]}`);
  }
  return { run, samples, trajectories, phases: phases.sort((a, b) => a.index - b.index), metrics, screens, checkpoints, groups };
}

function readManifest(bytes: Uint8Array): ArchiveManifest {
  let value: unknown;
  try {
    value = JSON.parse(utf8(bytes, MANIFEST));
  } catch {
    throw truncated();
  }
  if (!isObject(value) || value.format !== ARCHIVE_FORMAT) throw notAnExport('its manifest.json does not say format "coevo-run"');
  if (value.version !== ARCHIVE_VERSION) {
    throw new ImportError(`This run export has format version ${String(value.version).slice(0, 40)}, but this app reads version ${ARCHIVE_VERSION}; update the app, or export the run again from the app that made it. Nothing was imported.`);
  }
  const f = new Fields(value, MANIFEST);
  const counts = f.obj('counts');
  const files = f.obj('files');
  return {
    format: ARCHIVE_FORMAT,
    version: ARCHIVE_VERSION,
    runId: f.id('runId'),
    createdAt: f.time('createdAt'),
    counts: {
      samples: counts.int('samples'),
      trajectories: counts.int('trajectories'),
      phases: counts.int('phases'),
      metrics: counts.int('metrics'),
      screens: counts.int('screens'),
      checkpoints: counts.int('checkpoints'),
      groups: counts.has('groups') ? counts.int('groups') : 0,
    },
    files: Object.fromEntries(files.keys().map((path) => [path, { bytes: files.obj(path).int('bytes'), crc32: files.obj(path).int('crc32', 0xffffffff) }])),
  };
}

/**
 * Every entry is listed in the manifest with the size the zip declares for
 * it, every listed one is there, every entry has a place in an export and
 * fits that place's size limit: all before anything but the manifest is inflated.
 */
function checkListing(directory: readonly ZipEntry[], byPath: ReadonlyMap<string, ZipEntry>, manifest: ArchiveManifest): void {
  for (const { path } of directory) {
    if (path !== MANIFEST && !(path in manifest.files)) throw invalid(`it holds ${path}, which its manifest does not list`);
  }
  for (const [path, { bytes }] of Object.entries(manifest.files)) {
    if (path.length > TEXT_LIMITS.configJson) throw invalid('its manifest lists a path of more than 65536 characters');
    const entry = byPath.get(path);
    if (!entry || entry.size !== bytes) throw truncated(`${entry ? path : path.slice(0, 200)} is ${entry ? 'damaged' : 'missing'}`);
  }
  for (const required of ROOT_FILES) {
    if (!byPath.has(required)) throw invalid(`it has no ${required}`);
  }
  for (const entry of directory) {
    if (entryLimit(entry.path) === null) throw invalid(`it holds ${entry.path}, which has no place in a run export`);
    checkEntrySize(entry);
  }
}

function checkEntrySize(entry: ZipEntry): void {
  const limit = entryLimit(entry.path) ?? 0;
  if (entry.size > limit) throw invalid(`${entry.path} would expand to ${formatBytes(entry.size)}, more than the ${formatBytes(limit)} such a file may hold`);
}

function parseJson<T>(entries: ReadonlyMap<string, Uint8Array>, path: string, read: (v: unknown) => T): T {
  return read(parse(utf8(entries.get(path)!, path), path));
}

function parseLines<T>(entries: ReadonlyMap<string, Uint8Array>, path: string, read: (v: unknown, at: string) => T): T[] {
  const out: T[] = [];
  utf8(entries.get(path)!, path)
    .split('\n')
    .forEach((line, i) => {
      if (line.trim() === '') return;
      const at = `${path} line ${i + 1}`;
      out.push(read(parse(line, at), at));
    });
  return out;
}
