/**
 * A run as one zip file, to move it between browsers or to read it with
 * other tools. Layout:
 *
 *   manifest.json             { format: 'coevo-run', version: 1, runId, createdAt (export time, ms),
 *                               counts: {samples, trajectories, phases, metrics, screens, checkpoints, groups},
 *                               files: { <path>: { bytes, crc32 } } for every other entry }
 *   run.json                  the RunRecord, config and cursor included
 *   samples.jsonl             one step sample per line (schema below)
 *   trajectories.jsonl        one TrajectoryRecord per line
 *   phases.json               the finished phases, in plan order
 *   metrics.json              [{ name, steps, values }], one per training curve
 *   groups.jsonl              planner GRPO groups kept for the inspector, one GroupRecord per line
 *                             (src/coevo/groupRecords.ts; absent when the run has none)
 *   screens/<hash>.png        every stored screen a sample or trajectory shows
 *   checkpoints/<id>.safetensors  the weights (loads in Python's safetensors, PyTorch, ...)
 *   checkpoints/<id>.json     the checkpoint's record without its bytes
 * (<hash> and <id> are URI-encoded, so an id with '/' stays one file name.)
 *
 * samples.jsonl, one JSON object per line. Names follow AndroidControl and
 * Mind2Web where they overlap: a line is one step of one episode with its
 * goal, its step instruction and the action's type, target and value.
 *   id           string  unique id, `<runId>/<iteration>/<n>`
 *   runId        string  the run it belongs to
 *   iteration    int     0 for the seed dataset D0, k for data distilled in iteration k
 *   phase        string  the phase that wrote it: 'seed-data' or 'distill'
 *   origin       string  'seed' (instruction writer pool) or 'distilled' (a trained planner)
 *   source       string  who wrote the instruction, e.g. 'writer:terse', 'planner@1'
 *   task         object  the episode: { id, templateId, appId, domain, platform, variant, seed,
 *                        params: {string: string}, goal } (Mind2Web's annotation_id / website / domain)
 *   stepIndex    int     0-based step in the episode (AndroidControl's step index)
 *   platform     string  'web' (landscape page) or 'mobile' (portrait app)
 *   goal         string  the high-level goal (AndroidControl's goal, Mind2Web's confirmed_task)
 *   instruction  string  the low-level step instruction (AndroidControl's step_instruction)
 *   style        string|null  how it refers to its target: text, icon, position, relation, color, function
 *   actionType   string  CLICK, TYPE, SELECT, SCROLL, BACK, OPEN_APP or DONE (Mind2Web's operation.op)
 *   value        string? the typed text or chosen option (Mind2Web's operation.value)
 *   targetId     string? the target element's id on its screen
 *   box          object? the target's box in screen pixels { x, y, w, h }, (x, y) its top-left corner
 *   screenHash   string? the screenshot before the step: screens/<screenHash>.png
 *   kept         bool    whether the sample is in the training set; dropped ones keep their reasons
 *   curation     array   [{ stage: 'verifier'|'too-easy'|'misaligned'|'diversity', decision: 'keep'|'drop', reason }]
 *
 * JSON has no NaN or Infinity: such numbers (a diverged loss) are written as
 * {"$nonfinite": "NaN" | "Infinity" | "-Infinity"} and read back as numbers.
 *
 * Import checks everything (zip integrity, manifest, each file's size and
 * CRC-32, every record's fields, the counts, each checkpoint's safetensors)
 * before writing anything, then writes the whole run in one transaction.
 */
import { strFromU8, strToU8, unzipSync, zipSync, type Zippable } from 'fflate';
import { decodeSafetensors } from '../models/checkpoint';
import type { RunBundle, Store } from '../store/store';
import { StoreError } from '../store/store';
import type { CheckpointRecord, MetricRecord, PhaseRecord, RunKind, RunRecord, RunStatus, BackendName, ScreenRecord, TrajectoryRecord } from '../store/schema';
import type { PlanWeighting } from '../learn/rewards';
import type { ActionType, Box, Domain, FontFamily, Platform, Role, Screen, Task, TextStyle, UIElement } from '../world/types';
import { REF_STYLES } from '../world/types';
import type { GroupGrounding, GroupRecord, GroupSample } from './groupRecords';
import { PHASES, type CurationNote, type SampleOrigin, type StepSample } from './records';

export const ARCHIVE_FORMAT = 'coevo-run';
export const ARCHIVE_VERSION = 1;

export interface ArchiveCounts {
  samples: number;
  trajectories: number;
  phases: number;
  metrics: number;
  screens: number;
  checkpoints: number;
  /** Absent (read as 0) in exports made before groups were kept. */
  groups: number;
}

export interface ArchiveManifest {
  format: typeof ARCHIVE_FORMAT;
  version: typeof ARCHIVE_VERSION;
  runId: string;
  createdAt: number;
  counts: ArchiveCounts;
  files: Record<string, { bytes: number; crc32: number }>;
}

export class ImportError extends Error {
  override name = 'ImportError';
}

const MANIFEST = 'manifest.json';
const ROOT_FILES = [MANIFEST, 'run.json', 'samples.jsonl', 'trajectories.jsonl', 'phases.json', 'metrics.json'];
/** Root files an older export may lack. */
const OPTIONAL_ROOT_FILES = ['groups.jsonl'];
const truncated = (detail?: string) =>
  new ImportError(`This file is not a complete Coevo run export (the zip is truncated or corrupt${detail ? `: ${detail}` : ''}); nothing was imported.`);
const notAnExport = (why: string) => new ImportError(`This file is not a Coevo run export (${why}); nothing was imported.`);
const invalid = (why: string) => new ImportError(`This file is not a valid Coevo run export: ${why}. Nothing was imported.`);

/** The whole run as zip bytes. Screens a sample names but the store lacks are left out (the world can redraw them). */
export async function exportRun(store: Store, runId: string, now: number = Date.now()): Promise<Uint8Array> {
  const run = await store.getRun(runId);
  if (!run) throw new Error(`No run with id ${runId} to export.`);
  const [samples, trajectories, phases, metrics, checkpoints, groups] = await Promise.all([
    store.getSamples(runId),
    store.getTrajectories(runId),
    store.listPhases(runId),
    store.getMetrics(runId),
    store.listCheckpoints(runId),
    store.getGroups(runId),
  ]);
  const hashes = new Set<string>();
  for (const s of samples) if (s.screenHash !== undefined) hashes.add(s.screenHash);
  for (const t of trajectories) for (const h of t.screenHashes ?? []) hashes.add(h);
  const screens = (await Promise.all([...hashes].map((h) => store.getScreen(h)))).filter((s): s is ScreenRecord => s !== undefined);

  const files: Record<string, Uint8Array> = {
    'run.json': json(run),
    'samples.jsonl': jsonl(samples),
    'trajectories.jsonl': jsonl(trajectories),
    'phases.json': json(phases),
    'metrics.json': json(metrics.map(({ name, steps, values }) => ({ name, steps, values }))),
  };
  // Only runs that have groups carry the file, so a run without them exports as before.
  if (groups.length > 0) files['groups.jsonl'] = jsonl(groups);
  for (const s of screens) files[screenPath(s.hash)] = new Uint8Array(await s.png.arrayBuffer());
  for (const { weights, ...record } of checkpoints) {
    files[checkpointPath(record.id, 'safetensors')] = new Uint8Array(weights);
    files[checkpointPath(record.id, 'json')] = json(record);
  }
  const manifest: ArchiveManifest = {
    format: ARCHIVE_FORMAT,
    version: ARCHIVE_VERSION,
    runId,
    createdAt: now,
    counts: { samples: samples.length, trajectories: trajectories.length, phases: phases.length, metrics: metrics.length, screens: screens.length, checkpoints: checkpoints.length, groups: groups.length },
    files: Object.fromEntries(Object.entries(files).map(([path, bytes]) => [path, { bytes: bytes.length, crc32: crc32(bytes) }])),
  };
  const zippable: Zippable = { [MANIFEST]: json(manifest) };
  // PNGs are deflated already; storing them saves time and nothing else.
  for (const [path, bytes] of Object.entries(files)) zippable[path] = path.endsWith('.png') ? [bytes, { level: 0 }] : bytes;
  return zipSync(zippable, { level: 6 });
}

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
  if (!looksLikeZip(bytes)) throw notAnExport('it is not a zip file');
  let entries: Record<string, Uint8Array>;
  try {
    entries = unzipSync(bytes);
  } catch {
    throw truncated();
  }
  if (!(MANIFEST in entries)) throw notAnExport('the zip has no manifest.json');
  const manifest = readManifest(entries[MANIFEST]);
  checkFiles(entries, manifest);
  const runId = manifest.runId;

  const run = parseJson(entries, 'run.json', (v) => runRecord(v, runId, 'run.json'));
  const samples = parseLines(entries, 'samples.jsonl', (v, at) => stepSample(v, runId, at));
  const trajectories = parseLines(entries, 'trajectories.jsonl', (v, at) => trajectoryRecord(v, runId, at));
  const phases = parseJson(entries, 'phases.json', (v) => list(v, 'phases.json').map((p, i) => phaseRecord(p, runId, `phases.json[${i}]`)));
  const metrics = parseJson(entries, 'metrics.json', (v) => list(v, 'metrics.json').map((m, i) => metricRecord(m, runId, `metrics.json[${i}]`)));
  const groups = 'groups.jsonl' in entries ? parseLines(entries, 'groups.jsonl', (v, at) => groupRecord(v, runId, at)) : [];
  unique(samples.map((s) => s.id), 'samples.jsonl', 'sample id');
  unique(trajectories.map((t) => t.id), 'trajectories.jsonl', 'trajectory id');
  unique(phases.map((p) => String(p.index)), 'phases.json', 'phase index');
  unique(metrics.map((m) => m.name), 'metrics.json', 'metric name');
  unique(groups.map((g) => `${g.iteration}/${g.batch}/${g.group}`), 'groups.jsonl', 'group (iteration/batch/group)');

  const screens: ScreenRecord[] = [];
  const checkpoints: CheckpointRecord[] = [];
  for (const path of Object.keys(entries)) {
    if (ROOT_FILES.includes(path) || OPTIONAL_ROOT_FILES.includes(path)) continue;
    if (path.startsWith('screens/')) screens.push(screenRecord(path, entries[path]));
    else if (/^checkpoints\/[^/]+\.json$/.test(path)) checkpoints.push(checkpointRecord(entries, path, runId));
    else if (!/^checkpoints\/[^/]+\.safetensors$/.test(path)) throw invalid(`it holds ${path}, which has no place in a run export`);
    else if (!(path.replace(/\.safetensors$/, '.json') in entries)) throw invalid(`${path} has no checkpoint record (.json) beside it`);
  }

  const found: ArchiveCounts = { samples: samples.length, trajectories: trajectories.length, phases: phases.length, metrics: metrics.length, screens: screens.length, checkpoints: checkpoints.length, groups: groups.length };
  for (const key of Object.keys(found) as (keyof ArchiveCounts)[]) {
    if (found[key] !== manifest.counts[key]) throw invalid(`the manifest lists ${manifest.counts[key]} ${key} but the file holds ${found[key]}`);
  }
  return { run, samples, trajectories, phases: phases.sort((a, b) => a.index - b.index), metrics, screens, checkpoints, groups };
}

// ---------------------------------------------------------------------------
// Files of the zip

function looksLikeZip(b: Uint8Array): boolean {
  // A local file header (PK\3\4), or the end record of an empty zip (PK\5\6).
  return b.length >= 4 && b[0] === 0x50 && b[1] === 0x4b && ((b[2] === 3 && b[3] === 4) || (b[2] === 5 && b[3] === 6));
}

function screenPath(hash: string): string {
  return `screens/${encodeURIComponent(hash)}.png`;
}

function checkpointPath(id: string, ext: 'json' | 'safetensors'): string {
  return `checkpoints/${encodeURIComponent(id)}.${ext}`;
}

function readManifest(bytes: Uint8Array): ArchiveManifest {
  let value: unknown;
  try {
    value = JSON.parse(text(bytes, MANIFEST));
  } catch {
    throw truncated();
  }
  if (!isObject(value) || value.format !== ARCHIVE_FORMAT) throw notAnExport('its manifest.json does not say format "coevo-run"');
  if (value.version !== ARCHIVE_VERSION) {
    throw new ImportError(`This run export has format version ${String(value.version)}, but this app reads version ${ARCHIVE_VERSION}; update the app, or export the run again from the app that made it. Nothing was imported.`);
  }
  const f = new Fields(value, MANIFEST);
  const counts = f.obj('counts');
  const files = f.obj('files');
  return {
    format: ARCHIVE_FORMAT,
    version: ARCHIVE_VERSION,
    runId: f.str('runId'),
    createdAt: f.num('createdAt'),
    counts: { samples: counts.int('samples'), trajectories: counts.int('trajectories'), phases: counts.int('phases'), metrics: counts.int('metrics'), screens: counts.int('screens'), checkpoints: counts.int('checkpoints'), groups: counts.has('groups') ? counts.int('groups') : 0 },
    files: Object.fromEntries(files.keys().map((path) => [path, { bytes: files.obj(path).int('bytes'), crc32: files.obj(path).int('crc32') }])),
  };
}

/** Every entry is listed in the manifest with its size and CRC-32, and every listed one is there intact. */
function checkFiles(entries: Record<string, Uint8Array>, manifest: ArchiveManifest): void {
  for (const path of Object.keys(entries)) {
    if (path !== MANIFEST && !(path in manifest.files)) throw invalid(`it holds ${path}, which its manifest does not list`);
  }
  for (const [path, { bytes, crc32: crc }] of Object.entries(manifest.files)) {
    const data = entries[path];
    // fflate does not check CRCs, so a damaged entry would otherwise read as other bytes.
    if (!data || data.length !== bytes || crc32(data) !== crc) throw truncated(`${path} is ${data ? 'damaged' : 'missing'}`);
  }
  for (const required of ROOT_FILES) {
    if (!(required in entries)) throw invalid(`it has no ${required}`);
  }
}

function text(bytes: Uint8Array, path: string): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw invalid(`${path} is not UTF-8 text`);
  }
}

function parseJson<T>(entries: Record<string, Uint8Array>, path: string, read: (v: unknown) => T): T {
  return read(parse(text(entries[path], path), path));
}

function parseLines<T>(entries: Record<string, Uint8Array>, path: string, read: (v: unknown, at: string) => T): T[] {
  const out: T[] = [];
  text(entries[path], path)
    .split('\n')
    .forEach((line, i) => {
      if (line.trim() === '') return;
      const at = `${path} line ${i + 1}`;
      out.push(read(parse(line, at), at));
    });
  return out;
}

function parse(s: string, at: string): unknown {
  try {
    return JSON.parse(s, (_key, v: unknown) => (isObject(v) && typeof v.$nonfinite === 'string' && Object.keys(v).length === 1 ? Number(v.$nonfinite) : v));
  } catch (e) {
    throw invalid(`${at} is not valid JSON (${e instanceof Error ? e.message : String(e)})`);
  }
}

function encode(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => (typeof v === 'number' && !Number.isFinite(v) ? { $nonfinite: String(v) } : v));
}

function json(value: unknown): Uint8Array {
  return strToU8(encode(value));
}

function jsonl(values: readonly unknown[]): Uint8Array {
  return strToU8(values.map((v) => encode(v) + '\n').join(''));
}

function screenRecord(path: string, bytes: Uint8Array): ScreenRecord {
  const m = /^screens\/([^/]+)\.png$/.exec(path);
  if (!m) throw invalid(`unexpected file ${path}`);
  // A PNG starts with its 8-byte signature and then the IHDR chunk: width and height as big-endian uint32.
  const signature = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  const isPng = bytes.length >= 24 && signature.every((b, i) => bytes[i] === b) && strFromU8(bytes.subarray(12, 16), true) === 'IHDR';
  if (!isPng) throw invalid(`${path} is not a PNG image`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return { hash: decodeURIComponent(m[1]), png: new Blob([bytes.slice()], { type: 'image/png' }), width: view.getUint32(16), height: view.getUint32(20) };
}

function checkpointRecord(entries: Record<string, Uint8Array>, path: string, runId: string): CheckpointRecord {
  const f = new Fields(parse(text(entries[path], path), path), path);
  const id = f.str('id');
  if (path !== checkpointPath(id, 'json')) throw invalid(`${path} holds checkpoint ${id}, which belongs in ${checkpointPath(id, 'json')}`);
  const weightsPath = checkpointPath(id, 'safetensors');
  const bytes = entries[weightsPath];
  if (!bytes) throw invalid(`checkpoint ${id} has no ${weightsPath}`);
  try {
    decodeSafetensors(bytes);
  } catch (e) {
    throw invalid(`${weightsPath} is not a readable safetensors file (${e instanceof Error ? e.message : String(e)})`);
  }
  return {
    id,
    runId: f.runId(runId),
    model: f.str('model'),
    iteration: f.int('iteration'),
    createdAt: f.num('createdAt'),
    config: f.scalars('config'),
    weights: bytes.slice().buffer,
  };
}

// ---------------------------------------------------------------------------
// Records: each field checked, each record rebuilt from its checked fields

const RUN_KINDS: Record<RunKind, true> = { 'tiny-regression': true, coevo: true };
const RUN_STATUSES: Record<RunStatus, true> = { running: true, done: true, failed: true };
const BACKENDS: Record<BackendName, true> = { webgpu: true, wasm: true, cpu: true };
const PLATFORMS: Record<Platform, true> = { web: true, mobile: true };
const ORIGINS: Record<SampleOrigin, true> = { seed: true, distilled: true };
const ACTION_TYPES: Record<ActionType, true> = { CLICK: true, TYPE: true, SELECT: true, SCROLL: true, BACK: true, OPEN_APP: true, DONE: true };
const CURATION_STAGES: Record<CurationNote['stage'], true> = { verifier: true, 'too-easy': true, misaligned: true, diversity: true };
const DECISIONS: Record<CurationNote['decision'], true> = { keep: true, drop: true };
const keys = <T extends string>(r: Record<T, true>): readonly T[] => Object.keys(r) as T[];

function runRecord(v: unknown, runId: string, at: string): RunRecord {
  const f = new Fields(v, at);
  if (f.str('id') !== runId) throw invalid(`${at} is run ${f.str('id')} but the manifest says ${runId}`);
  const cursor = f.optObj('cursor');
  return strip({
    id: runId,
    kind: f.oneOf('kind', keys(RUN_KINDS)),
    name: f.str('name'),
    createdAt: f.num('createdAt'),
    finishedAt: f.optNum('finishedAt'),
    status: f.oneOf('status', keys(RUN_STATUSES)),
    backend: f.oneOf('backend', keys(BACKENDS)),
    seed: f.num('seed'),
    config: f.scalars('config'),
    error: f.optStr('error'),
    cursor: cursor && { iteration: cursor.int('iteration'), phase: cursor.oneOf('phase', PHASES) },
  });
}

function stepSample(v: unknown, runId: string, at: string): StepSample {
  const f = new Fields(v, at);
  const box = f.optObj('box');
  return strip({
    id: f.str('id'),
    runId: f.runId(runId),
    iteration: f.int('iteration'),
    phase: f.oneOf('phase', PHASES),
    origin: f.oneOf('origin', keys(ORIGINS)),
    source: f.str('source'),
    task: taskOf(f.obj('task')),
    stepIndex: f.int('stepIndex'),
    platform: f.oneOf('platform', keys(PLATFORMS)),
    goal: f.str('goal'),
    instruction: f.str('instruction'),
    style: f.nullableOneOf('style', REF_STYLES),
    actionType: f.oneOf('actionType', keys(ACTION_TYPES)),
    value: f.optStr('value'),
    targetId: f.optStr('targetId'),
    box: box && boxOf(box),
    screenHash: f.optStr('screenHash'),
    kept: f.bool('kept'),
    curation: f.list('curation').map((n, i) => {
      const c = new Fields(n, `${at}: curation[${i}]`);
      return { stage: c.oneOf('stage', keys(CURATION_STAGES)), decision: c.oneOf('decision', keys(DECISIONS)), reason: c.str('reason') };
    }),
  });
}

function taskOf(t: Fields): Task {
  return {
    id: t.str('id'),
    templateId: t.str('templateId'),
    appId: t.str('appId'),
    domain: t.str('domain') as Domain,
    platform: t.oneOf('platform', keys(PLATFORMS)),
    variant: t.int('variant'),
    seed: t.num('seed'),
    params: t.strings('params'),
    goal: t.str('goal'),
  };
}

function boxOf(b: Fields): Box {
  return { x: b.num('x'), y: b.num('y'), w: b.num('w'), h: b.num('h') };
}

const WEIGHTINGS: Record<PlanWeighting, true> = { 'prior-confidence': true, prior: true, uniform: true, single: true };
const THEME_MODES = ['light', 'dark'] as const;
const DENSITIES = ['compact', 'comfortable'] as const;
const STATE_FLAGS = ['checked', 'selected', 'focused', 'disabled', 'expanded'] as const;

function groupRecord(v: unknown, runId: string, at: string): GroupRecord {
  const f = new Fields(v, at);
  const truth = f.obj('truth');
  const truthBox = truth.optObj('box');
  return {
    runId: f.runId(runId),
    iteration: f.int('iteration'),
    batch: f.int('batch'),
    group: f.int('group'),
    task: taskOf(f.obj('task')),
    stepIndex: f.int('stepIndex'),
    screen: screenOf(f.obj('screen')),
    goal: f.str('goal'),
    truth: strip({
      instruction: truth.str('instruction'),
      type: truth.oneOf('type', keys(ACTION_TYPES)),
      box: truthBox && boxOf(truthBox),
      value: truth.optStr('value'),
      targetId: truth.optStr('targetId'),
    }),
    pool: f.list('pool').map((m, i) => {
      const p = new Fields(m, `${at}: pool[${i}]`);
      return { name: p.str('name'), prior: p.num('prior') };
    }),
    weighting: f.oneOf('weighting', keys(WEIGHTINGS)),
    informative: f.bool('informative'),
    samples: f.list('samples').map((x, i) => groupSample(new Fields(x, `${at}: samples[${i}]`))),
  };
}

function groupSample(f: Fields): GroupSample {
  const r = f.obj('reward');
  return strip({
    instruction: f.str('instruction'),
    reasoning: f.optStr('reasoning'),
    parsed: f.bool('parsed'),
    actionType: f.nullableOneOf('actionType', keys(ACTION_TYPES)),
    style: f.nullableOneOf('style', REF_STYLES),
    groundings: f.objs('groundings').map((g): GroupGrounding => {
      const point = g.nullableObj('point');
      return { point: point && { x: point.num('x'), y: point.num('y') }, confidence: g.num('confidence'), hit: g.bool('hit') };
    }),
    reward: { type: r.num('type'), value: r.num('value'), plan: r.num('plan'), weights: r.numbers('weights'), hits: r.numbers('hits'), total: r.num('total') },
    advantage: f.num('advantage'),
  });
}

/** A stored Screen, rebuilt field by field so that the renderer meets only the shapes it knows. */
function screenOf(f: Fields): Screen {
  const theme = f.obj('theme');
  return {
    platform: f.oneOf('platform', keys(PLATFORMS)),
    width: f.int('width'),
    height: f.int('height'),
    appId: f.str('appId'),
    variant: f.int('variant'),
    screenId: f.str('screenId'),
    title: f.str('title'),
    theme: {
      mode: theme.oneOf('mode', THEME_MODES),
      accent: theme.str('accent') as Screen['theme']['accent'],
      font: theme.str('font') as FontFamily,
      density: theme.oneOf('density', DENSITIES),
      corner: theme.num('corner'),
    },
    elements: f.objs('elements').map((e): UIElement => {
      const state = e.obj('state');
      const style = e.optObj('style');
      return strip({
        id: e.str('id'),
        role: e.str('role') as Role,
        box: boxOf(e.obj('box')),
        text: e.optStr('text'),
        icon: e.optStr('icon') as UIElement['icon'],
        label: e.optStr('label'),
        color: e.optStr('color') as UIElement['color'],
        purpose: e.optStr('purpose'),
        state: strip({
          ...Object.fromEntries(STATE_FLAGS.map((k) => [k, state.optBool(k)])),
          value: state.optStr('value'),
          level: state.optNum('level'),
        }),
        interactive: e.bool('interactive'),
        parent: e.optStr('parent'),
        style: style && { family: style.str('family') as FontFamily, size: style.num('size'), weight: style.num('weight') as TextStyle['weight'] },
      });
    }),
  };
}

function trajectoryRecord(v: unknown, runId: string, at: string): TrajectoryRecord {
  const f = new Fields(v, at);
  const hashes = f.has('screenHashes') ? f.list('screenHashes').map((h, i) => (typeof h === 'string' ? h : fail(`${at}: screenHashes[${i}] must be a string`))) : undefined;
  return strip({ id: f.str('id'), runId: f.runId(runId), iteration: f.int('iteration'), taskId: f.str('taskId'), steps: f.list('steps'), screenHashes: hashes });
}

function phaseRecord(v: unknown, runId: string, at: string): PhaseRecord {
  const f = new Fields(v, at);
  const summary = f.obj('summary');
  return {
    runId: f.runId(runId),
    index: f.int('index'),
    iteration: f.int('iteration'),
    phase: f.oneOf('phase', PHASES),
    startedAt: f.num('startedAt'),
    finishedAt: f.num('finishedAt'),
    summary: Object.fromEntries(summary.keys().map((k) => [k, summary.numOrStr(k)])),
  };
}

function metricRecord(v: unknown, runId: string, at: string): MetricRecord {
  const f = new Fields(v, at);
  const steps = f.numbers('steps');
  const values = f.numbers('values');
  if (steps.length !== values.length) throw invalid(`${at} has ${steps.length} steps but ${values.length} values`);
  return { runId, name: f.str('name'), steps, values };
}

function list(v: unknown, at: string): unknown[] {
  if (!Array.isArray(v)) throw invalid(`${at} must be a JSON array`);
  return v;
}

function unique(ids: string[], at: string, what: string): void {
  const seen = new Set<string>();
  for (const id of ids) {
    if (seen.has(id)) throw invalid(`${at} has the ${what} ${id} twice`);
    seen.add(id);
  }
}

function fail(why: string): never {
  throw invalid(why);
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Drops keys whose value is undefined, so optional fields stay absent rather than present-and-undefined. */
function strip<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}

/** Typed reads of one JSON object's fields; a missing or mistyped field is an ImportError naming it. */
class Fields {
  private readonly o: Record<string, unknown>;
  constructor(value: unknown, private readonly at: string) {
    if (!isObject(value)) fail(`${at} must be a JSON object`);
    this.o = value;
  }
  private bad(key: string, what: string): never {
    return fail(`${this.at}: field '${key}' must be ${what} (found ${JSON.stringify(this.o[key]) ?? 'nothing'})`);
  }
  keys(): string[] {
    return Object.keys(this.o);
  }
  has(key: string): boolean {
    return this.o[key] !== undefined;
  }
  str(key: string): string {
    const v = this.o[key];
    return typeof v === 'string' ? v : this.bad(key, 'a string');
  }
  optStr(key: string): string | undefined {
    return this.has(key) ? this.str(key) : undefined;
  }
  num(key: string): number {
    const v = this.o[key];
    return typeof v === 'number' ? v : this.bad(key, 'a number');
  }
  optNum(key: string): number | undefined {
    return this.has(key) ? this.num(key) : undefined;
  }
  int(key: string): number {
    const v = this.o[key];
    return typeof v === 'number' && Number.isInteger(v) && v >= 0 ? v : this.bad(key, 'an integer ≥ 0');
  }
  bool(key: string): boolean {
    const v = this.o[key];
    return typeof v === 'boolean' ? v : this.bad(key, 'true or false');
  }
  optBool(key: string): boolean | undefined {
    return this.has(key) ? this.bool(key) : undefined;
  }
  numOrStr(key: string): number | string {
    const v = this.o[key];
    return typeof v === 'number' || typeof v === 'string' ? v : this.bad(key, 'a number or a string');
  }
  oneOf<T extends string>(key: string, allowed: readonly T[]): T {
    const v = this.o[key];
    return allowed.includes(v as T) ? (v as T) : this.bad(key, `one of ${allowed.join(', ')}`);
  }
  nullableOneOf<T extends string>(key: string, allowed: readonly T[]): T | null {
    return this.o[key] === null ? null : this.oneOf(key, allowed);
  }
  runId(expected: string): string {
    const v = this.str('runId');
    return v === expected ? v : this.bad('runId', `the exported run's id ${expected}`);
  }
  list(key: string): unknown[] {
    const v = this.o[key];
    return Array.isArray(v) ? v : this.bad(key, 'an array');
  }
  numbers(key: string): number[] {
    const v = this.list(key);
    return v.every((x) => typeof x === 'number') ? (v as number[]) : this.bad(key, 'an array of numbers');
  }
  obj(key: string): Fields {
    return isObject(this.o[key]) ? new Fields(this.o[key], `${this.at}: ${key}`) : this.bad(key, 'an object');
  }
  optObj(key: string): Fields | undefined {
    return this.has(key) ? this.obj(key) : undefined;
  }
  nullableObj(key: string): Fields | null {
    return this.o[key] === null ? null : this.obj(key);
  }
  objs(key: string): Fields[] {
    return this.list(key).map((v, i) => new Fields(v, `${this.at}: ${key}[${i}]`));
  }
  strings(key: string): Record<string, string> {
    const o = this.obj(key);
    return Object.fromEntries(o.keys().map((k) => [k, o.str(k)]));
  }
  scalars(key: string): Record<string, number | string | boolean> {
    const o = this.obj(key);
    return Object.fromEntries(
      o.keys().map((k) => {
        const v = o.o[k];
        return [k, typeof v === 'number' || typeof v === 'string' || typeof v === 'boolean' ? v : o.bad(k, 'a number, string or boolean')];
      }),
    );
  }
}

// ---------------------------------------------------------------------------

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

/** CRC-32 as zip and PNG use it (IEEE 802.3). */
export function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (let i = 0; i < bytes.length; i++) c = CRC_TABLE[(c ^ bytes[i]) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
