/**
 * The benchmark in the engine worker: one run at a time, its progress kept
 * for the page to poll, the co-evolution part driven through the same host
 * that runs the app's co-evolution runs.
 */
import type { Paint } from '../src/learn/stepCheck';
import { runBench } from '../src/bench/runBench';
import type { BenchOptions, BenchProgress, WorkerBench } from '../src/bench/types';
import type { DeviceInfo } from './api';
import type { CoevoHost } from './coevoHost';

interface BenchHostDeps {
  paint: () => Promise<Paint>;
  device: () => DeviceInfo | null;
  coevo: CoevoHost;
  /** The first error the GPU reported (a kernel that failed to compile computes garbage), or null. */
  deviceFault?: () => string | null;
}

export function createBenchHost(deps: BenchHostDeps) {
  let progress: BenchProgress = { stage: 'idle', detail: '', results: [] };
  let running = false;
  return {
    async run(o: BenchOptions): Promise<WorkerBench> {
      const device = deps.device();
      if (!device) throw new Error('Choose a backend (useBackend) before benchmarking.');
      if (running) throw new Error('A benchmark is already running in this tab; wait for it to finish.');
      running = true;
      // A new run's progress starts empty, so that nobody reads the last run's lines as this one's.
      progress = { stage: 'starting', detail: '', results: [] };
      try {
        const a = device.adapter;
        const adapter = a ? { vendor: a.vendor, architecture: a.architecture, device: a.device, description: a.description, software: a.software } : null;
        const result = await runBench(o, { paint: await deps.paint(), adapter, threads: device.backend === 'wasm' ? (device.wasm?.threads ?? 1) : null, coevo: deps.coevo, onProgress: (p) => (progress = p) });
        const fault = deps.deviceFault?.() ?? null;
        if (fault) throw new Error(`The GPU reported an error during the benchmark, so the kernels it timed may have computed nothing: ${fault}`);
        progress = { ...progress, stage: 'done', detail: '' };
        return result;
      } catch (e) {
        progress = { ...progress, stage: 'failed', detail: e instanceof Error ? e.message : String(e) };
        throw e;
      } finally {
        running = false;
      }
    },
    progress: (): BenchProgress => progress,
  };
}
