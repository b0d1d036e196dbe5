/**
 * The offsite comparison in the engine worker (npm run offsite): one run at
 * a time, its progress kept for the page to poll, the agent's base read
 * from the shipped files. What the comparison is lives in src/offsite.
 */
import type { BaseLoader } from '../src/coevo/phases/context';
import type { Paint } from '../src/learn/stepCheck';
import { runOffsiteJob } from '../src/offsite/job';
import { IDLE_OFFSITE, type OffsiteOptions, type OffsiteProgress } from '../src/offsite/jobTypes';
import { offsiteTracker, type OffsiteTracker } from '../src/offsite/progress';
import type { OffsiteReport } from '../src/offsite/report';
import type { DeviceInfo } from './api';
import { shippedBaseLoader } from './baseModels';

interface OffsiteHostDeps {
  paint: () => Promise<Paint>;
  device: () => DeviceInfo | null;
  loadBase?: BaseLoader;
  now?: () => number;
  /** The first error the GPU reported (a kernel that failed to compile computes garbage), or null. */
  deviceFault?: () => string | null;
}

export function createOffsiteHost(deps: OffsiteHostDeps) {
  const now = deps.now ?? (() => performance.now());
  const loadBase = deps.loadBase ?? shippedBaseLoader();
  let tracker: OffsiteTracker | null = null;
  let last: OffsiteProgress = { ...IDLE_OFFSITE };
  let running = false;
  return {
    async run(o: OffsiteOptions): Promise<OffsiteReport> {
      const device = deps.device();
      if (!device) throw new Error('Choose a backend (useBackend) before an offsite comparison.');
      if (running) throw new Error('An offsite comparison is already running in this tab; wait for it to finish.');
      running = true;
      // A new run's progress starts empty, so that nobody reads the last run's figures as this one's.
      tracker = offsiteTracker(0, now);
      last = tracker.progress();
      const backend = device.backend === 'wasm' ? `wasm, ${device.wasm?.threads ?? 1} thread(s)` : `webgpu (${device.adapter?.description || device.adapter?.vendor || 'adapter'})`;
      try {
        const report = await runOffsiteJob(
          o,
          { loadBase, paint: await deps.paint(), backend, onPhase: (p) => tracker?.onPhase(p), onProgress: (p, s, n) => tracker?.onProgress(p, s, n) },
          (total) => (tracker = offsiteTracker(total, now)),
        );
        const fault = deps.deviceFault?.() ?? null;
        if (fault) throw new Error(`The GPU reported an error during the comparison, so its figures cannot be trusted: ${fault}. Run with --backend wasm.`);
        tracker.onPhase(''); // the last phase ends with the run: list it among the finished
        last = { ...tracker.progress(), state: 'done', etaMs: 0 };
        return report;
      } catch (e) {
        last = { ...(tracker?.progress() ?? last), state: 'failed', error: e instanceof Error ? e.message : String(e) };
        throw e;
      } finally {
        tracker = null;
        running = false;
      }
    },
    progress: (): OffsiteProgress => (tracker ? tracker.progress() : last),
  };
}
