/**
 * Resume within a batch (issue 34): a run is unloaded in the middle of
 * phases, as a reload does, and resumed from the store each time; it must
 * end with exactly what an uninterrupted run with the same seed stored
 * (every sample, curve point, phase summary, GRPO group and checkpoint
 * byte), and each resumed phase must continue from its mid-phase save, not
 * from its start. A very small config (WASM, fake IndexedDB, the synthetic
 * painter), but two runs and 16 cuts are still minutes (about 16 on a loaded
 * 2-core machine), so it lives in test/slow (npm run test:slow);
 * the default suite cuts one phase (coevo-runner.test.ts) and checks the
 * journal's replay on a toy phase (phase-journal.test.ts).
 */
import 'fake-indexeddb/auto';
import { beforeAll, describe, expect, it } from 'vitest';
import * as tf from '../../src/models/tf';
import '@tensorflow/tfjs-backend-wasm';
import { defaultConfig, type CoevoConfig } from '../../src/coevo/config';
import { phasePlan } from '../../src/coevo/machine';
import { syntheticScreenImage } from '../../src/models/rasterize';
import { CoevoRunner, type CoevoProgress, type RunnerDeps } from '../../src/coevo/runner';
import type { PhaseName } from '../../src/coevo/records';
import { Store } from '../../src/store/store';

beforeAll(async () => {
  await tf.setBackend('wasm');
  await tf.ready();
});

const DEVICE = { backend: 'wasm', adapter: 'none (WASM in Node)' };
// Save before every batch: the resume point is then always the batch the cut interrupted.
const deps = (store: Store, saveEveryMs = 0): RunnerDeps => ({ store, paint: syntheticScreenImage, device: DEVICE, saveEveryMs, saveCostRatio: 0 });

/** Small enough for minutes, with at least three batches in every phase (grounder GRPO on, so sft-grounder has two trainers). */
function smallConfig(over: Partial<CoevoConfig> = {}): CoevoConfig {
  return {
    ...defaultConfig('tiny', 5),
    start: 'scratch',
    iterations: 1,
    plannerSftSteps: 4,
    grounderSftSteps: 4,
    plannerGrpoSteps: 3,
    grounderTrainSteps: 4,
    plannerBatch: 4,
    grounderBatch: 4,
    grpoPrompts: 2,
    groupSize: 2,
    seedTasks: 3,
    distillStates: 6,
    evalSize: 2,
    grounderGrpo: true,
    ...over,
  };
}

let dbs = 0;
const openStore = () => Store.open(`coevo-resume-midphase-${++dbs}`);

/** Everything a finished run stored that its seed decides (times left out: they differ between any two runs). */
async function storedRun(store: Store, runId: string) {
  const phases = (await store.listPhases(runId))
    .sort((a, b) => a.index - b.index)
    .map((p) => {
      const { active_seconds: _t, ...summary } = p.summary;
      return { index: p.index, phase: p.phase, iteration: p.iteration, summary };
    });
  const metrics = (await store.getMetrics(runId)).map((m) => ({ name: m.name, steps: m.steps, values: m.values })).sort((a, b) => (a.name < b.name ? -1 : 1));
  const checkpoints = (await store.listCheckpoints(runId)).map((c) => ({ id: c.id.slice(runId.length), bytes: new Uint8Array(c.weights) }));
  const strip = (s: string) => s.split(runId).join('RUN');
  const samples = strip(JSON.stringify(await store.getSamples(runId)));
  const batches = await store.listGroupBatches(runId);
  const run = await store.getRun(runId);
  return { phases, metrics, checkpoints, samples, batches, status: run?.status, cursor: run?.cursor };
}

interface Cut {
  /** Position of the phase in the plan. */
  index: number;
  phase: PhaseName;
  /** Cut once the phase has reported this share of its items done (at least one). */
  at: number;
}

interface Resumed {
  cut: Cut;
  /** Items the phase had reported done when the cut came. */
  doneAtCut: number;
  /** Batches of the phase its last save held after the cut. */
  saved: number;
  /** Batches the resumed phase took from that save. */
  replayed: number;
}

/** Runs a stored run to its end, unloading it at each cut (in plan order) and resuming it from the store. */
async function runWithCuts(store: Store, runId: string, cuts: Cut[], saveEveryMs = 0, skipped: Cut[] = []): Promise<Resumed[]> {
  const resumed: Resumed[] = [];
  const pending = [...cuts];
  for (;;) {
    const runner = await CoevoRunner.resume(deps(store, saveEveryMs), runId);
    const last = resumed[resumed.length - 1];
    let doneAtCut = -1;
    runner.onProgress((p: CoevoProgress) => {
      if (last && p.replayed !== undefined) last.replayed = p.replayed;
      // A phase that ended before its cut came (its items came in one report) has no cut left.
      while (pending.length > 0 && pending[0].index < p.phaseIndex) skipped.push(pending.shift() as Cut);
      const next = pending[0];
      if (next && doneAtCut < 0 && p.phaseIndex === next.index && p.total > 0 && p.done >= Math.max(1, Math.ceil(next.at * p.total)) && p.state === 'running') {
        doneAtCut = p.done;
        runner.dispose();
      }
    });
    const state = await runner.run();
    if (doneAtCut < 0) {
      expect(state).toBe('done');
      runner.dispose();
      await runner.whenDisposed();
      return resumed;
    }
    await runner.whenDisposed();
    const saved = (await store.getProgress(runId))?.batches ?? 0;
    resumed.push({ cut: pending.shift() as Cut, doneAtCut, saved, replayed: 0 });
  }
}

/** What a run with this config stores when nothing interrupts it. */
async function uninterruptedRun(cfg: CoevoConfig): Promise<Awaited<ReturnType<typeof storedRun>>> {
  const refStore = await openStore();
  const ref = await CoevoRunner.create(deps(refStore, Number.POSITIVE_INFINITY), cfg);
  expect(await ref.run()).toBe('done');
  ref.dispose();
  await ref.whenDisposed();
  return storedRun(refStore, ref.runId);
}

describe('a run reloaded in the middle of phases', () => {
  it('resumes every phase type from its mid-phase save and ends equal to the uninterrupted run', async () => {
    const tensors = tf.memory().numTensors;
    const cfg = smallConfig();

    const expected = await uninterruptedRun(cfg);
    expect(expected.status).toBe('done');

    // Two cuts in every phase of the plan, the second later in the phase than the first.
    const cuts: Cut[] = phasePlan(cfg).flatMap((c, index) => [
      { index, phase: c.phase, at: 0.3 },
      { index, phase: c.phase, at: 0.7 },
    ]);
    const store = await openStore();
    const first = await CoevoRunner.create(deps(store), cfg);
    first.dispose();
    await first.whenDisposed();
    const skipped: Cut[] = [];
    const resumed = await runWithCuts(store, first.runId, cuts, 0, skipped);

    const got = await storedRun(store, first.runId);
    expect(got.phases).toEqual(expected.phases);
    expect(got.metrics).toEqual(expected.metrics);
    expect(got.samples).toEqual(expected.samples);
    expect(got.batches).toEqual(expected.batches);
    expect(got.checkpoints.map((c) => c.id)).toEqual(expected.checkpoints.map((c) => c.id));
    got.checkpoints.forEach((c, i) => expect(c.bytes, c.id).toEqual(expected.checkpoints[i].bytes));
    expect(got.status).toBe('done');
    expect(await store.getProgress(first.runId)).toBeUndefined();

    // Every phase type was cut mid-phase and continued from its save, not from its start.
    const types = new Set(resumed.filter((r) => r.replayed > 0).map((r) => r.cut.phase));
    expect([...types].sort()).toEqual(['distill', 'evaluate', 'grounder-train', 'planner-grpo', 'seed-data', 'sft-grounder', 'sft-planner']);
    // Saving before every batch, each cut phase took up exactly where it was cut: the save held every batch done, and all were taken.
    for (const r of resumed) {
      expect(r.saved, JSON.stringify(r)).toBeGreaterThan(0);
      expect(r.replayed, JSON.stringify(r)).toBe(r.saved);
    }
    console.log(`mid-phase cuts: ${resumed.length} (skipped, phase ended first: ${skipped.length}); ` + resumed.map((r) => `${r.cut.phase}#${r.cut.index} cut at ${r.doneAtCut} items, resumed after ${r.replayed} batches`).join('; '));
    expect(tf.memory().numTensors).toBe(tensors);
  }, 1_800_000);

  it('with LoRA and no save yet, a cut phase starts over and still ends equal', async () => {
    const tensors = tf.memory().numTensors;
    const cfg = smallConfig({ lora: { enabled: true, rank: 2, alpha: 4 }, plannerSftLr: 0.05, grounderGrpo: false, iterations: 1 });
    const expected = await uninterruptedRun(cfg);

    // LoRA adapters are trained state too: cut the training phases mid-way (saves every batch) ...
    const store = await openStore();
    const first = await CoevoRunner.create(deps(store), cfg);
    first.dispose();
    await first.whenDisposed();
    const trainCuts: Cut[] = [
      { index: 1, phase: 'sft-planner', at: 0.5 },
      { index: 2, phase: 'sft-grounder', at: 0.5 },
      { index: 4, phase: 'planner-grpo', at: 0.4 },
      { index: 6, phase: 'grounder-train', at: 0.7 },
    ];
    const resumed = await runWithCuts(store, first.runId, trainCuts);
    for (const r of resumed) expect(r.replayed, JSON.stringify(r)).toBe(r.saved);
    expect(resumed.every((r) => r.replayed > 0)).toBe(true);
    const got = await storedRun(store, first.runId);
    expect(got).toEqual(expected);

    // ... and with saves too rare to have happened, a cut phase reruns from its start and ends the same.
    const store2 = await openStore();
    const second = await CoevoRunner.create(deps(store2), cfg);
    second.dispose();
    await second.whenDisposed();
    const rerun = await runWithCuts(store2, second.runId, [{ index: 6, phase: 'grounder-train', at: 0.5 }], Number.POSITIVE_INFINITY);
    expect(rerun.map((r) => r.replayed)).toEqual([0]);
    expect(await storedRun(store2, second.runId)).toEqual(expected);
    expect(tf.memory().numTensors).toBe(tensors);
  }, 1_800_000);
});
