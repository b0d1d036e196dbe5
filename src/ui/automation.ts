/**
 * The automation API on window.coevo: what headless runs (npm run coevo) and
 * Playwright tests use to drive the real app through the same worker the UI
 * uses. Bytes cross as plain arrays of numbers so that page.evaluate can
 * carry them.
 */
import { deviceReady, getEngine } from './engine';
import { deviceLabel } from '../../workers/deviceLabel';
import type { PretrainCheckpointFile, PretrainOptions, PretrainResult, PretrainStatus } from '../pretrain/baseTypes';
import { startBenchProbe } from './benchProbe';
import type { BenchOptions, BenchProgress, MainThreadBench, WorkerBench } from '../bench/types';
import type { RealPage, RealSplit, RenderedPage } from '../realScreens/types';
import type { CoevoControl, CoevoProgress, CoevoReport, CoevoStartOptions, GroundImageAnswer, GroundImageRequest, ModelChoice, OffsiteOptions, OffsiteProgress, OffsiteReport, RealScreensAnswer, RunRecord, StepCheckOptions, StepCheckResult } from '../../workers/api';

export interface CoevoAutomation {
  /** The backend and adapter, once the page has chosen them. */
  ready(): Promise<{ backend: string; adapter: string }>;
  /** Destroys the engine's WebGPU device, as a lost GPU would be (fault tests); false when WebGPU is not in use. */
  simulateDeviceLoss(): Promise<boolean>;
  stepCheck(options: StepCheckOptions): Promise<StepCheckResult>;
  startCoevo(options: CoevoStartOptions): Promise<{ runId: string }>;
  controlCoevo(runId: string, action: CoevoControl): Promise<CoevoProgress>;
  coevoStatus(runId: string): Promise<CoevoProgress>;
  coevoReport(runId: string): Promise<CoevoReport>;
  listRuns(): Promise<RunRecord[]>;
  /** The run's zip. Playwright passes typed arrays as base64; a number[] took about a minute each way for a 3 MB run. */
  exportRun(runId: string): Promise<Uint8Array>;
  importRun(bytes: Uint8Array): Promise<RunRecord>;
  deleteRun(runId: string): Promise<void>;
  startPretrain(options: PretrainOptions): Promise<void>;
  pretrainStatus(): Promise<PretrainStatus>;
  pretrainResult(): Promise<PretrainResult>;
  pretrainCheckpoints(): Promise<PretrainCheckpointFile[]>;
  /** Runs the performance benchmark in the worker while watching this page's main thread. */
  bench(options: BenchOptions): Promise<{ worker: WorkerBench; mainThread: MainThreadBench }>;
  benchProgress(): Promise<BenchProgress>;
  /** Fixture pages of the real-screen suite drawn by this page's browser: each page's data, DOM boxes and pixels. */
  renderRealScreens(split: RealSplit, count: number, first?: number): Promise<{ page: RealPage; rendered: RenderedPage }[]>;
  /** The held-out real-screen suite (default: all of its pages) drawn here and grounded in the worker; default model: the tiny preset's shipped base grounder. */
  evaluateRealScreens(options?: { pages?: number; model?: Omit<ModelChoice, 'which'> }): Promise<RealScreensAnswer>;
  /** The Playground's own-screenshot grounding (tests measure and calibrate it without the UI). */
  groundImage(req: GroundImageRequest): Promise<GroundImageAnswer>;
  /** One offsite comparison in the worker (npm run offsite). */
  runOffsite(options: OffsiteOptions): Promise<OffsiteReport>;
  offsiteProgress(): Promise<OffsiteProgress>;
}

declare global {
  interface Window {
    coevo?: CoevoAutomation;
  }
}

export function installAutomation(): void {
  const engine = getEngine();
  window.coevo = {
    async ready() {
      return deviceLabel(await deviceReady);
    },
    simulateDeviceLoss: () => engine.simulateDeviceLoss(),
    stepCheck: (options) => engine.runStepCheck(options),
    startCoevo: (options) => engine.startCoevo(options),
    controlCoevo: (runId, action) => engine.controlCoevo(runId, action),
    coevoStatus: (runId) => engine.coevoStatus(runId),
    coevoReport: (runId) => engine.coevoReport(runId),
    listRuns: () => engine.listRuns(),
    exportRun: (runId) => engine.exportRun(runId),
    importRun: (bytes) => engine.importRun(bytes),
    deleteRun: (runId) => engine.deleteRun(runId),
    startPretrain: (options) => engine.startPretrain(options),
    pretrainStatus: () => engine.pretrainStatus(),
    pretrainResult: () => engine.pretrainResult(),
    pretrainCheckpoints: () => engine.pretrainCheckpoints(),
    async bench(options) {
      const probe = startBenchProbe();
      try {
        const worker = await engine.runBench(options);
        return { worker, mainThread: probe.stop() };
      } finally {
        probe.stop();
      }
    },
    benchProgress: () => engine.benchProgress(),
    async renderRealScreens(split, count, first) {
      const { renderPages } = await import('../realScreens/suitePage');
      return renderPages(split, count, first);
    },
    async evaluateRealScreens(options = {}) {
      const { suiteScreens } = await import('../realScreens/suitePage');
      const screens = await suiteScreens(options.pages);
      return engine.evaluateRealScreens({ model: options.model ?? { runId: null, iteration: 'latest', preset: 'tiny' }, screens });
    },
    async groundImage(req) {
      await deviceReady;
      return engine.groundImage(req);
    },
    runOffsite: (options) => engine.runOffsite(options),
    offsiteProgress: () => engine.offsiteProgress(),
  };
}
