import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { openDB } from 'idb';
import { unzipSync, strToU8, zipSync } from 'fflate';
import { crc32, exportRun, importRun, type ArchiveManifest } from '../../src/coevo/archive';
import { GROUPS_PER_BATCH, MAX_GROUPS_PER_PHASE, recordedBatches } from '../../src/coevo/groupRecords';
import { Store } from '../../src/store/store';
import { coevoRun, phase, sample } from './coevo-store-fixtures';
import { G, groupsOf, POOL, targetedStates } from './grpo-groups-fixtures';
import { advantageScale, labelAt, placeMarks, rewardReason } from '../../src/ui/grpo/groupView';

let n = 0;
const freshName = () => `grpo-groups-test-${++n}`;

describe('recorded GRPO groups', () => {
  it('record each group with its screen, truth, every grounder point, reward parts and advantage', async () => {
    const states = targetedStates(4);
    const groups = await groupsOf('r', 1, 0, states, 3, true);
    expect(groups.map((g) => [g.iteration, g.batch, g.group])).toEqual([[1, 0, 0], [1, 0, 1], [1, 0, 2]]);
    const [first, tied] = groups;
    expect(first.screen).toBe(states[0].screen);
    expect(first.goal).toBe(states[0].task.goal);
    expect(first.truth).toMatchObject({ instruction: states[0].instruction, type: states[0].step.type, box: states[0].step.box });
    expect(first.pool).toEqual(POOL);
    expect(first.samples).toHaveLength(G);

    const [right, garbage] = first.samples;
    expect(right).toMatchObject({ instruction: states[0].instruction, parsed: true, actionType: states[0].step.type });
    // The verifier resolves the true instruction onto the true box; the stand-in grounder misses in the corner.
    expect(right.groundings.map((g) => g.hit)).toEqual([true, false]);
    expect(right.groundings[1].point).toEqual({ x: 2, y: 3 });
    expect(right.reward.hits).toEqual([1, 0]);
    expect(right.reward.weights).toHaveLength(2);
    expect(right.reward.plan).toBeCloseTo(right.reward.weights[0], 12);
    expect(right.reward.total).toBeCloseTo(right.reward.plan, 12);
    expect(garbage).toMatchObject({ parsed: false, actionType: null, groundings: [], reward: { total: 0, hits: [], weights: [] } });
    expect(right.advantage).toBeGreaterThan(0);
    expect(garbage.advantage).toBeLessThan(0);
    expect(first.informative).toBe(true);

    expect(tied.informative).toBe(false);
    expect(tied.samples.every((s) => s.advantage === 0 && !s.parsed)).toBe(true);
  });

  it('keep a bounded number of batches, first and last included', () => {
    const perPhase = MAX_GROUPS_PER_PHASE / GROUPS_PER_BATCH;
    expect([...recordedBatches(5)]).toEqual([0, 1, 2, 3, 4]);
    const long = [...recordedBatches(100)].sort((a, b) => a - b);
    expect(long).toHaveLength(perPhase);
    expect(long[0]).toBe(0);
    expect(long[long.length - 1]).toBe(99);
    expect(new Set(long).size).toBe(long.length);
  });
});

describe('the inspector’s view of a group', () => {
  it('draws one marker per grounder and point, shared by the samples that agree', async () => {
    const [group] = await groupsOf('r', 1, 0, targetedStates(1), 1);
    const marks = placeMarks(group);
    // Samples 1 and 3 are the same instruction: each grounder has one marker for both; sample 2 was not grounded.
    expect(marks.map((m) => [m.grounder, m.samples, m.hit])).toEqual([
      [0, [0, 2], true],
      [1, [0, 2], false],
    ]);
    expect(labelAt(marks[1], 3, group.screen.width)).toMatchObject({ text: '1,3', anchor: 'start' });
    expect(labelAt({ ...marks[1], x: group.screen.width - 1 }, 3, group.screen.width).anchor).toBe('end');
    expect(advantageScale(group)).toBeCloseTo(Math.max(...group.samples.map((s) => Math.abs(s.advantage))), 12);
    expect(rewardReason(group.samples[0], group.truth.type, group.pool)).toMatch(/^Hit by verifier: /);
    expect(rewardReason(group.samples[1], group.truth.type, group.pool)).toMatch(/does not parse/i);
  });
});

describe('Store: groups', () => {
  async function storeWithGroups() {
    const store = await Store.open(freshName());
    await store.putRun(coevoRun('r'));
    await store.putRun(coevoRun('other'));
    const states = targetedStates(3);
    const groups = [...(await groupsOf('r', 1, 0, states)), ...(await groupsOf('r', 1, 1, states.slice(1))), ...(await groupsOf('r', 2, 0, states, 1))];
    await store.commitPhase('r', { phase: phase('r', 3, 'planner-grpo', 1), groups, runPatch: { cursor: { iteration: 1, phase: 'distill' } } });
    await store.commitPhase('other', { phase: phase('other', 3, 'planner-grpo', 1), groups: await groupsOf('other', 1, 0, states, 1) });
    return { store, groups, states };
  }

  it('commits groups with their phase and reads them back by run, iteration and batch', async () => {
    const { store, groups } = await storeWithGroups();
    expect(await store.getGroups('r')).toEqual(groups);
    expect(await store.getGroups('r', 1)).toEqual(groups.slice(0, 4));
    expect(await store.getGroups('r', 1, 1)).toEqual(groups.slice(2, 4));
    expect(await store.listGroupBatches('r')).toEqual([
      { iteration: 1, batch: 0, groups: 2 },
      { iteration: 1, batch: 1, groups: 2 },
      { iteration: 2, batch: 0, groups: 1 },
    ]);
    expect(await store.getGroups('nobody')).toEqual([]);
    expect(await store.listGroupBatches('nobody')).toEqual([]);
    store.close();
  });

  it('recommitting a phase replaces its iteration’s groups instead of adding to them', async () => {
    const { store, states } = await storeWithGroups();
    const again = await groupsOf('r', 1, 0, states, 1);
    await store.commitPhase('r', { phase: phase('r', 3, 'planner-grpo', 1), groups: again });
    expect(await store.getGroups('r', 1)).toEqual(again);
    expect(await store.getGroups('r', 2)).toHaveLength(1);
    store.close();
  });

  it('a failed commit leaves no groups behind', async () => {
    const { store, states } = await storeWithGroups();
    const stray = await groupsOf('other', 3, 0, states, 1);
    await expect(store.commitPhase('r', { phase: phase('r', 5, 'planner-grpo', 3), groups: stray })).rejects.toThrow(/belongs to run other/);
    expect(await store.getGroups('r', 3)).toEqual([]);
    expect(await store.getGroups('other', 3)).toEqual([]);
    store.close();
  });

  it('deleting a run deletes its groups and only its groups', async () => {
    const { store } = await storeWithGroups();
    await store.deleteRun('r');
    expect(await store.getGroups('r')).toEqual([]);
    expect(await store.getGroups('other')).toHaveLength(1);
    store.close();
  });

  it('upgrades a version-3 database: its runs and samples stay and the groups store appears', async () => {
    const name = freshName();
    const v3 = await Store.open(name, 3);
    await v3.putRun(coevoRun('old'));
    await v3.commitPhase('old', { phase: phase('old', 0, 'seed-data', 0), samples: [sample('old', 0), sample('old', 1, { kept: false })] });
    v3.close();
    const raw = await openDB(name);
    expect([...raw.objectStoreNames]).not.toContain('groups');
    raw.close();

    const store = await Store.open(name);
    expect((await store.getRun('old'))?.id).toBe('old');
    expect(await store.getSamples('old')).toEqual([sample('old', 0), sample('old', 1, { kept: false })]);
    expect(await store.getGroups('old')).toEqual([]);
    const groups = await groupsOf('old', 1, 0, targetedStates(1), 1);
    await store.commitPhase('old', { phase: phase('old', 3, 'planner-grpo', 1), groups });
    expect(await store.getGroups('old')).toEqual(groups);
    store.close();
  });
});

describe('archive: groups', () => {
  it('export → delete → import brings the groups back unchanged', async () => {
    const store = await Store.open(freshName());
    await store.putRun(coevoRun('r'));
    const groups = await groupsOf('r', 1, 0, targetedStates(2, 8));
    await store.commitPhase('r', { phase: phase('r', 3, 'planner-grpo', 1), groups });
    const zip = await exportRun(store, 'r', 1);
    const manifest = JSON.parse(new TextDecoder().decode(unzipSync(zip)['manifest.json'])) as ArchiveManifest;
    expect(manifest.counts.groups).toBe(2);
    await store.deleteRun('r');
    await importRun(store, zip);
    // Structured clone and JSON both keep every field; the screens must come back as the renderer needs them.
    expect(await store.getGroups('r')).toEqual(JSON.parse(JSON.stringify(groups)));
    store.close();
  });

  it('imports an export made before groups were kept, and refuses a damaged group record', async () => {
    const store = await Store.open(freshName());
    await store.putRun(coevoRun('r'));
    await store.commitPhase('r', { phase: phase('r', 3, 'planner-grpo', 1), groups: await groupsOf('r', 1, 0, targetedStates(1), 1) });
    const files = unzipSync(await exportRun(store, 'r', 1));
    await store.deleteRun('r');

    const manifest = JSON.parse(new TextDecoder().decode(files['manifest.json'])) as Omit<ArchiveManifest, 'counts'> & { counts: Partial<ArchiveManifest['counts']> };
    const rezip = (entries: Record<string, Uint8Array>, m: typeof manifest) => {
      m.files = Object.fromEntries(Object.entries(entries).map(([p, b]) => [p, { bytes: b.length, crc32: crc32(b) }]));
      return zipSync({ ...entries, 'manifest.json': strToU8(JSON.stringify(m)) });
    };

    const { 'manifest.json': _m, 'groups.jsonl': groupsFile, ...rest } = files;
    const damaged = strToU8(new TextDecoder().decode(groupsFile).replace('"informative":', '"informative":"yes","was":'));
    await expect(importRun(store, rezip({ ...rest, 'groups.jsonl': damaged }, structuredClone(manifest)))).rejects.toThrow(/groups\.jsonl line 1: field 'informative' must be true or false/);
    expect(await store.listRuns()).toEqual([]);

    const older = structuredClone(manifest);
    delete older.counts.groups;
    await importRun(store, rezip(rest, older));
    expect(await store.getRun('r')).toBeDefined();
    expect(await store.getGroups('r')).toEqual([]);
    store.close();
  });
});
