/**
 * The co-evolution runner end to end on a very small config (WASM, fake
 * IndexedDB, the synthetic screen painter): every phase of one iteration
 * runs and commits its outputs; a run paused in the middle of a phase,
 * unloaded and resumed from the store ends with exactly what an
 * uninterrupted run with the same seed stored (sample counts, final
 * metrics, curves, checkpoints); the coevo=false ablation distils nothing;
 * bad configs are refused before anything is stored; an aborted run is
 * marked failed and can be resumed. Every test checks that no tensor
 * outlives the runner.
 */
import 'fake-indexeddb/auto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import * as tf from '../../src/models/tf';
import '@tensorflow/tfjs-backend-wasm';
import { ConfigError, defaultConfig, type CoevoConfig } from '../../src/coevo/config';
import { readCheckpoint } from '../../src/models/checkpoint';
import { syntheticScreenImage } from '../../src/models/rasterize';
import { PHASES } from '../../src/coevo/records';
import { buildReport, metricsFromSummary } from '../../src/coevo/report';
import { CoevoRunner, configOfRun, type CoevoProgress, type RunnerDeps } from '../../src/coevo/runner';
import { checkpointId } from '../../src/coevo/runState';
import { Store } from '../../src/store/store';

beforeAll(async () => {
  await tf.setBackend('wasm');
  await tf.ready();
});

const DEVICE = { backend: 'wasm', adapter: 'none (WASM in Node)' };
const deps = (store: Store): RunnerDeps => ({ store, paint: syntheticScreenImage, device: DEVICE });

/**
 * The tiny preset's models with a handful of steps of everything (one
 * iteration, grounder GRPO on). Planner decoding dominates the time (a full
 * forward per token per row), so GRPO and distillation sample few rows.
 */
function smallConfig(over: Partial<CoevoConfig> = {}): CoevoConfig {
  return {
    ...defaultConfig('tiny', 3),
    // Mechanics from random weights; the shipped base models are checked in base-shipped.test.ts.
    start: 'scratch',
    iterations: 1,
    plannerSftSteps: 3,
    grounderSftSteps: 3,
    plannerGrpoSteps: 1,
    grounderTrainSteps: 3,
    plannerBatch: 4,
    grounderBatch: 4,
    grpoPrompts: 2,
    groupSize: 2,
    seedTasks: 3,
    distillStates: 3,
    evalSize: 2,
    grounderGrpo: true,
    ...over,
  };
}

let dbs = 0;
const openStore = () => Store.open(`coevo-runner-test-${++dbs}`);

/** Every progress event, checked for sanity as it arrives. */
function recordProgress(r: CoevoRunner): CoevoProgress[] {
  const seen: CoevoProgress[] = [];
  r.onProgress((p) => seen.push(p));
  return seen;
}

function expectSaneProgress(seen: readonly CoevoProgress[], phaseCount: number): void {
  expect(seen.length).toBeGreaterThan(0);
  let index = -1;
  for (const p of seen) {
    expect(p.done).toBeGreaterThanOrEqual(0);
    expect(p.done).toBeLessThanOrEqual(p.total);
    expect(p.phaseCount).toBe(phaseCount);
    expect(p.phaseIndex).toBeGreaterThanOrEqual(index);
    index = p.phaseIndex;
    if (p.etaMs !== null) expect(p.etaMs).toBeGreaterThanOrEqual(0);
  }
}

const finalMetrics = async (store: Store, runId: string) => {
  const phases = await store.listPhases(runId);
  const last = phases.filter((p) => p.phase === 'evaluate').sort((a, b) => b.iteration - a.iteration)[0];
  return metricsFromSummary(last.summary);
};

const curves = async (store: Store, runId: string) =>
  (await store.getMetrics(runId)).map((m) => ({ name: m.name, steps: m.steps, values: m.values })).sort((a, b) => (a.name < b.name ? -1 : 1));

const weights = async (store: Store, runId: string, model: 'planner' | 'grounder', k: number) => {
  const c = await store.getCheckpoint(checkpointId(runId, model, k));
  expect(c, `checkpoint ${model}@${k}`).toBeDefined();
  return new Uint8Array(c!.weights);
};

describe('CoevoRunner', () => {
  // The uninterrupted run, compared against the resumed one below.
  let reference: { store: Store; runId: string };

  it('runs every phase of an iteration, committing each with its samples, checkpoints and curves', async () => {
    const tensors = tf.memory().numTensors;
    const store = await openStore();
    const r = await CoevoRunner.create(deps(store), smallConfig(), 'test run');
    reference = { store, runId: r.runId };
    expect(r.progress()).toMatchObject({ state: 'idle', phase: 'seed-data', iteration: 0, phaseIndex: 0, phaseCount: 8 });
    const seen = recordProgress(r);
    expect(await r.run()).toBe('done');
    expect(r.progress()).toMatchObject({ state: 'done', phase: null, phaseIndex: 8, iteration: 1 });
    expectSaneProgress(seen, 8);
    // Every phase reported items within its total, in plan order.
    const order = [...new Set(seen.filter((p) => p.phase !== null).map((p) => `${p.iteration}/${p.phase}`))];
    expect(order).toEqual(['0/seed-data', '0/sft-planner', '0/sft-grounder', '0/evaluate', '1/planner-grpo', '1/distill', '1/grounder-train', '1/evaluate']);
    expect(seen.some((p) => p.phase === 'sft-planner' && p.loss !== undefined && Number.isFinite(p.loss))).toBe(true);
    expect(seen.some((p) => p.phase === 'planner-grpo' && p.reward !== undefined)).toBe(true);

    const run = await store.getRun(r.runId);
    expect(run).toMatchObject({ kind: 'coevo', name: 'test run', status: 'done', backend: 'wasm', seed: 3 });
    expect(configOfRun(run!)).toEqual(smallConfig());
    expect(run!.config).toMatchObject({ preset: 'tiny', groupSize: 2, 'curation.tooEasy': true, rewardPool: 'verifier:1,previous:1,current:2' });

    const phases = (await store.listPhases(r.runId)).sort((a, b) => a.index - b.index);
    expect(phases.map((p) => `${p.index}:${p.iteration}/${p.phase}`)).toEqual([
      '0:0/seed-data', '1:0/sft-planner', '2:0/sft-grounder', '3:0/evaluate', '4:1/planner-grpo', '5:1/distill', '6:1/grounder-train', '7:1/evaluate',
    ]);
    for (const p of phases) expect(p.finishedAt).toBeGreaterThanOrEqual(p.startedAt);
    expect(phases[6].summary).toMatchObject({ sft_steps: 3, grpo_steps: 1 });
    expect(phases[6].summary.attention_kept).toBeGreaterThanOrEqual(0);

    // D0 and E1 are stored with unique ids, and D0 both keeps and drops.
    const counts = await store.countSamples(r.runId);
    const samples = await store.getSamples(r.runId);
    expect(new Set(samples.map((s) => s.id)).size).toBe(samples.length);
    expect(counts.total).toBe(samples.length);
    expect(counts.byIteration[0]).toBe(phases[0].summary.samples);
    expect(counts.keptByIteration[0]).toBe(phases[0].summary.kept);
    expect(counts.byIteration[1]).toBe(phases[5].summary.sampled);
    expect(samples.filter((s) => s.iteration === 1).every((s) => s.source === 'planner@1' && s.origin === 'distilled')).toBe(true);

    const checkpoints = await store.listCheckpoints(r.runId);
    expect(checkpoints.map((c) => c.id).sort()).toEqual([0, 1].flatMap((k) => [checkpointId(r.runId, 'grounder', k), checkpointId(r.runId, 'planner', k)]).sort());
    // φ1 was trained: it differs from φ0.
    expect(await weights(store, r.runId, 'grounder', 1)).not.toEqual(await weights(store, r.runId, 'grounder', 0));

    const report = await buildReport(store, r.runId, DEVICE);
    expect(report.iterations.map((i) => i.k)).toEqual([0, 1]);
    expect(typeof report.iterations[1].planner_reward_mean).toBe('number');
    for (const it of report.iterations) {
      expect(Object.keys(it.metrics)).toContain('web/cross-domain/step_success');
      expect(Object.keys(it.metrics)).toContain('grounding/mobile-icon/accuracy');
      // The reading probe, in every evaluation: grounding by style and what the grounder reads.
      expect(Object.keys(it.metrics)).toEqual(expect.arrayContaining(['styles/text/accuracy', 'styles/all/accuracy', 'reading/cells/letter_f1', 'reading/glyphs/top1']));
      for (const v of Object.values(it.metrics)) expect(v >= 0 && v <= 1).toBe(true);
    }
    expect(report.informative_group_ratio.map((x) => x.iteration)).toEqual([1]);
    for (const name of ['planner-sft/loss', 'grounder-sft/loss', 'grounder-grpo/reward', 'planner-grpo/reward', 'planner-grpo/kl', 'planner-grpo/informative']) {
      const c = report.curves[name];
      expect(c, name).toBeDefined();
      // Global steps: 1, 2, 3, … across phases and iterations.
      expect(c.steps).toEqual(c.steps.map((_, i) => i + 1));
    }
    // grounder-sft/loss spans φ0's SFT and φ1's training: one curve over the run.
    expect(report.curves['grounder-sft/loss'].steps.length).toBeGreaterThan(3);

    r.dispose();
    await r.whenDisposed();
    expect(tf.memory().numTensors).toBe(tensors);
  }, 600_000); // one tiny loop, now also sampling the planner in each evaluation: over 120 s on a loaded 2-core machine (a guard against hangs, not a speed goal)

  it('resumes a run unloaded in the middle of a phase and ends with what the uninterrupted run stored', async () => {
    const tensors = tf.memory().numTensors;
    const store = await openStore();
    const r = await CoevoRunner.create(deps(store), smallConfig());
    const seen = recordProgress(r);
    // Pause inside grounder-train once its first batch is through.
    r.onProgress((p) => {
      if (p.phase === 'grounder-train' && p.done >= 1) r.pause();
    });
    expect(await r.run()).toBe('paused');
    expect(r.progress()).toMatchObject({ state: 'paused', phase: 'grounder-train', iteration: 1, phaseIndex: 6, done: 1 });
    expect(await r.stepBatch()).toBe('paused');
    expect(r.progress()).toMatchObject({ state: 'paused', phase: 'grounder-train', done: 2 });
    expectSaneProgress(seen, 8);
    // Nothing of the unfinished phase is stored; the cursor points at it.
    expect((await store.listPhases(r.runId)).length).toBe(6);
    expect((await store.getRun(r.runId))?.cursor).toEqual({ iteration: 1, phase: 'grounder-train' });
    expect(await store.getCheckpoint(checkpointId(r.runId, 'grounder', 1))).toBeUndefined();

    r.dispose();
    await r.whenDisposed();
    expect(tf.memory().numTensors).toBe(tensors);
    // Unloading is not a failure; the record says the run waits for a person, as it did.
    expect((await store.getRun(r.runId))?.status).toBe('paused');

    const again = await CoevoRunner.resume(deps(store), r.runId);
    expect(again.config).toEqual(smallConfig());
    expect(again.progress()).toMatchObject({ state: 'idle', phase: 'grounder-train', iteration: 1, phaseIndex: 6, done: 0 });
    const after = recordProgress(again);
    expect(await again.run()).toBe('done');
    expectSaneProgress(after, 8);
    expect(after[0]).toMatchObject({ phase: 'grounder-train', phaseIndex: 6 });
    // It went on from the save made at the pause: the two batches done were not trained again.
    expect(after.find((p) => p.replayed !== undefined)?.replayed).toBe(2);
    expect(await store.getProgress(r.runId)).toBeUndefined();

    const ref = reference;
    expect((await store.listPhases(r.runId)).map((p) => p.index).sort()).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(await store.countSamples(r.runId)).toEqual(await ref.store.countSamples(ref.runId));
    const samplesOf = async (s: Store, id: string) => JSON.stringify(await s.getSamples(id)).split(id).join('RUN');
    expect(await samplesOf(store, r.runId)).toEqual(await samplesOf(ref.store, ref.runId));
    expect(await finalMetrics(store, r.runId)).toEqual(await finalMetrics(ref.store, ref.runId));
    expect(await curves(store, r.runId)).toEqual(await curves(ref.store, ref.runId));
    for (const model of ['planner', 'grounder'] as const) expect(await weights(store, r.runId, model, 1)).toEqual(await weights(ref.store, ref.runId, model, 1));
    expect((await store.getRun(r.runId))?.status).toBe('done');

    again.dispose();
    await again.whenDisposed();
    expect(tf.memory().numTensors).toBe(tensors);

    // A finished run resumes as done and runs nothing.
    const finished = await CoevoRunner.resume(deps(store), r.runId);
    expect(finished.progress()).toMatchObject({ state: 'done', phase: null, phaseIndex: 8 });
    expect(await finished.run()).toBe('done');
    finished.dispose();
    await finished.whenDisposed();
    expect(tf.memory().numTensors).toBe(tensors);
  }, 900_000); // two runs of a tiny loop with the glyph reader: minutes on a loaded 2-core machine (a guard against hangs, not a speed goal)

  it('with coevo=false (and LoRA) distils nothing and trains the grounder on D0 alone', async () => {
    const tensors = tf.memory().numTensors;
    const store = await openStore();
    // LoRA adapters start at ΔW = 0: at the default rate 3 steps leave a planner that never writes eos, and
    // every evaluation decode then runs the whole completion length (about 10× the time of this test).
    const cfg = smallConfig({ coevo: false, lora: { enabled: true, rank: 2, alpha: 4 }, grounderGrpo: false, grpoPrompts: 1, plannerSftLr: 0.05 });
    const r = await CoevoRunner.create(deps(store), cfg);
    expect(await r.run()).toBe('done');
    const phases = (await store.listPhases(r.runId)).sort((a, b) => a.index - b.index);
    expect(phases.map((p) => p.phase)).toEqual(['seed-data', 'sft-planner', 'sft-grounder', 'evaluate', 'planner-grpo', 'distill', 'grounder-train', 'evaluate']);
    expect(String(phases[5].summary.skipped)).toMatch(/coevo is false/);
    expect(phases[6].summary).toMatchObject({ distilled_examples: 0, examples: phases[0].summary.kept_with_target });
    const counts = await store.countSamples(r.runId);
    expect(Object.keys(counts.byIteration)).toEqual(['0']);
    // LoRA adapters were merged: checkpoints hold plain models of the preset's shape.
    for (const model of ['planner', 'grounder'] as const) {
      const { tensors: t } = readCheckpoint(await weights(store, r.runId, model, 1));
      expect(Object.keys(t).some((n) => n.includes('lora'))).toBe(false);
    }
    expect(await weights(store, r.runId, 'grounder', 1)).not.toEqual(await weights(store, r.runId, 'grounder', 0));
    r.dispose();
    await r.whenDisposed();
    expect(tf.memory().numTensors).toBe(tensors);
  });

  it('from the base models, π0 is the base planner unless plannerSftOnBase asks for the seed SFT', async () => {
    const base = async (model: 'planner' | 'grounder') => new Uint8Array(readFileSync(join(__dirname, `../../public/base/tiny-${model}.safetensors`)));
    const shipped = readCheckpoint(await base('planner')).tensors;
    const moved: boolean[] = [];
    for (const plannerSftOnBase of [false, true]) {
      const store = await openStore();
      const r = await CoevoRunner.create({ ...deps(store), base }, smallConfig({ start: 'base', plannerSftOnBase }));
      await r.stepPhase(); // seed-data
      await r.stepPhase(); // sft-planner
      const pi0 = readCheckpoint(await weights(store, r.runId, 'planner', 0)).tensors;
      expect(Object.keys(pi0).sort()).toEqual(Object.keys(shipped).sort());
      moved.push(Object.keys(shipped).some((n) => pi0[n].data.some((v, i) => v !== shipped[n].data[i])));
      r.dispose();
      await r.whenDisposed();
    }
    expect(moved).toEqual([false, true]);
  });

  it('for demo, start = base takes the shipped demo planner and grounder (the grounder then SFTs a few steps from it)', async () => {
    const asked: string[] = [];
    const base = async (model: 'planner' | 'grounder', preset: string) => {
      asked.push(`${preset}/${model}`);
      return new Uint8Array(readFileSync(join(__dirname, `../../public/base/${preset}-${model}.safetensors`)));
    };
    const shipped = { planner: readCheckpoint(await base('planner', 'demo')).tensors, grounder: readCheckpoint(await base('grounder', 'demo')).tensors };
    asked.length = 0;
    const store = await openStore();
    const r = await CoevoRunner.create({ ...deps(store), base }, { ...smallConfig({ start: 'base' }), preset: 'demo' });
    await r.stepPhase(); // seed-data
    await r.stepPhase(); // sft-planner: none from a base planner (plannerSftOnBase false)
    await r.stepPhase(); // sft-grounder
    const pi0 = readCheckpoint(await weights(store, r.runId, 'planner', 0)).tensors;
    expect(Object.keys(pi0).sort()).toEqual(Object.keys(shipped.planner).sort());
    expect(Object.keys(shipped.planner).every((n) => pi0[n].data.every((v, i) => v === shipped.planner[n].data[i]))).toBe(true);
    // Three SFT steps move each weight by about the learning rate a step; a fresh grounder would differ by its whole init.
    const g0 = readCheckpoint(await weights(store, r.runId, 'grounder', 0)).tensors;
    expect(g0['head.q.w'].shape).toEqual([64, 64]);
    let drift = 0;
    for (const n of Object.keys(shipped.grounder)) g0[n].data.forEach((v, i) => (drift = Math.max(drift, Math.abs(v - shipped.grounder[n].data[i]))));
    expect(drift).toBeGreaterThan(0);
    expect(drift).toBeLessThan(0.05);
    expect(asked.sort()).toEqual(['demo/grounder', 'demo/planner']);
    r.dispose();
    await r.whenDisposed();
  });

  it('refuses bad configs before storing anything, naming the field', async () => {
    const store = await openStore();
    const bad: [Partial<CoevoConfig>, string][] = [
      [{ groupSize: 1 }, 'groupSize'],
      [{ rewardPool: [{ name: 'previous', prior: 1 }] }, 'rewardPool'],
      [{ start: 'base' }, 'start'],
    ];
    for (const [over, field] of bad) {
      const err = await CoevoRunner.create(deps(store), smallConfig(over)).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ConfigError);
      expect((err as ConfigError).field).toBe(field);
    }
    // A preset with no base model at all: start = 'base' is refused, not quietly run from scratch.
    const none = await CoevoRunner.create({ ...deps(store), base: async () => new Uint8Array() }, { ...smallConfig({ start: 'base' }), preset: 'full' }).catch((e: unknown) => e);
    expect(none).toBeInstanceOf(ConfigError);
    expect((none as ConfigError).message).toMatch(/no base models ship for preset 'full'; set start=scratch/);
    await expect(CoevoRunner.create({ ...deps(store), device: { backend: 'tpu', adapter: '' } }, smallConfig())).rejects.toThrow(/Unknown backend 'tpu'/);
    await expect(CoevoRunner.resume(deps(store), 'no-such-run')).rejects.toThrow(/No run with id no-such-run/);
    expect(await store.listRuns()).toEqual([]);
  });

  it('marks an aborted run failed with the reason, and resuming it marks it running again', async () => {
    const tensors = tf.memory().numTensors;
    const store = await openStore();
    const r = await CoevoRunner.create(deps(store), smallConfig());
    const running = r.run();
    r.abort('stopped by the test');
    expect(await running).toBe('failed');
    expect(r.progress()).toMatchObject({ state: 'failed', error: 'stopped by the test', phase: 'seed-data' });
    expect(await store.getRun(r.runId)).toMatchObject({ status: 'failed', error: 'stopped by the test', cursor: { iteration: 0, phase: PHASES[0] } });
    expect(await store.listPhases(r.runId)).toEqual([]);
    r.dispose();
    await r.whenDisposed();

    const again = await CoevoRunner.resume(deps(store), r.runId);
    expect((await store.getRun(r.runId))?.status).toBe('running');
    expect(again.progress()).toMatchObject({ state: 'idle', phase: 'seed-data' });
    again.dispose();
    await again.whenDisposed();
    // Unloading an idle runner is not a failure either.
    expect((await store.getRun(r.runId))?.status).toBe('running');
    expect(tf.memory().numTensors).toBe(tensors);
  });

  it('does not commit a phase during which the GPU reported an error, and says why', async () => {
    const tensors = tf.memory().numTensors;
    const store = await openStore();
    let fault: string | null = null;
    const r = await CoevoRunner.create({ ...deps(store), deviceFault: () => fault }, smallConfig());
    // The error arrives in the middle of the planner's SFT, the second phase.
    r.onProgress((p) => {
      if (p.phase === 'sft-planner' && p.done >= 1) fault = 'Invalid ShaderModule "pad"';
    });
    expect(await r.run()).toBe('failed');
    const error = r.progress().error ?? '';
    expect(error).toMatch(/GPU reported an error while sft-planner \(iteration 0\) ran.*not kept: Invalid ShaderModule "pad"/);
    expect(error).toContain('?backend=wasm');
    expect((await store.listPhases(r.runId)).map((p) => p.phase)).toEqual(['seed-data']);
    expect(await store.getRun(r.runId)).toMatchObject({ status: 'failed', cursor: { iteration: 0, phase: 'sft-planner' } });
    expect(await store.getCheckpoint(checkpointId(r.runId, 'planner', 0))).toBeUndefined();
    r.dispose();
    await r.whenDisposed();
    expect(tf.memory().numTensors).toBe(tensors);
  });
});
