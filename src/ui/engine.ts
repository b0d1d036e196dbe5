/** The page's handle on the engine worker. The page talks to tfjs only through this. */
import * as Comlink from 'comlink';
import type { DeviceInfo, EngineApi, RealScreenInput, RenderedPage } from '../../workers/api';

let engine: Comlink.Remote<EngineApi> | null = null;

export function getEngine(): Comlink.Remote<EngineApi> {
  if (!engine) {
    const worker = new Worker(new URL('../../workers/engine.worker.ts', import.meta.url), { type: 'module', name: `coevo-engine:${tabId()}` });
    engine = Comlink.wrap<EngineApi>(worker);
    // The first message the worker gets, so any run it starts or takes up after a reload finds the suite for its evaluations.
    void engine.provideRealScreens(Comlink.proxy(drawRealScreenSuite));
    void engine.provideTrainingPages(Comlink.proxy(drawTrainingPages));
  }
  return engine;
}

/** The held-out real-screen suite drawn by this page (loaded on demand: only a run's evaluation asks for it). */
async function drawRealScreenSuite(): Promise<RealScreenInput[]> {
  const { suiteScreens } = await import('../realScreens/suitePage');
  const screens = await suiteScreens();
  // Moved, not copied: about 7 MB of pixels the page no longer needs.
  return Comlink.transfer(screens, screens.map((s) => s.rgba.buffer as ArrayBuffer));
}

/** Training fixture pages by seed for the grounder pretraining's real-DOM mix (held-out seeds are refused by trainingPages). */
async function drawTrainingPages(seeds: number[]): Promise<RenderedPage[]> {
  const { trainingPages } = await import('../realScreens/suitePage');
  const pages = await trainingPages(seeds);
  return Comlink.transfer(pages, pages.map((p) => p.rgba.buffer as ArrayBuffer));
}

/**
 * This tab's id, the same across its reloads (sessionStorage is per tab), in
 * the worker's name: a reloaded page then knows a run lock still held by its
 * previous worker for its own (workers/runLocks.ts).
 */
export function tabId(): string {
  try {
    let id = sessionStorage.getItem('coevo-tab');
    if (!id) sessionStorage.setItem('coevo-tab', (id = crypto.randomUUID().slice(0, 4)));
    return id;
  } catch {
    return crypto.randomUUID().slice(0, 4);
  }
}

export { Comlink };

let announce: (d: DeviceInfo) => void = () => {};
/** Resolves once the page has chosen a backend and the worker has initialised it. */
export const deviceReady: Promise<DeviceInfo> = new Promise((resolve) => (announce = resolve));

export function announceDevice(d: DeviceInfo): void {
  announce(d);
}
