import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { openDB } from 'idb';
import { Store, StoreError } from '../../src/store/store';
import type { RunRecord, RunRecordV1, SampleRecordV2 } from '../../src/store/schema';
import { OFFSITE_DEFAULTS } from '../../src/offsite/jobTypes';
import { checkpoint, coevoRun, phase, sample, screen, trajectory } from './coevo-store-fixtures';

let n = 0;
const freshName = () => `coevo-test-${++n}`;

function run(id: string, createdAt: number): RunRecord {
  return { id, kind: 'tiny-regression', name: `run ${id}`, createdAt, status: 'done', backend: 'wasm', seed: 7, config: { steps: 3 } };
}

describe('Store', () => {
  it('round-trips a run and its metric series', async () => {
    const store = await Store.open(freshName());
    await store.putRun(run('a', 1000));
    await store.appendMetric('a', 'loss', [1, 2], [0.9, 0.5]);
    await store.appendMetric('a', 'loss', [3], [0.25]);
    expect(await store.getRun('a')).toEqual(run('a', 1000));
    expect(await store.getMetric('a', 'loss')).toEqual({ runId: 'a', name: 'loss', steps: [1, 2, 3], values: [0.9, 0.5, 0.25] });
    const updated = await store.updateRun('a', { status: 'failed', error: 'boom' });
    expect(updated.status).toBe('failed');
    expect((await store.getRun('a'))?.error).toBe('boom');
    store.close();
  });

  it('lists runs newest first', async () => {
    const store = await Store.open(freshName());
    await store.putRun(run('old', 1));
    await store.putRun(run('new', 3));
    await store.putRun(run('mid', 2));
    expect((await store.listRuns()).map((r) => r.id)).toEqual(['new', 'mid', 'old']);
    store.close();
  });

  it('deletes a run with its metrics and leaves other runs alone', async () => {
    const store = await Store.open(freshName());
    await store.putRun(run('a', 1));
    await store.putRun(run('b', 2));
    await store.appendMetric('a', 'loss', [1], [1]);
    await store.appendMetric('a', 'reward', [1], [0]);
    await store.appendMetric('b', 'loss', [1], [2]);
    await store.deleteRun('a');
    expect(await store.getRun('a')).toBeUndefined();
    expect(await store.getMetrics('a')).toEqual([]);
    expect((await store.listRuns()).map((r) => r.id)).toEqual(['b']);
    expect(await store.getMetric('b', 'loss')).toEqual({ runId: 'b', name: 'loss', steps: [1], values: [2] });
    store.close();
  });

  it('keeps checkpoints per run, in iteration order, and deletes them with the run', async () => {
    const store = await Store.open(freshName());
    await store.putRun(run('a', 1));
    const weights = new Uint8Array([1, 2, 3, 4]).buffer;
    for (const iteration of [2, 0, 1]) {
      await store.putCheckpoint({ id: `a-g${iteration}`, runId: 'a', model: 'grounder', iteration, createdAt: iteration, config: { preset: 'tiny' }, weights });
    }
    expect((await store.listCheckpoints('a')).map((c) => c.iteration)).toEqual([0, 1, 2]);
    expect(new Uint8Array((await store.getCheckpoint('a-g1'))!.weights)).toEqual(new Uint8Array([1, 2, 3, 4]));
    await store.deleteRun('a');
    expect(await store.listCheckpoints('a')).toEqual([]);
    store.close();
  });

  it('refuses mismatched metric arrays and updates of unknown runs with clear errors', async () => {
    const store = await Store.open(freshName());
    await expect(store.appendMetric('a', 'loss', [1, 2], [1])).rejects.toThrow(StoreError);
    await expect(store.updateRun('nope', { status: 'done' })).rejects.toThrow(/No run with id nope/);
    store.close();
  });

  it('upgrades a version-1 database: inline loss arrays move to the metrics store', async () => {
    const name = freshName();
    const v1: RunRecordV1 = { id: 'legacy', kind: 'tiny-regression', name: 'legacy run', createdAt: 5, status: 'done', backend: 'webgpu', config: {}, losses: [0.8, 0.4, 0.2] };
    const old = await openDB(name, 1, {
      upgrade(db) {
        db.createObjectStore('runs', { keyPath: 'id' }).createIndex('byCreated', 'createdAt');
      },
    });
    await old.put('runs', v1);
    old.close();

    const store = await Store.open(name);
    const migrated = await store.getRun('legacy');
    expect(migrated).toBeDefined();
    expect(migrated && 'losses' in migrated).toBe(false);
    expect(migrated?.seed).toBe(0);
    expect(await store.getMetric('legacy', 'loss')).toEqual({ runId: 'legacy', name: 'loss', steps: [1, 2, 3], values: [0.8, 0.4, 0.2] });
    // The new stores exist and work after the upgrade.
    await store.appendMetric('legacy', 'kl', [1], [0.01]);
    expect((await store.getMetrics('legacy')).map((m) => m.name).sort()).toEqual(['kl', 'loss']);
    store.close();
  });

  it('upgrades a version-2 database: old samples gain the kept flag and the phases store appears', async () => {
    const name = freshName();
    (await Store.open(name, 2)).close();
    const v2 = await openDB(name, 2);
    const old: SampleRecordV2 = { id: 'r/0/1', runId: 'r', iteration: 0, source: 'seed', data: sample('r', 1, { kept: true }) };
    await v2.put('samples', old);
    await v2.put('samples', { id: 'r/0/2', runId: 'r', iteration: 0, source: 'seed', data: { note: 'not a step sample' } } satisfies SampleRecordV2);
    v2.close();

    const store = await Store.open(name);
    expect(await store.countSamples('r')).toEqual({ total: 2, kept: 1, byIteration: { 0: 2 }, keptByIteration: { 0: 1 } });
    expect((await store.getSamples('r'))[0]).toEqual(sample('r', 1, { kept: true }));
    expect(await store.listPhases('r')).toEqual([]);
    store.close();
  });

  it('upgrades a version-5 database with its runs kept, and keeps offsite comparisons newest first apart from runs', async () => {
    const name = freshName();
    const v5 = await Store.open(name, 5);
    await v5.putRun(run('kept', 1));
    v5.close();
    const store = await Store.open(name);
    expect((await store.listRuns()).map((r) => r.id)).toEqual(['kept']);
    expect(await store.listOffsite()).toEqual([]);
    const options = { ...OFFSITE_DEFAULTS.planner, agent: 'planner' as const, preset: 'tiny' as const, lora: null };
    await store.putOffsite({ id: 'a', createdAt: 10, options, state: 'running', phase: 'zero-shot', done: 0, total: 90 });
    await store.putOffsite({ id: 'b', createdAt: 20, options, state: 'failed', phase: '', done: 0, total: 0, error: 'no base' });
    await store.putOffsite({ id: 'a', createdAt: 10, options, state: 'running', phase: 'full fine-tuning', done: 24, total: 90 });
    expect((await store.listOffsite()).map((r) => [r.id, r.phase])).toEqual([['b', ''], ['a', 'full fine-tuning']]);
    await store.deleteOffsite('b');
    expect((await store.listOffsite()).map((r) => r.id)).toEqual(['a']);
    expect((await store.listRuns()).map((r) => r.id)).toEqual(['kept']);
    store.close();
  });
});

describe('Store.commitPhase', () => {
  async function withRun(id = 'c') {
    const store = await Store.open(freshName());
    await store.putRun(coevoRun(id));
    return store;
  }

  it('writes a phase with all its outputs and moves the cursor', async () => {
    const store = await withRun();
    const samples = [0, 1, 2, 10].map((n) => sample('c', n, { kept: n !== 1, screenHash: 'h1' }));
    const next = await store.commitPhase('c', {
      phase: phase('c', 0, 'seed-data', 0, { samples: 4 }),
      samples,
      trajectories: [trajectory('c', 0, 0, ['h1'])],
      screens: [screen('h1')],
      checkpoints: [checkpoint('c', 'grounder', 0)],
      metrics: [{ name: 'seed/kept', steps: [1], values: [3] }],
      runPatch: { cursor: { iteration: 0, phase: 'sft-planner' } },
    });
    expect(next.cursor).toEqual({ iteration: 0, phase: 'sft-planner' });
    expect((await store.getRun('c'))?.cursor).toEqual({ iteration: 0, phase: 'sft-planner' });
    expect((await store.getRun('c'))?.config).toEqual(coevoRun('c').config);
    expect(await store.listPhases('c')).toEqual([phase('c', 0, 'seed-data', 0, { samples: 4 })]);
    // Ordered by id with numbers compared as numbers: 10 comes after 2.
    expect(await store.getSamples('c')).toEqual(samples);
    expect(await store.countSamples('c')).toEqual({ total: 4, kept: 3, byIteration: { 0: 4 }, keptByIteration: { 0: 3 } });
    expect(await store.getTrajectories('c')).toEqual([trajectory('c', 0, 0, ['h1'])]);
    const png = await store.getScreen('h1');
    expect(png?.width).toBe(200);
    expect(new Uint8Array(await png!.png.arrayBuffer())).toEqual(new Uint8Array(await screen('h1').png.arrayBuffer()));
    expect(new Uint8Array((await store.getCheckpoint('c/grounder@0'))!.weights)).toEqual(new Uint8Array(checkpoint('c', 'grounder', 0).weights));
    expect(await store.getMetric('c', 'seed/kept')).toEqual({ runId: 'c', name: 'seed/kept', steps: [1], values: [3] });
    store.close();
  });

  it('reads samples per iteration and counts them per iteration from the index', async () => {
    const store = await withRun();
    await store.commitPhase('c', { phase: phase('c', 0, 'seed-data', 0), samples: [sample('c', 0), sample('c', 1)] });
    await store.commitPhase('c', { phase: phase('c', 4, 'distill', 1), samples: [sample('c', 0, { iteration: 1 }), sample('c', 1, { iteration: 1, kept: false }), sample('c', 2, { iteration: 1 })] });
    await store.commitPhase('c', { phase: phase('c', 8, 'distill', 3), samples: [sample('c', 0, { iteration: 3, kept: false })] });
    expect(await store.countSamples('c')).toEqual({ total: 6, kept: 4, byIteration: { 0: 2, 1: 3, 3: 1 }, keptByIteration: { 0: 2, 1: 2, 3: 0 } });
    expect((await store.getSamples('c', 1)).map((s) => s.id)).toEqual(['c/1/0', 'c/1/1', 'c/1/2']);
    expect(await store.getSamples('c', 2)).toEqual([]);
    expect((await store.listPhases('c')).map((p) => p.index)).toEqual([0, 4, 8]);
    expect(await store.countSamples('other')).toEqual({ total: 0, kept: 0, byIteration: {}, keptByIteration: {} });
    store.close();
  });

  it('committing the same phase again duplicates neither samples nor curve points', async () => {
    const store = await withRun();
    await store.commitPhase('c', { phase: phase('c', 0, 'seed-data', 0), metrics: [{ name: 'loss', steps: [1, 2], values: [0.9, 0.8] }] });
    const commit = () =>
      store.commitPhase('c', {
        phase: phase('c', 1, 'sft-planner', 0),
        samples: [sample('c', 0), sample('c', 1)],
        metrics: [{ name: 'loss', steps: [3, 4], values: [0.5, 0.4] }],
      });
    await commit();
    await commit();
    expect(await store.countSamples('c')).toMatchObject({ total: 2 });
    expect(await store.getMetric('c', 'loss')).toEqual({ runId: 'c', name: 'loss', steps: [1, 2, 3, 4], values: [0.9, 0.8, 0.5, 0.4] });
    expect(await store.listPhases('c')).toHaveLength(2);
    store.close();
  });

  async function expectNothingLanded(store: Store) {
    expect((await store.getRun('c'))?.cursor).toEqual({ iteration: 0, phase: 'sft-planner' });
    expect(await store.listPhases('c')).toEqual([phase('c', 0, 'seed-data', 0)]);
    expect(await store.countSamples('c')).toMatchObject({ total: 1 });
    expect(await store.getTrajectories('c')).toEqual([]);
    expect(await store.getScreen('h9')).toBeUndefined();
    expect(await store.listCheckpoints('c')).toEqual([]);
    expect(await store.getMetric('c', 'loss')).toEqual({ runId: 'c', name: 'loss', steps: [1], values: [1] });
  }

  async function committedSeed() {
    const store = await withRun();
    await store.commitPhase('c', {
      phase: phase('c', 0, 'seed-data', 0),
      samples: [sample('c', 0)],
      metrics: [{ name: 'loss', steps: [1], values: [1] }],
      runPatch: { cursor: { iteration: 0, phase: 'sft-planner' } },
    });
    return store;
  }

  function nextCommit(broken: { checkpointId?: unknown } = {}) {
    const cp = checkpoint('c', 'planner', 0);
    return {
      phase: phase('c', 1, 'sft-planner', 0),
      samples: [sample('c', 1), sample('c', 2)],
      trajectories: [trajectory('c', 0, 0, ['h9'])],
      screens: [screen('h9')],
      checkpoints: [{ ...cp, id: (broken.checkpointId ?? cp.id) as string }],
      metrics: [{ name: 'loss', steps: [2], values: [0.5] }],
      runPatch: { cursor: { iteration: 0, phase: 'sft-grounder' as const } },
    };
  }

  it('writes nothing of a phase when one of its records cannot be stored', async () => {
    const store = await committedSeed();
    // A checkpoint whose key is an object is not a valid IndexedDB key: its put fails after the samples' puts were issued.
    await expect(store.commitPhase('c', nextCommit({ checkpointId: { not: 'a key' } }))).rejects.toThrow(/Saving phase 1 \(sft-planner, iteration 0\) of run c failed, so none of its outputs were saved/);
    await expectNothingLanded(store);
    // The same commit with a valid key then goes through.
    await store.commitPhase('c', nextCommit());
    expect((await store.getRun('c'))?.cursor).toEqual({ iteration: 0, phase: 'sft-grounder' });
    expect(await store.countSamples('c')).toMatchObject({ total: 3 });
    store.close();
  });

  it('turns a full disk during a commit into the quota StoreError and keeps nothing of the phase', async () => {
    const store = await committedSeed();
    const proto = globalThis.IDBObjectStore.prototype;
    const put = proto.put;
    proto.put = function (this: IDBObjectStore, ...args: Parameters<IDBObjectStore['put']>) {
      if (this.name === 'screens') throw new DOMException('quota', 'QuotaExceededError');
      return put.apply(this, args);
    };
    try {
      const error = await store.commitPhase('c', nextCommit()).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(StoreError);
      expect((error as Error).message).toMatch(/storage quota is full\. Delete old runs or free disk space/);
    } finally {
      proto.put = put;
    }
    await expectNothingLanded(store);
    store.close();
  });

  it('refuses records of another run and commits to a run that does not exist', async () => {
    const store = await committedSeed();
    await expect(store.commitPhase('c', { ...nextCommit(), samples: [sample('other', 1)] })).rejects.toThrow(/belongs to run other/);
    await expect(store.commitPhase('gone', { phase: phase('gone', 0, 'seed-data', 0), samples: [sample('gone', 0)] })).rejects.toThrow(/there is no such run/);
    expect(await store.countSamples('gone')).toMatchObject({ total: 0 });
    await expectNothingLanded(store);
    store.close();
  });

  it('deleteRun removes every record of the run and the screens no other run shows', async () => {
    const store = await withRun('a');
    await store.putRun(coevoRun('b', 2_000));
    await store.commitPhase('a', {
      phase: phase('a', 0, 'seed-data', 0),
      samples: [sample('a', 0, { screenHash: 'shared' }), sample('a', 1, { screenHash: 'only-a' })],
      trajectories: [trajectory('a', 0, 0, ['traj-only-a', 'shared-by-traj'])],
      screens: [screen('shared'), screen('only-a'), screen('traj-only-a'), screen('shared-by-traj')],
      checkpoints: [checkpoint('a', 'grounder', 0)],
      metrics: [{ name: 'loss', steps: [1], values: [1] }],
    });
    await store.commitPhase('b', {
      phase: phase('b', 0, 'seed-data', 0),
      samples: [sample('b', 0, { screenHash: 'shared' })],
      trajectories: [trajectory('b', 0, 0, ['shared-by-traj'])],
      metrics: [{ name: 'loss', steps: [1], values: [2] }],
    });
    await store.deleteRun('a');
    expect(await store.getRun('a')).toBeUndefined();
    expect(await store.listPhases('a')).toEqual([]);
    expect(await store.getSamples('a')).toEqual([]);
    expect(await store.getTrajectories('a')).toEqual([]);
    expect(await store.listCheckpoints('a')).toEqual([]);
    expect(await store.getMetrics('a')).toEqual([]);
    expect(await store.getScreen('only-a')).toBeUndefined();
    expect(await store.getScreen('traj-only-a')).toBeUndefined();
    expect(await store.getScreen('shared')).toBeDefined();
    expect(await store.getScreen('shared-by-traj')).toBeDefined();
    expect(await store.getSamples('b')).toEqual([sample('b', 0, { screenHash: 'shared' })]);
    expect(await store.listPhases('b')).toHaveLength(1);
    expect(await store.getMetric('b', 'loss')).toEqual({ runId: 'b', name: 'loss', steps: [1], values: [2] });
    store.close();
  });
});
