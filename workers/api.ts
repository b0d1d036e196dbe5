/**
 * What the engine worker offers the page, as types only: the UI imports this
 * file and never tfjs.
 */
import type { BackendName, RunRecord } from '../src/store/schema';
import type { LossPoint, TinyJobConfig, TinyJobResult } from '../src/learn/tinyJob';
import type { StepCheckOptions, StepCheckResult } from '../src/learn/stepCheck';

export type { BackendName, LossPoint, TinyJobConfig, TinyJobResult, StepCheckOptions, StepCheckResult };

export interface AdapterInfo {
  vendor: string;
  architecture: string;
  device: string;
  description: string;
  /** The browser said so (isFallbackAdapter) or it is a known CPU implementation such as SwiftShader. */
  software: boolean;
}

export interface DeviceInfo {
  backend: BackendName;
  adapter?: AdapterInfo; // WebGPU only
  wasm?: { simd: boolean; threads: boolean }; // WASM only
}

/** Answer of the WebGPU probe: why there is no WebGPU, in words a person can act on. */
export type WebGpuProbe = { ok: true; adapter: AdapterInfo } | { ok: false; reason: string };

export interface EngineApi {
  probeWebGpu(): Promise<WebGpuProbe>;
  /** Selects and initialises a tfjs backend; throws with a clear message when it cannot. */
  useBackend(name: 'webgpu' | 'wasm'): Promise<DeviceInfo>;
  /** Trains the tiny regressor, stores the run and its loss curve, streams losses to onLosses. */
  runTinyJob(config: TinyJobConfig, onLosses: (points: LossPoint[]) => void): Promise<{ run: RunRecord; result: TinyJobResult }>;
  /** A few seeded training steps of one agent under one rule, with losses and tensor counts (for parity and leak checks). */
  runStepCheck(options: StepCheckOptions): Promise<StepCheckResult>;
}
