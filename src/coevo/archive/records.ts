/**
 * The schema of every JSON record of an export: each field checked (type,
 * range, length) and each record rebuilt from its checked fields only, so
 * nothing the schema does not know reaches the store.
 *
 * Numbers are finite everywhere except in what training measured: metric
 * curves and phase summaries may hold NaN or ±Infinity (a diverged loss is
 * a true record; the charts and tables show it as a gap or a dash), exactly
 * as the app stores them when it trains.
 */
import type { MetricRecord, PhaseRecord, RunKind, RunRecord, RunStatus, BackendName, TrajectoryRecord } from '../../store/schema';
import type { ActionType, Box, Domain, Platform, Task } from '../../world/types';
import { REF_STYLES } from '../../world/types';
import { CONFIG_FIELDS, ConfigError, checkStoredField, isConfigPath, validateConfig, type CoevoConfig } from '../config';
import { PHASES, type CurationNote, type SampleOrigin, type StepSample } from '../records';
import { Fields, SAFE, type Range } from './fields';
import { fail, invalid, isObject, parse, show } from './format';
import { TEXT_LIMITS } from './limits';

const keys = <T extends string>(r: Record<T, true>): readonly T[] => Object.keys(r) as T[];
export const PLATFORMS = keys<Platform>({ web: true, mobile: true });
export const ACTION_TYPES = keys<ActionType>({ CLICK: true, TYPE: true, SELECT: true, SCROLL: true, BACK: true, OPEN_APP: true, DONE: true });
const RUN_KINDS = keys<RunKind>({ 'tiny-regression': true, coevo: true });
const RUN_STATUSES = keys<RunStatus>({ running: true, paused: true, done: true, failed: true });
const BACKENDS = keys<BackendName>({ webgpu: true, wasm: true, cpu: true });
const ORIGINS = keys<SampleOrigin>({ seed: true, distilled: true });
const CURATION_STAGES = keys<CurationNote['stage']>({ verifier: true, 'too-easy': true, misaligned: true, diversity: true });
const DECISIONS = keys<CurationNote['decision']>({ keep: true, drop: true });

const iterationsSpec = CONFIG_FIELDS.iterations.spec;
/** A run has at most as many iterations as the config allows (iteration 0 is the seed phases). */
export const MAX_ITERATION = iterationsSpec.kind === 'integer' ? iterationsSpec.max : 10;
/** Steps of an episode, variants of an app, positions in a phase plan, batches, groups: generous, but not array-sized. */
export const MAX_INDEX = 100_000;
/** Screen coordinates in pixels: a screen is at most 16384 pixels a side. */
export const MAX_SIDE = 16_384;
const COORD: Range = { min: -MAX_SIDE, max: 2 * MAX_SIDE };
/** A target box has an area; an element's box may be empty (layout can give an element no width). */
const TARGET_SIZE: Range = { min: 0, max: 2 * MAX_SIDE, above: true };
export const ELEMENT_SIZE: Range = { min: 0, max: 2 * MAX_SIDE };

export function runRecord(v: unknown, runId: string, at: string): RunRecord {
  const f = new Fields(v, at);
  const id = f.id('id');
  if (id !== runId) throw invalid(`${at} is run ${show(id)} but the manifest says ${runId}`);
  const cursor = f.optObj('cursor');
  const kind = f.oneOf('kind', RUN_KINDS);
  const finishedAt = f.optTime('finishedAt');
  const createdAt = f.time('createdAt');
  return strip({
    id: runId,
    kind,
    name: f.name('name'),
    createdAt,
    finishedAt,
    status: f.oneOf('status', RUN_STATUSES),
    backend: f.oneOf('backend', BACKENDS),
    seed: f.num('seed', SAFE),
    config: kind === 'coevo' ? coevoConfig(f.obj('config')) : f.scalars('config'),
    error: f.optStr('error'),
    cursor: cursor && { iteration: cursor.int('iteration', MAX_ITERATION), phase: cursor.oneOf('phase', PHASES) },
  });
}

/**
 * A co-evolution run's config as runner.ts stores it: every field flat under
 * its dotted name and the whole config as JSON under 'json'. Each is held to
 * the range validateConfig (and `--set`) uses, and the flat fields (which the
 * views read) must agree with the JSON (which a resumed run reads).
 */
function coevoConfig(c: Fields): RunRecord['config'] {
  const flat = c.ownScalars();
  const out: RunRecord['config'] = {};
  let whole: CoevoConfig | undefined;
  if (c.has('json')) {
    const text = c.str('json', TEXT_LIMITS.configJson);
    whole = checked(c.at, 'json', () => validateConfig(parse(text, `${c.at}: json`)));
    out.json = text;
  }
  for (const [key, value] of Object.entries(flat)) {
    if (key === 'json') continue;
    // Fields of older or newer apps that this one does not know are kept as they are (scalars, bounded).
    if (isConfigPath(key)) {
      checked(c.at, key, () => checkStoredField(key, value));
      if (whole && value !== storedValue(whole, key)) c.bad(key, `${show(storedValue(whole, key))}, as in the config's json`);
    }
    out[key] = value;
  }
  return out;
}

/** The value runner.ts configRecord stores flat for one dotted field. */
function storedValue(config: CoevoConfig, path: string): unknown {
  if (path === 'rewardPool') return config.rewardPool.map((e) => `${e.name}:${e.prior}`).join(',');
  const [head, leaf] = path.split('.');
  const v = (config as unknown as Record<string, unknown>)[head];
  return leaf === undefined ? v : isObject(v) ? v[leaf] : undefined;
}

function checked<T>(at: string, key: string, read: () => T): T {
  try {
    return read();
  } catch (e) {
    if (e instanceof ConfigError) throw invalid(`${at}: field '${key}': ${e.message}`);
    throw e;
  }
}

export function stepSample(v: unknown, runId: string, at: string): StepSample {
  const f = new Fields(v, at);
  const box = f.optObj('box');
  return strip({
    id: f.id('id'),
    runId: f.runId(runId),
    iteration: f.int('iteration', MAX_ITERATION),
    phase: f.oneOf('phase', PHASES),
    origin: f.oneOf('origin', ORIGINS),
    source: f.name('source'),
    task: taskOf(f.obj('task')),
    stepIndex: f.int('stepIndex', MAX_INDEX),
    platform: f.oneOf('platform', PLATFORMS),
    goal: f.str('goal'),
    instruction: f.str('instruction'),
    style: f.nullableOneOf('style', REF_STYLES),
    actionType: f.oneOf('actionType', ACTION_TYPES),
    value: f.optStr('value'),
    targetId: f.optId('targetId'),
    box: box && targetBox(box),
    screenHash: f.optId('screenHash'),
    kept: f.bool('kept'),
    curation: f.objs('curation').map((c) => ({ stage: c.oneOf('stage', CURATION_STAGES), decision: c.oneOf('decision', DECISIONS), reason: c.str('reason') })),
  });
}

export function taskOf(t: Fields): Task {
  return {
    id: t.id('id'),
    templateId: t.id('templateId'),
    appId: t.id('appId'),
    domain: t.name('domain') as Domain,
    platform: t.oneOf('platform', PLATFORMS),
    variant: t.int('variant', MAX_INDEX),
    seed: t.num('seed', SAFE),
    params: t.strings('params'),
    goal: t.str('goal'),
  };
}

/** A box on a screen: (x, y) its top-left corner, w and h positive. */
export function targetBox(b: Fields): Box {
  return { x: b.num('x', COORD), y: b.num('y', COORD), w: b.num('w', TARGET_SIZE), h: b.num('h', TARGET_SIZE) };
}

export function elementBox(b: Fields): Box {
  return { x: b.num('x', COORD), y: b.num('y', COORD), w: b.num('w', ELEMENT_SIZE), h: b.num('h', ELEMENT_SIZE) };
}

export function trajectoryRecord(v: unknown, runId: string, at: string): TrajectoryRecord {
  const f = new Fields(v, at);
  const hashes = f.has('screenHashes') ? f.list('screenHashes').map((h, i) => (typeof h === 'string' && h.length > 0 && h.length <= TEXT_LIMITS.id ? h : fail(`${at}: screenHashes[${i}] must be a screen hash (a string of 1 to ${TEXT_LIMITS.id} characters)`))) : undefined;
  const steps = f.list('steps');
  steps.forEach((s, i) => plainJson(s, `${at}: steps[${i}]`, 0));
  return strip({ id: f.id('id'), runId: f.runId(runId), iteration: f.int('iteration', MAX_ITERATION), taskId: f.id('taskId'), steps, screenHashes: hashes });
}

/** Steps of a trajectory are free JSON: still no NaN or Infinity, no huge strings, and no nesting deeper than a step needs. */
function plainJson(v: unknown, at: string, depth: number): void {
  if (depth > 16) fail(`${at} nests deeper than 16 levels`);
  if (typeof v === 'number' && !Number.isFinite(v)) fail(`${at} holds the number ${v}; only finite numbers are allowed there`);
  if (typeof v === 'string' && v.length > TEXT_LIMITS.text) fail(`${at} holds a string longer than ${TEXT_LIMITS.text} characters`);
  if (Array.isArray(v)) v.forEach((x, i) => plainJson(x, `${at}[${i}]`, depth + 1));
  else if (isObject(v)) for (const [k, x] of Object.entries(v)) plainJson(x, `${at}.${k}`, depth + 1);
}

export function phaseRecord(v: unknown, runId: string, at: string): PhaseRecord {
  const f = new Fields(v, at);
  const summary = f.obj('summary');
  return {
    runId: f.runId(runId),
    index: f.int('index', MAX_INDEX),
    iteration: f.int('iteration', MAX_ITERATION),
    phase: f.oneOf('phase', PHASES),
    startedAt: f.time('startedAt'),
    finishedAt: f.time('finishedAt'),
    // Measurements: a diverged loss is NaN here as it was in the run.
    summary: Object.fromEntries(
      summary.keys().map((k) => {
        if (k.length > TEXT_LIMITS.name) fail(`${summary.at} has a key longer than ${TEXT_LIMITS.name} characters`);
        const x = summary.raw(k);
        return [k, typeof x === 'number' ? x : summary.str(k)];
      }),
    ),
  };
}

export function metricRecord(v: unknown, runId: string, at: string): MetricRecord {
  const f = new Fields(v, at);
  const steps = f.list('steps');
  if (!steps.every((s) => typeof s === 'number' && Number.isInteger(s) && s >= 0 && s <= Number.MAX_SAFE_INTEGER)) f.bad('steps', 'an array of integers ≥ 0');
  // Measurements: NaN or ±Infinity (a diverged loss) stays, as the app itself records and charts it.
  const values = f.list('values');
  if (!values.every((x) => typeof x === 'number')) f.bad('values', 'an array of numbers');
  if (steps.length !== values.length) throw invalid(`${at} has ${steps.length} steps but ${values.length} values`);
  return { runId, name: f.name('name'), steps: steps as number[], values: values as number[] };
}

export function list(v: unknown, at: string): unknown[] {
  if (!Array.isArray(v)) throw invalid(`${at} must be a JSON array`);
  return v;
}

export function unique(ids: string[], at: string, what: string): void {
  const seen = new Set<string>();
  for (const id of ids) {
    if (seen.has(id)) throw invalid(`${at} has the ${what} ${id} twice`);
    seen.add(id);
  }
}

/** Drops keys whose value is undefined, so optional fields stay absent rather than present-and-undefined. */
export function strip<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}
