/**
 * The co-evolution runs this worker drives: start, resume after a reload,
 * pause/step/resume, status, report, export/import. A run is driven by one
 * tab at a time (runLocks); its phases commit to the store as they finish,
 * so whatever this worker holds in memory can be rebuilt from the store.
 */
import type { Store } from '../src/store/store';
import type { BaseLoader } from '../src/coevo/phases/context';
import type { RunRecord } from '../src/store/schema';
import type { Paint } from '../src/learn/stepCheck';
import type { ScreenRenderer } from '../src/world/render/screenImage';
import { applySet, defaultConfig, validateConfig, type CoevoConfig } from '../src/coevo/config';
import { CoevoRunner, configOfRun, type CoevoProgress, type RunnerDeps } from '../src/coevo/runner';
import { buildReport } from '../src/coevo/report';
import { exportRun, importRun } from '../src/coevo/archive';
import { trainerExportZip } from '../src/export/fromStore';
import { BUNDLED_PYTHON } from '../src/export/pythonAssets';
import { phasePlan } from '../src/coevo/machine';
import type { CoevoReport } from '../src/coevo/records';
import { PRESET_NAMES, type PresetName } from '../src/models/presets';
import type { CoevoControl, CoevoStartOptions, DeviceInfo } from './api';
import { createRunLocks } from './runLocks';
import { deviceLabel } from './deviceLabel';
import { shippedBaseLoader } from './baseModels';

interface HostDeps {
  store: () => Promise<Store>;
  paint: () => Promise<Paint>;
  /** Screenshots for the trainer export, from the same renderer as paint. */
  screenImages: () => Promise<ScreenRenderer>;
  device: () => DeviceInfo | null;
  deviceFault?: () => string | null;
  /** Where base checkpoints come from (default: the app's shipped public/base/). */
  base?: BaseLoader;
}

/** The config a start request asks for: the preset's defaults, then each `key=value`. */
export function configFor(o: CoevoStartOptions): CoevoConfig {
  if (!PRESET_NAMES.includes(o.preset as PresetName)) throw new Error(`preset must be one of ${PRESET_NAMES.join(', ')}; got ${JSON.stringify(o.preset)}`);
  let c = validateConfig({ ...defaultConfig(o.preset as PresetName, o.seed), iterations: o.iterations, ...(o.config ?? {}) });
  for (const s of o.set ?? []) c = applySet(c, s);
  return c;
}

export function createCoevoHost(deps: HostDeps) {
  const runners = new Map<string, CoevoRunner>();
  const listeners = new Set<(p: CoevoProgress) => void>();
  const locks = createRunLocks();
  const base = deps.base ?? shippedBaseLoader();

  function deviceOf(): { backend: string; adapter: string } {
    const d = deps.device();
    if (!d) throw new Error('Choose a backend (useBackend) before training.');
    return deviceLabel(d);
  }

  async function runnerDeps(): Promise<RunnerDeps> {
    return { store: await deps.store(), paint: await deps.paint(), device: deviceOf(), deviceFault: deps.deviceFault, base };
  }

  function watch(runner: CoevoRunner): CoevoRunner {
    runners.set(runner.runId, runner);
    runner.onProgress((p) => {
      for (const l of listeners) l(p);
      if (p.state === 'done' || p.state === 'failed') {
        locks.release(runner.runId);
        runners.delete(runner.runId);
        runner.dispose();
      }
    });
    return runner;
  }

  async function runnerFor(runId: string): Promise<CoevoRunner> {
    const have = runners.get(runId);
    if (have) return have;
    await locks.acquire(runId);
    try {
      return watch(await CoevoRunner.resume(await runnerDeps(), runId));
    } catch (e) {
      locks.release(runId);
      throw e;
    }
  }

  /** A stored run's progress when no runner is loaded for it here. */
  function storedProgress(run: RunRecord): CoevoProgress {
    const cfg = configOfRun(run);
    const plan = phasePlan(cfg);
    const finished = run.status === 'done' || !run.cursor;
    const cursor = run.cursor;
    const index = finished || !cursor ? plan.length : plan.findIndex((c) => c.iteration === cursor.iteration && c.phase === cursor.phase);
    return {
      runId: run.id,
      state: run.status === 'done' ? 'done' : run.status === 'failed' ? 'failed' : 'paused',
      iteration: finished || !cursor ? cfg.iterations : cursor.iteration,
      phase: finished || !cursor ? null : cursor.phase,
      phaseIndex: Math.max(0, index),
      phaseCount: plan.length,
      done: 0,
      total: 0,
      etaMs: null,
      error: run.error,
    };
  }

  return {
    tab: locks.tab,
    onProgress(l: (p: CoevoProgress) => void): () => void {
      listeners.add(l);
      return () => listeners.delete(l);
    },

    async start(o: CoevoStartOptions): Promise<{ runId: string }> {
      const config = configFor(o);
      const runner = await CoevoRunner.create(await runnerDeps(), config, o.name);
      try {
        await locks.acquire(runner.runId);
      } catch (e) {
        runner.dispose();
        throw e;
      }
      watch(runner);
      if (o.paused !== true) void runner.run();
      return { runId: runner.runId };
    },

    async control(runId: string, action: CoevoControl): Promise<CoevoProgress> {
      const r = await runnerFor(runId);
      if (action === 'pause') r.pause();
      else if (action === 'abort') r.abort('stopped by the user');
      else if (action === 'run') void (r.progress().state === 'paused' ? r.resume() : r.run());
      else if (action === 'step-phase') void r.stepPhase();
      else void r.stepBatch();
      return r.progress();
    },

    async status(runId: string): Promise<CoevoProgress> {
      const r = runners.get(runId);
      if (r) return r.progress();
      const run = await (await deps.store()).getRun(runId);
      if (!run) throw new Error(`No run ${runId} is stored here.`);
      return storedProgress(run);
    },

    async report(runId: string): Promise<CoevoReport> {
      return buildReport(await deps.store(), runId, deviceOf());
    },

    async exportRun(runId: string): Promise<Uint8Array> {
      return exportRun(await deps.store(), runId);
    },

    async exportForTrainer(runId: string, format: 'trl' | 'swift'): Promise<Uint8Array> {
      return trainerExportZip(await deps.store(), runId, format, BUNDLED_PYTHON, await deps.screenImages());
    },

    async importRun(bytes: Uint8Array): Promise<RunRecord> {
      return importRun(await deps.store(), bytes);
    },

    async deleteRun(runId: string): Promise<void> {
      if (runners.has(runId)) throw new Error(`Run ${runId} is loaded in this tab; stop it before deleting it.`);
      await locks.acquire(runId);
      try {
        await (await deps.store()).deleteRun(runId);
      } finally {
        locks.release(runId);
      }
    },
  };
}

export type CoevoHost = ReturnType<typeof createCoevoHost>;
