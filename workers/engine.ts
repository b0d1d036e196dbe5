/**
 * The engine the worker exposes. Kept apart from the entry file so that the
 * same object can be built in tests without a worker.
 */
import type { DeviceInfo, EngineApi, WebGpuProbe } from './api';
import { Store } from '../src/store/store';
import type { RunRecord } from '../src/store/schema';
import { runTinyJob, validateTinyJobConfig } from '../src/learn/tinyJob';
import { runStepCheck, type Paint } from '../src/learn/stepCheck';
import type { ScreenRenderer } from '../src/world/render/screenImage';
import { createCoevoHost } from './coevoHost';
import { createPretrainHost } from './pretrainHost';
import { grounderRecipe, plannerRecipe } from '../src/pretrain/recipes';
import { createInspectHost } from './inspectHost';
import { createBenchHost } from './benchHost';
import { createRealScreenSource } from './realScreenSource';
import { createOffsiteHost } from './offsiteHost';
import type { RealPageRenderer } from '../src/pretrain/realPool';
import * as Comlink from 'comlink';

interface Backends {
  probeWebGpu(): Promise<WebGpuProbe>;
  useBackend(name: 'webgpu' | 'wasm', threads: number | null): Promise<DeviceInfo>;
  /** Turns screens into model pixels: the real renderer in the worker. */
  paint(): Promise<Paint>;
  /** Turns screens into screenshots (the trainer export), from the same pixels. */
  screenImages(): Promise<ScreenRenderer>;
  /** The first error the GPU reported (its kernels then compute garbage), or null. */
  deviceFault(): string | null;
  /** Calls the listener once the WebGPU device in use is lost (absent where there is no GPU to lose). */
  onDeviceLost?(listener: (reason: string) => void): () => void;
  /** Destroys the WebGPU device in use, as a lost GPU would be; false when WebGPU is not in use. */
  simulateDeviceLoss?(): boolean;
}

export function createEngine(backends: Backends): EngineApi {
  let device: DeviceInfo | null = null;
  let threadsAsked: number | null = null;
  let store: Promise<Store> | null = null;
  const openStore = () => (store ??= Store.open());
  const realScreens = createRealScreenSource();
  // How the page draws training pages for the pretraining's real-DOM mix; kept as given (each job draws its own pages once).
  let trainingPages: RealPageRenderer | null = null;
  const coevo = createCoevoHost({
    store: openStore, paint: () => backends.paint(), screenImages: () => backends.screenImages(), device: () => device, deviceFault: () => backends.deviceFault(), realScreens: realScreens.get,
    realPages: (seeds) => (trainingPages ? trainingPages(seeds) : Promise.reject(new Error('no page has registered how to draw training pages'))),
  });
  const pretrain = createPretrainHost({
    paint: () => backends.paint(), backend: () => device?.backend ?? null, recipes: { grounder: grounderRecipe, planner: plannerRecipe }, deviceFault: () => backends.deviceFault(),
    realPages: () => trainingPages, realSuite: realScreens.get,
  });
  const inspect = createInspectHost({ store: openStore, paint: () => backends.paint(), device: () => device });
  const bench = createBenchHost({ paint: () => backends.paint(), device: () => device, coevo, deviceFault: () => backends.deviceFault() });
  const offsite = createOffsiteHost({ paint: () => backends.paint(), device: () => device, deviceFault: () => backends.deviceFault(), store: openStore, training: () => coevo.training() });

  // A lost GPU does not come back in this worker; the runs go on on WASM (the same numbers, DESIGN.md), from their last save.
  backends.onDeviceLost?.((reason) => {
    void coevo.goOnWithout(reason, async () => {
      device = await backends.useBackend('wasm', threadsAsked);
      return 'the CPU (WASM)';
    });
  });

  return {
    probeWebGpu: () => backends.probeWebGpu(),
    simulateDeviceLoss: async () => backends.simulateDeviceLoss?.() ?? false,

    async useBackend(name, threads = null) {
      threadsAsked = threads;
      device = await backends.useBackend(name, threads);
      return device;
    },

    async runStepCheck(options) {
      if (!device) throw new Error('Choose a backend (useBackend) before training.');
      const result = await runStepCheck(options, await backends.paint());
      return { ...result, deviceFault: backends.deviceFault() };
    },

    async provideRealScreens(render) {
      realScreens.provide(render);
    },
    async provideTrainingPages(render) {
      trainingPages = (seeds) => render([...seeds]);
    },
    startCoevo: (o) => coevo.start(o),
    controlCoevo: (runId, action) => coevo.control(runId, action),
    coevoStatus: (runId) => coevo.status(runId),
    openCoevo: (runId) => coevo.open(runId),
    coevoReport: (runId) => coevo.report(runId),
    async watchCoevo(listener) {
      coevo.onProgress((p) => void listener(p));
    },
    listRuns: async () => (await openStore()).listRuns(),
    exportRun: async (runId) => {
      const bytes = await coevo.exportRun(runId);
      return Comlink.transfer(bytes, [bytes.buffer as ArrayBuffer]);
    },
    exportForTrainer: async (runId, format) => {
      const bytes = await coevo.exportForTrainer(runId, format);
      return Comlink.transfer(bytes, [bytes.buffer as ArrayBuffer]);
    },
    importRun: (bytes) => coevo.importRun(bytes),
    deleteRun: (runId) => coevo.deleteRun(runId),

    startPretrain: (o) => pretrain.start(o),
    pretrainStatus: async () => pretrain.status(),
    pretrainResult: async () => pretrain.result(),
    pretrainCheckpoints: async () => pretrain.checkpoints(),
    groundScreen: (req) => inspect.groundScreen(req),
    groundImage: (req) => inspect.groundImage(req),
    playStep: (req) => inspect.playStep(req),
    evaluateRealScreens: (req) => inspect.evaluateRealScreens(req),
    runBench: (options) => bench.run(options),
    benchProgress: async () => bench.progress(),
    runOffsite: (options, own) => offsite.run(options, own),
    offsiteProgress: async () => offsite.progress(),

    async runTinyJob(config, onLosses) {
      if (!device) throw new Error('Choose a backend (useBackend) before training.');
      validateTinyJobConfig(config);
      const db = await openStore();
      const run: RunRecord = {
        id: `tiny-${crypto.randomUUID()}`,
        kind: 'tiny-regression',
        name: `Tiny regression, seed ${config.seed}`,
        createdAt: Date.now(),
        status: 'running',
        backend: device.backend,
        seed: config.seed,
        config: { ...config },
      };
      await db.putRun(run);
      try {
        const result = await runTinyJob(config, async (points) => {
          onLosses(points);
          await db.appendMetric(run.id, 'loss', points.map((p) => p.step), points.map((p) => p.loss));
        });
        const done = await db.updateRun(run.id, { status: 'done', finishedAt: Date.now() });
        return { run: done, result };
      } catch (e) {
        await db.updateRun(run.id, { status: 'failed', finishedAt: Date.now(), error: String(e) });
        throw e;
      }
    },
  };
}
