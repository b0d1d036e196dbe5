/**
 * The typed API over IndexedDB. This is the only module that opens the
 * database; the UI reads through it and the engine worker writes through it.
 */
import { openDB, type IDBPDatabase } from 'idb';
import { DB_NAME, DB_VERSION, MIGRATIONS, type CheckpointRecord, type CoevoDB, type MetricRecord, type RunRecord } from './schema';

export class StoreError extends Error {
  override name = 'StoreError';
}

/** Stores whose records belong to one run and go when the run is deleted. */
const PER_RUN = ['metrics', 'trajectories', 'samples', 'checkpoints'] as const;

export class Store {
  private constructor(private readonly db: IDBPDatabase<CoevoDB>) {}

  static async open(name: string = DB_NAME, version: number = DB_VERSION): Promise<Store> {
    if (typeof indexedDB === 'undefined') {
      throw new StoreError('This browser has no IndexedDB, so runs cannot be saved. Use a current Chrome, Edge or Firefox outside private mode.');
    }
    const db = await openDB<CoevoDB>(name, version, {
      async upgrade(db, oldVersion, newVersion, tx) {
        for (let v = oldVersion; v < (newVersion ?? version); v++) await MIGRATIONS[v](db, tx);
      },
      blocked() {
        // Another tab holds an older version open; it gets a versionchange event and closes.
      },
    });
    // Let a newer version in another tab upgrade instead of waiting on us forever.
    db.addEventListener('versionchange', () => db.close());
    return new Store(db);
  }

  close(): void {
    this.db.close();
  }

  async putRun(run: RunRecord): Promise<void> {
    await guard(this.db.put('runs', run));
  }

  async updateRun(id: string, patch: Partial<Omit<RunRecord, 'id'>>): Promise<RunRecord> {
    const tx = this.db.transaction('runs', 'readwrite');
    const run = await tx.store.get(id);
    if (!run) throw new StoreError(`No run with id ${id}.`);
    const next = { ...run, ...patch };
    await guard(tx.store.put(next));
    await tx.done;
    return next;
  }

  getRun(id: string): Promise<RunRecord | undefined> {
    return this.db.get('runs', id);
  }

  /** All runs, newest first. */
  async listRuns(): Promise<RunRecord[]> {
    return (await this.db.getAllFromIndex('runs', 'byCreated')).reverse();
  }

  /** Deletes a run and everything recorded for it, in one transaction. */
  async deleteRun(id: string): Promise<void> {
    const tx = this.db.transaction(['runs', ...PER_RUN], 'readwrite');
    await tx.objectStore('runs').delete(id);
    for (const name of PER_RUN) {
      const index = tx.objectStore(name).index('byRun');
      for (let c = await index.openKeyCursor(id); c; c = await c.continue()) {
        await tx.objectStore(name).delete(c.primaryKey);
      }
    }
    await tx.done;
  }

  /** Appends points to a run's named series (created on first use). */
  async appendMetric(runId: string, name: string, steps: number[], values: number[]): Promise<void> {
    if (steps.length !== values.length) throw new StoreError(`Metric ${name}: ${steps.length} steps but ${values.length} values.`);
    const tx = this.db.transaction('metrics', 'readwrite');
    const prev = (await tx.store.get([runId, name])) ?? { runId, name, steps: [], values: [] };
    await guard(tx.store.put({ runId, name, steps: prev.steps.concat(steps), values: prev.values.concat(values) }));
    await tx.done;
  }

  async putCheckpoint(record: CheckpointRecord): Promise<void> {
    await guard(this.db.put('checkpoints', record));
  }

  getCheckpoint(id: string): Promise<CheckpointRecord | undefined> {
    return this.db.get('checkpoints', id);
  }

  /** A run's checkpoints, oldest iteration first. */
  async listCheckpoints(runId: string): Promise<CheckpointRecord[]> {
    return (await this.db.getAllFromIndex('checkpoints', 'byRun', runId)).sort((a, b) => a.iteration - b.iteration || a.createdAt - b.createdAt);
  }

  getMetric(runId: string, name: string): Promise<MetricRecord | undefined> {
    return this.db.get('metrics', [runId, name]);
  }

  getMetrics(runId: string): Promise<MetricRecord[]> {
    return this.db.getAllFromIndex('metrics', 'byRun', runId);
  }
}

/** Turns a full disk into an error a person can act on. */
async function guard<T>(p: Promise<T>): Promise<T> {
  try {
    return await p;
  } catch (e) {
    if (e instanceof DOMException && e.name === 'QuotaExceededError') {
      throw new StoreError('The browser refused to store more data: the disk or this site\'s storage quota is full. Delete old runs or free disk space; nothing from before this write was lost.');
    }
    throw e;
  }
}
