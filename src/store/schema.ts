/**
 * The IndexedDB schema: record types, store names and the migrations that
 * build each version from the one before. Bump DB_VERSION only by adding a
 * migration; never edit an old one, since browsers out there hold its result.
 */
import type { DBSchema, IDBPDatabase, IDBPTransaction, StoreNames } from 'idb';
import type { GroupRecord } from '../coevo/groupRecords';
import type { PhaseCursor, PhaseName, StepSample } from '../coevo/records';
import type { TensorData } from '../models/safetensors';
import type { OptimizerState } from '../models/optimizerState';
import type { OffsiteOptions } from '../offsite/jobTypes';
import type { OffsiteReport } from '../offsite/report';
import type { ScaleChoice } from '../ownScreen/tiles';
import type { Box } from '../world/types';

export const DB_NAME = 'coevo';
export const DB_VERSION = 6;

export type RunKind = 'tiny-regression' | 'coevo';
/** running: to be driven on (by the tab that drives it, or the next one that opens it); paused: waits for a person. */
export type RunStatus = 'running' | 'paused' | 'done' | 'failed';
export type BackendName = 'webgpu' | 'wasm' | 'cpu';

export interface RunRecord {
  id: string;
  kind: RunKind;
  name: string;
  createdAt: number; // ms since epoch
  finishedAt?: number;
  status: RunStatus;
  backend: BackendName;
  seed: number;
  config: Record<string, number | string | boolean>;
  error?: string;
  /** The next phase a co-evolution run will run; absent before its first phase. A run whose plan is finished has status 'done'. */
  cursor?: PhaseCursor;
}

/** One named series of a run (a loss curve, a reward curve): x = step, y = value. */
export interface MetricRecord {
  runId: string;
  name: string;
  steps: number[];
  values: number[];
}

export interface ScreenRecord {
  hash: string; // content hash of the PNG: identical screens are stored once
  png: Blob;
  width: number;
  height: number;
}

export interface TrajectoryRecord {
  id: string;
  runId: string;
  iteration: number;
  taskId: string;
  steps: unknown[];
  /** The screens its steps show: deleting a run keeps a screen while any trajectory or sample still lists it. */
  screenHashes?: string[];
}

/**
 * A StepSample as stored: the sample itself in `data`, and beside it the
 * fields the indexes read. `kept` is 0/1 because booleans are not valid
 * IndexedDB keys, and counting a run's kept samples per iteration must not
 * read every sample.
 */
export interface SampleRecord {
  id: string;
  runId: string;
  iteration: number;
  kept: 0 | 1;
  data: StepSample;
}

/** Version 2's sample record (nothing released wrote one, but a database may hold some). */
export interface SampleRecordV2 {
  id: string;
  runId: string;
  iteration: number;
  source: string;
  data: unknown;
}

/** One finished phase of a run, written by the same transaction as its outputs. */
export interface PhaseRecord {
  runId: string;
  /** 0-based position in the run's phase plan. */
  index: number;
  iteration: number;
  phase: PhaseName;
  startedAt: number; // ms since epoch
  finishedAt: number;
  /** Headline numbers of the phase; the keys the report reads are defined in src/coevo/report.ts. */
  summary: Record<string, number | string>;
}

export interface CheckpointRecord {
  id: string;
  runId: string;
  model: string; // 'planner' | 'grounder' | ...
  iteration: number;
  createdAt: number;
  config: Record<string, number | string | boolean>;
  weights: ArrayBuffer; // safetensors bytes
}

/**
 * The phase in progress of a run, as its last mid-phase save left it
 * (coevo/phaseJournal.ts): a reload continues the phase from here. One per
 * run, replaced by each save and deleted by the transaction that commits
 * the finished phase.
 */
export interface ProgressRecord {
  runId: string;
  iteration: number;
  phase: PhaseName;
  /** Batches of the phase done when it was saved: the next one to run has this index. */
  batches: number;
  /** What each of those batches returned (structured clones), in order. */
  results: unknown[];
  /** After each of those batches, the states of the phase's random streams, in the order the phase made them. */
  randoms: number[][];
  /** The weights the phase was training (and any copies it trained against), by name; empty when it trains none. */
  tensors: Record<string, TensorData>;
  optimizer: OptimizerState | null;
  /** When the phase first started, and how long it had run (paused time not counted), for its record. */
  startedAt: number;
  activeMs: number;
  savedAt: number;
}

/**
 * One offsite comparison started from the Offsite view: written when it
 * starts, so that a reload mid-comparison (the worker dies with the page)
 * shows what was running and how far it got, and again when it ends, with
 * the report. Small (a few kB): rows, emulators, scores.
 */
export interface OffsiteRecord {
  id: string;
  createdAt: number;
  options: OffsiteOptions;
  state: 'running' | 'done' | 'failed';
  /** The last phase it was seen in and its training steps done of all, kept while it runs. */
  phase: string;
  done: number;
  total: number;
  report?: OffsiteReport;
  error?: string;
  finishedAt?: number;
}

/**
 * A person's screenshot with the target they marked in the Playground: the
 * data owner's private set for offsite tuning. The file is kept as given
 * (decoded again when used) and leaves this store only when the person asks.
 */
export interface PrivateShotRecord {
  id: string;
  createdAt: number;
  name: string;
  bytes: ArrayBuffer;
  /** The file's own size, in whose px the box is. */
  width: number;
  height: number;
  /** How the Playground scaled it (its text size), as the grounder will see it. */
  scale: ScaleChoice;
  instruction: string;
  box: Box;
}

export interface CoevoDB extends DBSchema {
  runs: { key: string; value: RunRecord; indexes: { byCreated: number } };
  metrics: { key: [string, string]; value: MetricRecord; indexes: { byRun: string } };
  screens: { key: string; value: ScreenRecord };
  trajectories: { key: string; value: TrajectoryRecord; indexes: { byRun: string; byScreen: string } };
  samples: { key: string; value: SampleRecord; indexes: { byRun: string; byIterationKept: [string, number, number]; byScreen: string } };
  checkpoints: { key: string; value: CheckpointRecord; indexes: { byRun: string } };
  phases: { key: [string, number]; value: PhaseRecord; indexes: { byRun: string } };
  /** GRPO groups kept for the inspector, keyed [runId, iteration, batch, group] so one batch is one key range. */
  groups: { key: [string, number, number, number]; value: GroupRecord };
  progress: { key: string; value: ProgressRecord };
  offsite: { key: string; value: OffsiteRecord; indexes: { byCreated: number } };
  privateShots: { key: string; value: PrivateShotRecord; indexes: { byCreated: number } };
}

/** Version 1, as the first release wrote it: loss curves lived inside the run record. */
export interface RunRecordV1 extends Omit<RunRecord, 'seed'> {
  losses: number[];
}

type UpgradeTx = IDBPTransaction<CoevoDB, StoreNames<CoevoDB>[], 'versionchange'>;

export const MIGRATIONS: ReadonlyArray<(db: IDBPDatabase<CoevoDB>, tx: UpgradeTx) => Promise<void> | void> = [
  // 0 → 1: runs with inline loss arrays.
  (db) => {
    db.createObjectStore('runs', { keyPath: 'id' }).createIndex('byCreated', 'createdAt');
  },
  // 1 → 2: every artifact store of the design; curves move out of runs into metrics.
  async (db, tx) => {
    db.createObjectStore('metrics', { keyPath: ['runId', 'name'] }).createIndex('byRun', 'runId');
    db.createObjectStore('screens', { keyPath: 'hash' });
    db.createObjectStore('trajectories', { keyPath: 'id' }).createIndex('byRun', 'runId');
    db.createObjectStore('samples', { keyPath: 'id' }).createIndex('byRun', 'runId');
    db.createObjectStore('checkpoints', { keyPath: 'id' }).createIndex('byRun', 'runId');
    const runs = tx.objectStore('runs');
    const metrics = tx.objectStore('metrics');
    for (let cursor = await runs.openCursor(); cursor; cursor = await cursor.continue()) {
      const old = cursor.value as unknown as RunRecordV1;
      const { losses, ...rest } = old;
      await metrics.put({ runId: old.id, name: 'loss', steps: losses.map((_, i) => i + 1), values: losses });
      await cursor.update({ ...rest, seed: 0 });
    }
  },
  // 2 → 3: finished phases; samples hold a StepSample with indexes to count them by iteration and to find who shows a screen.
  async (db, tx) => {
    db.createObjectStore('phases', { keyPath: ['runId', 'index'] }).createIndex('byRun', 'runId');
    const samples = tx.objectStore('samples');
    samples.createIndex('byIterationKept', ['runId', 'iteration', 'kept']);
    samples.createIndex('byScreen', 'data.screenHash');
    tx.objectStore('trajectories').createIndex('byScreen', 'screenHashes', { multiEntry: true });
    for (let cursor = await samples.openCursor(); cursor; cursor = await cursor.continue()) {
      const old = cursor.value as unknown as SampleRecordV2;
      const kept = (old.data as { kept?: unknown } | null)?.kept === true ? 1 : 0;
      await cursor.update({ id: old.id, runId: old.runId, iteration: old.iteration, kept, data: old.data as StepSample });
    }
  },
  // 3 → 4: planner GRPO groups for the inspector (older runs simply have none).
  (db) => {
    db.createObjectStore('groups', { keyPath: ['runId', 'iteration', 'batch', 'group'] });
  },
  // 4 → 5: the phase in progress, saved every few batches so a reload resumes it (older runs resume at their last phase).
  (db) => {
    db.createObjectStore('progress', { keyPath: 'runId' });
  },
  // 5 → 6: offsite comparisons started from the Offsite view, apart from runs (they train no run's models), and the screenshots people marked for them.
  (db) => {
    db.createObjectStore('offsite', { keyPath: 'id' }).createIndex('byCreated', 'createdAt');
    db.createObjectStore('privateShots', { keyPath: 'id' }).createIndex('byCreated', 'createdAt');
  },
];
