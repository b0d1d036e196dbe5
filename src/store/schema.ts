/**
 * The IndexedDB schema: record types, store names and the migrations that
 * build each version from the one before. Bump DB_VERSION only by adding a
 * migration; never edit an old one, since browsers out there hold its result.
 */
import type { DBSchema, IDBPDatabase, IDBPTransaction, StoreNames } from 'idb';

export const DB_NAME = 'coevo';
export const DB_VERSION = 2;

export type RunKind = 'tiny-regression' | 'coevo';
export type RunStatus = 'running' | 'done' | 'failed';
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
}

export interface SampleRecord {
  id: string;
  runId: string;
  iteration: number;
  source: string; // 'seed' or the model that produced it
  data: unknown;
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

export interface CoevoDB extends DBSchema {
  runs: { key: string; value: RunRecord; indexes: { byCreated: number } };
  metrics: { key: [string, string]; value: MetricRecord; indexes: { byRun: string } };
  screens: { key: string; value: ScreenRecord };
  trajectories: { key: string; value: TrajectoryRecord; indexes: { byRun: string } };
  samples: { key: string; value: SampleRecord; indexes: { byRun: string } };
  checkpoints: { key: string; value: CheckpointRecord; indexes: { byRun: string } };
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
];
