/**
 * The offsite comparison in the engine worker (npm run offsite and the
 * Offsite view): one run at a time, its progress kept for the page to poll,
 * the agent's base read from the shipped files. With a store, each run is
 * recorded as it starts, at each phase, and with its report or error when
 * it ends, and holds a Web Lock named after it while it runs: a page opened
 * later tells a run going on in another tab from one a reload stopped.
 * What the comparison is lives in src/offsite.
 */
import type { BaseLoader } from '../src/coevo/phases/context';
import type { Paint } from '../src/learn/stepCheck';
import { runOffsiteJob } from '../src/offsite/job';
import { IDLE_OFFSITE, type OffsiteOptions, type OffsiteProgress } from '../src/offsite/jobTypes';
import { offsiteTracker, type OffsiteTracker } from '../src/offsite/progress';
import type { OffsiteReport } from '../src/offsite/report';
import { offsiteLockName } from '../src/offsite/record';
import type { PrivateTile } from '../src/ownScreen/privateTile';
import type { OffsiteRecord } from '../src/store/schema';
import type { Store } from '../src/store/store';
import type { DeviceInfo } from './api';
import { shippedBaseLoader } from './baseModels';

interface OffsiteHostDeps {
  paint: () => Promise<Paint>;
  device: () => DeviceInfo | null;
  loadBase?: BaseLoader;
  now?: () => number;
  /** The first error the GPU reported (a kernel that failed to compile computes garbage), or null. */
  deviceFault?: () => string | null;
  /** Where runs are recorded; none: not recorded (tests). */
  store?: () => Promise<Store>;
  /** The co-evolution run this worker is training, if any (a comparison then waits to be asked again). */
  training?: () => string | null;
}

/** Holds the Web Lock `name` until `done` settles (no-op where the browser has no Web Locks). */
function holdLock(name: string, done: Promise<unknown>): void {
  const locks = typeof navigator !== 'undefined' ? navigator.locks : undefined;
  void locks?.request(name, () => done.catch(() => undefined));
}

export function createOffsiteHost(deps: OffsiteHostDeps) {
  const now = deps.now ?? (() => performance.now());
  const loadBase = deps.loadBase ?? shippedBaseLoader();
  let tracker: OffsiteTracker | null = null;
  let last: OffsiteProgress = { ...IDLE_OFFSITE };
  let running = false;
  let record: OffsiteRecord | null = null;
  let saving: Promise<void> = Promise.resolve();
  // Writes queue behind each other, so that a late phase update cannot land after the final record; a failed write (a full disk) costs the record, never the comparison.
  const save = (patch: Partial<OffsiteRecord>) => {
    if (!record || !deps.store) return;
    const next = (record = { ...record, ...patch });
    saving = saving.then(async () => (await deps.store!()).putOffsite(next)).catch(() => undefined);
  };
  return {
    /** `own`: the person's marked screenshots as tiles, for privateSet 'own-screenshots'. */
    async run(o: OffsiteOptions, own: readonly PrivateTile[] = []): Promise<OffsiteReport> {
      const device = deps.device();
      if (!device) throw new Error('Choose a backend (useBackend) before an offsite comparison.');
      if (running) throw new Error('An offsite comparison is already running in this tab; wait for it to finish.');
      const run = deps.training?.() ?? null;
      if (run) throw new Error(`Run ${run} is training in this tab; pause it in the Loop view first (the two would share the worker at half pace each).`);
      running = true;
      // A new run's progress starts empty, so that nobody reads the last run's figures as this one's.
      tracker = offsiteTracker(0, now);
      last = tracker.progress();
      let finish: () => void = () => undefined;
      const ended = new Promise<void>((r) => (finish = r));
      const createdAt = Date.now();
      record = { id: `offsite-${createdAt.toString(36)}`, createdAt, options: o, state: 'running', phase: '', done: 0, total: 0 };
      holdLock(offsiteLockName(record.id), ended);
      save({});
      const onPhase = (phase: string) => {
        tracker?.onPhase(phase);
        const p = tracker?.progress();
        save({ phase, done: p?.done ?? 0, total: p?.total ?? 0 });
      };
      const backend = device.backend === 'wasm' ? `wasm, ${device.wasm?.threads ?? 1} thread(s)` : `webgpu (${device.adapter?.description || device.adapter?.vendor || 'adapter'})`;
      try {
        const report = await runOffsiteJob(
          o,
          { loadBase, paint: await deps.paint(), backend, onPhase, onProgress: (p, s, n) => tracker?.onProgress(p, s, n) },
          (total) => (tracker = offsiteTracker(total, now)),
          own,
        );
        const fault = deps.deviceFault?.() ?? null;
        if (fault) throw new Error(`The GPU reported an error during the comparison, so its figures cannot be trusted: ${fault}. Run with --backend wasm.`);
        tracker.onPhase(''); // the last phase ends with the run: list it among the finished
        last = { ...tracker.progress(), state: 'done', etaMs: 0 };
        save({ state: 'done', phase: '', done: last.total, total: last.total, report, finishedAt: Date.now() });
        return report;
      } catch (e) {
        last = { ...(tracker?.progress() ?? last), state: 'failed', error: e instanceof Error ? e.message : String(e) };
        save({ state: 'failed', error: last.error, finishedAt: Date.now() });
        throw e;
      } finally {
        await saving;
        finish();
        tracker = null;
        record = null;
        running = false;
      }
    },
    progress: (): OffsiteProgress => (tracker ? tracker.progress() : last),
  };
}
