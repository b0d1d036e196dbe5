/**
 * The co-evolution runs this worker drives: start, resume after a reload,
 * pause/step/resume, status, report, export/import. A run is driven by one
 * tab at a time (runLocks); its phases commit to the store as they finish
 * and save their progress in between, so whatever this worker holds in
 * memory can be rebuilt from the store.
 *
 * Every progress event of a run driven here is also posted on a
 * BroadcastChannel, so a tab that shows the same run without driving it
 * shows the driver's live progress (marked drivenElsewhere), and is told
 * when the driver's tab has gone (driverGone) so it can take the run over.
 */
import type { Store } from '../src/store/store';
import type { BaseLoader, RealScreenSource } from '../src/coevo/phases/context';
import type { RealPageRenderer } from '../src/pretrain/realPool';
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
import { createRunLocks, RunLockedError, type TabInfo } from './runLocks';
import { deviceLabel } from './deviceLabel';
import { onePerKey } from './onePerKey';
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
  /** The real-screen suite the page draws, for every evaluation of every run (absent: those metrics are skipped). */
  realScreens?: RealScreenSource;
  /** Real training pages the page draws, for the grounder's real-DOM mix (absent: it trains on Dk alone). */
  realPages?: RealPageRenderer;
}

/** The config a start request asks for: the preset's defaults, then each `key=value`. */
export function configFor(o: CoevoStartOptions): CoevoConfig {
  if (!PRESET_NAMES.includes(o.preset as PresetName)) throw new Error(`preset must be one of ${PRESET_NAMES.join(', ')}; got ${JSON.stringify(o.preset)}`);
  let c = validateConfig({ ...defaultConfig(o.preset as PresetName, o.seed), iterations: o.iterations, ...(o.config ?? {}) });
  for (const s of o.set ?? []) c = applySet(c, s);
  return c;
}

type ProgressMessage = { type: 'progress'; progress: CoevoProgress; tab: TabInfo };

const PROGRESS_CHANNEL = 'coevo-run-progress';



export function createCoevoHost(deps: HostDeps) {
  const runners = new Map<string, CoevoRunner>();
  const listeners = new Set<(p: CoevoProgress) => void>();
  const locks = createRunLocks();
  const base = deps.base ?? shippedBaseLoader();
  const channel = new BroadcastChannel(PROGRESS_CHANNEL);
  /** Runs another tab drives whose lock this worker waits on, to say when the driver has gone. */
  const watched = new Set<string>();
  /** Runs taken up here as soon as their lock comes free, rather than offered (see watchElsewhere). */
  const takeUpWhenFree = new Set<string>();

  function tell(p: CoevoProgress): void {
    for (const l of listeners) l(p);
  }

  channel.onmessage = (e: MessageEvent<ProgressMessage>) => {
    const { progress, tab } = e.data;
    if (e.data.type !== 'progress' || runners.has(progress.runId)) return;
    // Passed on for every run: the page shows the one it has open, and a driver that came back after a reload is shown again.
    if (progress.state !== 'done' && progress.state !== 'failed') watchElsewhere(progress.runId);
    tell({ ...progress, drivenHere: undefined, drivenElsewhere: { tab: tab.id, openedAt: tab.openedAt } });
  };

  /**
   * Watches a run another tab drives until that tab lets go, then says so
   * once; or, with `takeUp`, takes the run up and runs it on here then (a
   * page reloaded while it drove the run finds the lock still held for a
   * moment by its own previous worker).
   */
  function watchElsewhere(runId: string, takeUp = false): void {
    if (takeUp) takeUpWhenFree.add(runId);
    if (watched.has(runId)) return;
    watched.add(runId);
    void locks.whenFree(runId).then(async () => {
      watched.delete(runId);
      const mine = takeUpWhenFree.delete(runId);
      if (runners.has(runId)) return;
      const run = await (await deps.store()).getRun(runId);
      if (!run) return;
      if (mine && run.status === 'running') {
        try {
          void (await runnerFor(runId)).run();
          return;
        } catch {
          // Another tab was quicker: it drives, and its progress comes over the channel.
        }
      }
      tell({ ...storedProgress(run), driverGone: true });
    });
  }

  function deviceOf(): { backend: string; adapter: string } {
    const d = deps.device();
    if (!d) throw new Error('Choose a backend (useBackend) before training.');
    return deviceLabel(d);
  }

  async function runnerDeps(): Promise<RunnerDeps> {
    return { store: await deps.store(), paint: await deps.paint(), device: deviceOf(), deviceFault: deps.deviceFault, base, realScreens: deps.realScreens, realPages: deps.realPages };
  }

  /** Runs that failed here, and when: a lost GPU can fail a phase (a read-back rejects) before its loss is reported. */
  const recentFailures = new Map<string, number>();
  /** What the engine did to a run that its progress should say (a fallback from a lost GPU). */
  const notices = new Map<string, string>();
  /** A runner's progress as this tab reports it: driven here, with any notice the engine has for it. */
  const shownHere = (p: CoevoProgress): CoevoProgress => {
    const notice = notices.get(p.runId);
    return { ...p, drivenHere: true, ...(notice ? { notice } : {}) };
  };
  const progressOf = (r: CoevoRunner): CoevoProgress => shownHere(r.progress());

  function watch(runner: CoevoRunner): CoevoRunner {
    runners.set(runner.runId, runner);
    runner.onProgress((p) => {
      const shown = shownHere(p);
      tell(shown);
      channel.postMessage({ type: 'progress', progress: shown, tab: locks.tab } satisfies ProgressMessage);
      if (p.state === 'done' || p.state === 'failed') {
        if (p.state === 'failed') recentFailures.set(runner.runId, Date.now());
        locks.release(runner.runId);
        runners.delete(runner.runId);
        runner.dispose();
      }
    });
    return runner;
  }

  // The lock is this tab's already while a runner loads, so it cannot keep a second load out; onePerKey does.
  const loadRunner = onePerKey(async (runId: string): Promise<CoevoRunner> => {
    await locks.acquire(runId);
    try {
      return watch(await CoevoRunner.resume(await runnerDeps(), runId));
    } catch (e) {
      locks.release(runId);
      throw e;
    }
  });

  async function runnerFor(runId: string): Promise<CoevoRunner> {
    return runners.get(runId) ?? loadRunner(runId);
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
      // 'running' with no runner here: cut off by a reload or a closed tab, it waits until a tab takes it up (open()).
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

  /** A run another tab drives, as its record says until that tab's progress comes: a 'running' record is running there. */
  function drivenThere(run: RunRecord): CoevoProgress {
    const p = storedProgress(run);
    return run.status === 'running' ? { ...p, state: 'running' } : p;
  }

  return {
    tab: locks.tab,
    /** The run this worker is training now, or null: other heavy jobs in the worker wait for it rather than halve its pace. */
    training(): string | null {
      return [...runners.values()].find((r) => r.progress().state === 'running')?.runId ?? null;
    },
    onProgress(l: (p: CoevoProgress) => void): () => void {
      listeners.add(l);
      return () => listeners.delete(l);
    },

    async start(o: CoevoStartOptions): Promise<{ runId: string }> {
      const config = configFor(o);
      const runner = await CoevoRunner.create(await runnerDeps(), config, o.name, o.paused === true);
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
      return progressOf(r);
    },

    /**
     * After the device the runs computed on was lost: unloads every run
     * loaded here (their tensors lived on that device), lets `fallback`
     * switch the backend, and loads them again from the store, each at its
     * last save; those that were running run on. Each run's progress then
     * says what happened. This tab keeps their locks throughout.
     */
    async goOnWithout(reason: string, fallback: () => Promise<string>): Promise<void> {
      const live = [...runners.values()].map((r) => ({ runner: r, running: r.progress().state === 'running' }));
      for (const { runner } of live) {
        runners.delete(runner.runId);
        runner.dispose();
      }
      // Those the loss failed a moment before it was reported: they were running too.
      const failed = [...recentFailures].filter(([, at]) => Date.now() - at < 30_000).map(([id]) => id);
      recentFailures.clear();
      // A read-back pending on the lost device may never settle; the runners are rebuilt from the store either way.
      await Promise.race([Promise.all(live.map(({ runner }) => runner.whenDisposed().catch(() => undefined))), new Promise((r) => setTimeout(r, 10_000))]);
      let where: string;
      try {
        where = await fallback();
      } catch (e) {
        const why = e instanceof Error ? e.message : String(e);
        for (const { runner } of live) {
          locks.release(runner.runId);
          tell({ ...runner.progress(), state: 'failed', error: `${reason}, and no other backend could start: ${why}. Reload the page to continue the run from its last save.` });
        }
        return;
      }
      const again = [...live.map(({ runner, running }) => ({ runId: runner.runId, running })), ...failed.map((runId) => ({ runId, running: true }))];
      for (const { runId, running } of again) {
        notices.set(runId, `${reason[0].toUpperCase()}${reason.slice(1)}; the run went on on ${where} from its last save.`);
        try {
          const r = await runnerFor(runId);
          if (running) void r.run();
          else tell(progressOf(r));
        } catch (e) {
          locks.release(runId);
          const run = await (await deps.store()).getRun(runId);
          if (run) tell({ ...storedProgress(run), state: 'failed', error: `${reason}; loading the run again on ${where} failed: ${e instanceof Error ? e.message : String(e)}` });
        }
      }
    },

    /**
     * A run as this tab shows it: driven here; driven by another tab (its
     * live progress follows); or, when its record says it was running and
     * no tab drives it (a reload or a closed tab cut it off), taken up here
     * and run on from its last save when `takeUp` says so (the run a page
     * opens on). A run that waits for a person stays waiting.
     */
    async open(runId: string, takeUp = true): Promise<CoevoProgress> {
      const have = runners.get(runId);
      if (have) {
        await have.statusStored();
        return progressOf(have);
      }
      const run = await (await deps.store()).getRun(runId);
      if (!run) throw new Error(`No run ${runId} is stored here.`);
      const wanted = takeUp && run.kind === 'coevo' && run.status === 'running' && deps.device() !== null;
      const elsewhere = await locks.heldElsewhere(runId);
      if (elsewhere) {
        const tab = elsewhere.holder;
        // This tab's own worker before a reload (same tab id), or a holder whose page no longer answers (a driving page answers at once): the run is this tab's to go on with.
        if (wanted && (tab === null || tab.id === locks.tab.id)) {
          watchElsewhere(runId, true);
          return storedProgress(run);
        }
        watchElsewhere(runId);
        return { ...drivenThere(run), drivenElsewhere: { tab: tab?.id ?? 'unknown', openedAt: tab?.openedAt ?? 'unknown' } };
      }
      if (!wanted) return storedProgress(run);
      try {
        const r = await runnerFor(runId);
        void r.run();
        return progressOf(r);
      } catch (e) {
        if (!(e instanceof RunLockedError)) throw e;
        // Another tab took it up between the check and now, or this tab's worker before a reload has not let go yet.
        watchElsewhere(runId, e.holder === null || e.holder.id === locks.tab.id);
        return { ...drivenThere(run), drivenElsewhere: { tab: e.holder?.id ?? 'unknown', openedAt: e.holder?.openedAt ?? 'unknown' } };
      }
    },

    status(runId: string): Promise<CoevoProgress> {
      return this.open(runId, false);
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
