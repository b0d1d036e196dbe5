import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { openDB } from 'idb';
import { Store, StoreError } from '../../src/store/store';
import type { RunRecord, RunRecordV1 } from '../../src/store/schema';

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
});
