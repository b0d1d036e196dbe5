/**
 * The typed API over IndexedDB. This is the only module that opens the
 * database; the UI reads through it and the engine worker writes through it.
 */
import { openDB, type IDBPDatabase, type IDBPTransaction, type StoreNames } from 'idb';
import type { GroupRecord } from '../coevo/groupRecords';
import type { StepSample } from '../coevo/records';
import {
  DB_NAME,
  DB_VERSION,
  MIGRATIONS,
  type CheckpointRecord,
  type CoevoDB,
  type MetricRecord,
  type OffsiteRecord,
  type PrivateShotRecord,
  type PhaseRecord,
  type ProgressRecord,
  type RunRecord,
  type SampleRecord,
  type ScreenRecord,
  type TrajectoryRecord,
} from './schema';

export class StoreError extends Error {
  override name = 'StoreError';
}

/** Points to append to one named series of the run. */
export interface MetricPoints {
  name: string;
  steps: number[];
  values: number[];
}

/** Everything one finished phase produced; Store.commitPhase writes it all or nothing. */
export interface PhaseCommit {
  phase: PhaseRecord;
  samples?: StepSample[];
  trajectories?: TrajectoryRecord[];
  screens?: ScreenRecord[];
  checkpoints?: CheckpointRecord[];
  /** Appended to the run's series (see commitPhase for a recommitted phase). */
  metrics?: MetricPoints[];
  /** GRPO groups for the inspector; they replace any the run holds for the same iterations. */
  groups?: GroupRecord[];
  /** Applied to the run record, e.g. the next cursor and, after the last phase, status 'done'. */
  runPatch?: Partial<Omit<RunRecord, 'id'>>;
}

/** A whole run as Store.restoreRun writes it (the import of an exported run). */
export interface RunBundle {
  run: RunRecord;
  samples: StepSample[];
  trajectories: TrajectoryRecord[];
  phases: PhaseRecord[];
  metrics: MetricRecord[];
  screens: ScreenRecord[];
  checkpoints: CheckpointRecord[];
  /** Absent in exports made before groups were kept. */
  groups?: GroupRecord[];
}

/** One planner GRPO batch that has recorded groups. */
export interface GroupBatch {
  iteration: number;
  batch: number;
  groups: number;
}

export interface SampleCounts {
  total: number;
  kept: number;
  /** All samples (kept and dropped) per iteration. */
  byIteration: Record<number, number>;
  keptByIteration: Record<number, number>;
}

type AnyTx = IDBPTransaction<CoevoDB, StoreNames<CoevoDB>[], 'readwrite'>;

/** Stores whose records belong to one run and go when the run is deleted. */
const PER_RUN = ['metrics', 'trajectories', 'samples', 'checkpoints', 'phases', 'groups', 'progress'] as const;

const QUOTA_MESSAGE =
  "The browser refused to store more data: the disk or this site's storage quota is full. Delete old runs or free disk space; nothing from before this write was lost.";

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

  /**
   * Deletes a run and everything recorded for it, in one transaction.
   * Screens are content-addressed and may be shared between runs, so a
   * screen this run's samples or trajectories show goes only when no other
   * run's sample or trajectory still shows it.
   */
  async putOffsite(rec: OffsiteRecord): Promise<void> {
    await guard(this.db.put('offsite', rec));
  }

  /** Offsite comparisons, newest first. */
  async listOffsite(): Promise<OffsiteRecord[]> {
    return (await this.db.getAllFromIndex('offsite', 'byCreated')).reverse();
  }

  async deleteOffsite(id: string): Promise<void> {
    await this.db.delete('offsite', id);
  }

  async putPrivateShot(rec: PrivateShotRecord): Promise<void> {
    await guard(this.db.put('privateShots', rec));
  }

  /** Screenshots read back from a private-set file, in one transaction (all or none); those whose id is already here are skipped. */
  async addPrivateShots(recs: readonly PrivateShotRecord[]): Promise<{ added: number; skipped: number }> {
    const tx = this.db.transaction(['privateShots'], 'readwrite');
    const shots = tx.objectStore('privateShots');
    return inTransaction(tx, 'Adding the private set failed, so none of it was added', async (write) => {
      let added = 0;
      for (const r of recs) {
        if ((await shots.getKey(r.id)) !== undefined) continue;
        write(shots.put(r));
        added++;
      }
      return { added, skipped: recs.length - added };
    });
  }

  /** Marked screenshots, oldest first (the order they were kept in). */
  listPrivateShots(): Promise<PrivateShotRecord[]> {
    return this.db.getAllFromIndex('privateShots', 'byCreated');
  }

  countPrivateShots(): Promise<number> {
    return this.db.count('privateShots');
  }

  async clearPrivateShots(): Promise<void> {
    await this.db.clear('privateShots');
  }

  async deleteRun(id: string): Promise<void> {
    const tx = this.db.transaction(['runs', 'screens', ...PER_RUN], 'readwrite');
    const shown = new Set<string>();
    await tx.objectStore('runs').delete(id);
    for (let c = await tx.objectStore('samples').index('byRun').openCursor(id); c; c = await c.continue()) {
      if (c.value.data.screenHash !== undefined) shown.add(c.value.data.screenHash);
      await c.delete();
    }
    for (let c = await tx.objectStore('trajectories').index('byRun').openCursor(id); c; c = await c.continue()) {
      for (const hash of c.value.screenHashes ?? []) shown.add(hash);
      await c.delete();
    }
    for (const name of ['metrics', 'checkpoints', 'phases'] as const) {
      const index = tx.objectStore(name).index('byRun');
      for (let c = await index.openKeyCursor(id); c; c = await c.continue()) await tx.objectStore(name).delete(c.primaryKey);
    }
    await tx.objectStore('groups').delete(groupRange(id));
    await tx.objectStore('progress').delete(id);
    for (const hash of shown) {
      const users = (await tx.objectStore('samples').index('byScreen').count(hash)) + (await tx.objectStore('trajectories').index('byScreen').count(hash));
      if (users === 0) await tx.objectStore('screens').delete(hash);
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

  /**
   * Writes one finished phase: its record, samples, trajectories, screens,
   * checkpoints, metric points and the run's patch (its next cursor), all in
   * one readwrite transaction, so a crash or reload leaves either the whole
   * phase or none of it. Samples and other records with an existing id are
   * overwritten, so committing the same phase again does not duplicate them.
   * Metric points are appended; when the phase was already committed, each
   * series is first cut before the new points' first step (steps are global
   * and increasing), so its curve points are not doubled either.
   */
  async commitPhase(runId: string, commit: PhaseCommit): Promise<RunRecord> {
    const { phase, samples = [], trajectories = [], screens = [], checkpoints = [], metrics = [], groups = [], runPatch = {} } = commit;
    const what = `phase ${phase.index} (${phase.phase}, iteration ${phase.iteration}) of run ${runId}`;
    if (phase.runId !== runId) throw new StoreError(`Cannot commit ${what}: its record names run ${phase.runId}.`);
    checkOwner(runId, what, { samples, trajectories, checkpoints, groups });
    for (const m of metrics) {
      if (m.steps.length !== m.values.length) throw new StoreError(`Cannot commit ${what}: metric ${m.name} has ${m.steps.length} steps but ${m.values.length} values.`);
    }
    // The phase's mid-phase save goes in the same transaction: it is either still needed or the phase is whole.
    const names: StoreNames<CoevoDB>[] = ['runs', 'phases'];
    // A handle opened at an older version (migration tests build old databases so) has no progress store.
    const progress = this.db.objectStoreNames.contains('progress');
    if (progress) names.push('progress');
    if (samples.length) names.push('samples');
    if (trajectories.length) names.push('trajectories');
    if (screens.length) names.push('screens');
    if (checkpoints.length) names.push('checkpoints');
    if (metrics.length) names.push('metrics');
    if (groups.length) names.push('groups');
    const tx = this.db.transaction(names, 'readwrite');
    return inTransaction(tx, `Saving ${what} failed, so none of its outputs were saved`, async (write) => {
      const [run, previous, series] = await Promise.all([
        tx.objectStore('runs').get(runId),
        tx.objectStore('phases').get([runId, phase.index]),
        Promise.all(metrics.map((m) => tx.objectStore('metrics').get([runId, m.name]))),
      ]);
      if (!run) throw new StoreError(`Cannot commit ${what}: there is no such run (was it deleted?).`);
      const next: RunRecord = { ...run, ...runPatch, id: runId };
      write(tx.objectStore('runs').put(next));
      write(tx.objectStore('phases').put(phase));
      if (progress) write(tx.objectStore('progress').delete(runId));
      for (const s of samples) write(tx.objectStore('samples').put(sampleRecord(s)));
      for (const t of trajectories) write(tx.objectStore('trajectories').put(t));
      for (const s of screens) write(tx.objectStore('screens').put(s));
      for (const c of checkpoints) write(tx.objectStore('checkpoints').put(c));
      // A recommitted phase replaces its iteration's groups rather than mixing old and new ones.
      for (const k of new Set(groups.map((g) => g.iteration))) write(tx.objectStore('groups').delete(groupRange(runId, k)));
      for (const g of groups) write(tx.objectStore('groups').put(g));
      metrics.forEach((m, i) => {
        const prev = series[i] ?? { runId, name: m.name, steps: [], values: [] };
        let keep = prev.steps.length;
        if (previous && m.steps.length) while (keep > 0 && prev.steps[keep - 1] >= m.steps[0]) keep--;
        write(tx.objectStore('metrics').put({ runId, name: m.name, steps: prev.steps.slice(0, keep).concat(m.steps), values: prev.values.slice(0, keep).concat(m.values) }));
      });
      return next;
    });
  }

  /**
   * Writes a whole run that is not in the store yet (an imported export), in
   * one transaction. Refuses, changing nothing, when the run or any of its
   * samples, trajectories or checkpoints already exists; screens already
   * stored (by hash) are kept, not replaced.
   */
  async restoreRun(bundle: RunBundle): Promise<void> {
    const { run } = bundle;
    const what = `run ${run.id}`;
    const groups = bundle.groups ?? [];
    checkOwner(run.id, what, { samples: bundle.samples, trajectories: bundle.trajectories, checkpoints: bundle.checkpoints, groups });
    for (const r of [...bundle.phases, ...bundle.metrics]) {
      if (r.runId !== run.id) throw new StoreError(`Cannot restore ${what}: a phase or metric record names run ${r.runId}.`);
    }
    const tx = this.db.transaction(['runs', 'screens', ...PER_RUN], 'readwrite');
    await inTransaction(tx, `Restoring ${what} failed, so nothing of it was saved`, async (write) => {
      if (await tx.objectStore('runs').get(run.id)) throw new StoreError(`A run with id ${run.id} already exists. Delete it first; nothing was changed.`);
      // Screens are shared between runs by hash: one already stored stays as it is, so an import never replaces what another run shows.
      // (Read before any write, so that a failed write is the error reported.)
      const screens = tx.objectStore('screens');
      const stored = await Promise.all(bundle.screens.map((s) => screens.getKey(s.hash)));
      const newScreens = bundle.screens.filter((_, i) => stored[i] === undefined);
      write(tx.objectStore('runs').add(run));
      // add, not put: an id another run already uses aborts the restore instead of overwriting that run's record.
      for (const s of bundle.samples) write(tx.objectStore('samples').add(sampleRecord(s)));
      for (const t of bundle.trajectories) write(tx.objectStore('trajectories').add(t));
      for (const p of bundle.phases) write(tx.objectStore('phases').add(p));
      for (const m of bundle.metrics) write(tx.objectStore('metrics').add(m));
      for (const c of bundle.checkpoints) write(tx.objectStore('checkpoints').add(c));
      for (const g of groups) write(tx.objectStore('groups').add(g));
      for (const s of newScreens) write(screens.add(s));
    });
  }

  /**
   * Saves a phase's progress (one record per run, replacing the last), in
   * one transaction with a check that the run still exists and is at that
   * phase, so a save that races a delete or the phase's own commit is refused.
   */
  async putProgress(progress: ProgressRecord): Promise<void> {
    const what = `the progress of ${progress.phase} (iteration ${progress.iteration}) of run ${progress.runId}`;
    const tx = this.db.transaction(['runs', 'progress'], 'readwrite');
    await inTransaction(tx, `Saving ${what} failed`, async (write) => {
      const run = await tx.objectStore('runs').get(progress.runId);
      if (!run) throw new StoreError(`Cannot save ${what}: there is no such run (was it deleted?).`);
      const at = run.cursor;
      if (!at || at.iteration !== progress.iteration || at.phase !== progress.phase || run.status === 'done') {
        throw new StoreError(`Cannot save ${what}: the run is not at that phase (its record says ${at ? `${at.phase} of iteration ${at.iteration}` : 'none'}, ${run.status}).`);
      }
      write(tx.objectStore('progress').put(progress));
    });
  }

  /** The run's last mid-phase save, if its phase in progress made one. */
  getProgress(runId: string): Promise<ProgressRecord | undefined> {
    return this.db.get('progress', runId);
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

  /** A run's samples (of one iteration, if given), by iteration and then by id with numbers compared as numbers. */
  async getSamples(runId: string, iteration?: number): Promise<StepSample[]> {
    const range = iteration === undefined ? runRange(runId) : IDBKeyRange.bound([runId, iteration, 0], [runId, iteration, 1]);
    const records = await this.db.getAllFromIndex('samples', 'byIterationKept', range);
    return records.sort((a, b) => a.iteration - b.iteration || naturalCompare(a.id, b.id)).map((r) => r.data);
  }

  /** How many samples a run has, in all and per iteration, read from the index alone. */
  async countSamples(runId: string): Promise<SampleCounts> {
    const index = this.db.transaction('samples').store.index('byIterationKept');
    const counts: SampleCounts = { total: 0, kept: 0, byIteration: {}, keptByIteration: {} };
    const first = await index.openKeyCursor(runRange(runId), 'next');
    const last = await index.openKeyCursor(runRange(runId), 'prev');
    if (!first || !last) return counts;
    for (let k = first.key[1]; k <= last.key[1]; k++) {
      const [dropped, kept] = await Promise.all([index.count([runId, k, 0]), index.count([runId, k, 1])]);
      if (dropped + kept === 0) continue;
      counts.byIteration[k] = dropped + kept;
      counts.keptByIteration[k] = kept;
      counts.total += dropped + kept;
      counts.kept += kept;
    }
    return counts;
  }

  /** A run's finished phases in plan order. */
  listPhases(runId: string): Promise<PhaseRecord[]> {
    return this.db.getAll('phases', IDBKeyRange.bound([runId, -Infinity], [runId, Infinity]));
  }

  /** A run's recorded GRPO groups: of one iteration, or one batch of it, if given; in iteration, batch, group order. */
  getGroups(runId: string, iteration?: number, batch?: number): Promise<GroupRecord[]> {
    return this.db.getAll('groups', groupRange(runId, iteration, batch));
  }

  /** The batches of a run that have recorded groups, in order, with how many each has; reads keys only. */
  async listGroupBatches(runId: string): Promise<GroupBatch[]> {
    const keys = await this.db.getAllKeys('groups', groupRange(runId));
    const out: GroupBatch[] = [];
    for (const [, iteration, batch] of keys) {
      const last = out[out.length - 1];
      if (last && last.iteration === iteration && last.batch === batch) last.groups++;
      else out.push({ iteration, batch, groups: 1 });
    }
    return out;
  }

  getScreen(hash: string): Promise<ScreenRecord | undefined> {
    return this.db.get('screens', hash);
  }

  /** A run's trajectories, by iteration and then id. */
  async getTrajectories(runId: string): Promise<TrajectoryRecord[]> {
    return (await this.db.getAllFromIndex('trajectories', 'byRun', runId)).sort((a, b) => a.iteration - b.iteration || naturalCompare(a.id, b.id));
  }
}

function sampleRecord(s: StepSample): SampleRecord {
  return { id: s.id, runId: s.runId, iteration: s.iteration, kept: s.kept ? 1 : 0, data: s };
}

/** Keys [runId, iteration, batch, group] of one run's groups, narrowed to an iteration and a batch when given. */
function groupRange(runId: string, iteration?: number, batch?: number): IDBKeyRange {
  const lo: (string | number)[] = [runId];
  if (iteration !== undefined) lo.push(iteration);
  if (iteration !== undefined && batch !== undefined) lo.push(batch);
  // Keys compare element by element, so padding with ∓Infinity bounds exactly the keys that start with lo.
  const pad = (v: number) => Array.from({ length: 4 - lo.length }, () => v);
  return IDBKeyRange.bound([...lo, ...pad(-Infinity)], [...lo, ...pad(Infinity)]);
}

/** All keys [runId, iteration, kept] of one run in the byIterationKept index. */
function runRange(runId: string): IDBKeyRange {
  return IDBKeyRange.bound([runId, -Infinity, 0], [runId, Infinity, 1]);
}

function checkOwner(runId: string, what: string, records: Record<'samples' | 'trajectories' | 'checkpoints', { runId: string }[]> & { groups?: { runId: string }[] }): void {
  for (const [kind, list] of Object.entries(records)) {
    const stray = list.find((r) => r.runId !== runId);
    if (stray) throw new StoreError(`Cannot save ${what}: one of its ${kind} belongs to run ${stray.runId}.`);
  }
}

/** Orders 'r/1/2' < 'r/1/10': digit runs compare as numbers. */
function naturalCompare(a: string, b: string): number {
  const pa = a.match(/\d+|\D+/g) ?? [];
  const pb = b.match(/\d+|\D+/g) ?? [];
  for (let i = 0; i < Math.min(pa.length, pb.length); i++) {
    if (pa[i] === pb[i]) continue;
    const na = /^\d/.test(pa[i]) && /^\d/.test(pb[i]);
    if (na && Number(pa[i]) !== Number(pb[i])) return Number(pa[i]) - Number(pb[i]);
    return pa[i] < pb[i] ? -1 : 1;
  }
  return pa.length - pb.length;
}

/**
 * Runs the body of a readwrite transaction so that any failure aborts all of
 * it: a request that fails (or throws at once, like a put of an invalid
 * record) rolls back every write issued before it. `write` collects request
 * promises; they are awaited together, then the commit itself.
 */
async function inTransaction<T>(tx: AnyTx, failure: string, body: (write: (request: Promise<unknown>) => void) => Promise<T>): Promise<T> {
  const done = tx.done;
  done.catch(() => {}); // it rejects on abort; the error that caused the abort is the one reported
  const writes: Promise<unknown>[] = [];
  const write = (request: Promise<unknown>) => {
    request.catch(() => {}); // reported through Promise.all below, not as unhandled
    writes.push(request);
  };
  try {
    const result = await body(write);
    await Promise.all(writes);
    await done;
    return result;
  } catch (e) {
    try {
      tx.abort();
    } catch {
      // Already aborted by the failed request, or already committed.
    }
    throw asStoreError(e, failure);
  }
}

function isQuota(e: unknown): boolean {
  return e instanceof DOMException && e.name === 'QuotaExceededError';
}

function asStoreError(e: unknown, failure: string): StoreError {
  if (isQuota(e)) return new StoreError(QUOTA_MESSAGE, { cause: e });
  if (e instanceof StoreError) return e;
  return new StoreError(`${failure}: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
}

/** Turns a full disk into an error a person can act on. */
async function guard<T>(p: Promise<T>): Promise<T> {
  try {
    return await p;
  } catch (e) {
    if (isQuota(e)) throw new StoreError(QUOTA_MESSAGE);
    throw e;
  }
}
