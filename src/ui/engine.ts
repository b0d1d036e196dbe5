/** The page's handle on the engine worker. The page talks to tfjs only through this. */
import * as Comlink from 'comlink';
import type { DeviceInfo, EngineApi } from '../../workers/api';

let engine: Comlink.Remote<EngineApi> | null = null;

export function getEngine(): Comlink.Remote<EngineApi> {
  if (!engine) {
    const worker = new Worker(new URL('../../workers/engine.worker.ts', import.meta.url), { type: 'module', name: 'coevo-engine' });
    engine = Comlink.wrap<EngineApi>(worker);
  }
  return engine;
}

export { Comlink };

let announce: (d: DeviceInfo) => void = () => {};
/** Resolves once the page has chosen a backend and the worker has initialised it. */
export const deviceReady: Promise<DeviceInfo> = new Promise((resolve) => (announce = resolve));

export function announceDevice(d: DeviceInfo): void {
  announce(d);
}
