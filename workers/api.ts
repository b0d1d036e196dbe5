/**
 * What the engine worker offers the page, as types only: the UI imports this
 * file and never tfjs.
 */
import type { BackendName, RunRecord } from '../src/store/schema';
import type { LossPoint, TinyJobConfig, TinyJobResult } from '../src/learn/tinyJob';
import type { StepCheckOptions, StepCheckResult } from '../src/learn/stepCheck';
import type { CoevoProgress } from '../src/coevo/runner';
import type { CoevoReport } from '../src/coevo/records';
import type { CoevoConfig } from '../src/coevo/config';

export type { BackendName, LossPoint, TinyJobConfig, TinyJobResult, StepCheckOptions, StepCheckResult, CoevoProgress, CoevoReport, RunRecord };

/** A request to start a co-evolution run: a preset's defaults, then `config` fields, then each `key=value` of `set`. */
export interface CoevoStartOptions {
  preset: string;
  seed: number;
  iterations: number;
  set?: string[];
  config?: Partial<CoevoConfig>;
  name?: string;
  /** Create the run without starting it (the UI steps it phase by phase). */
  paused?: boolean;
}

export type CoevoControl = 'run' | 'pause' | 'step-phase' | 'step-batch' | 'abort';

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

  /** Validates the config (a bad value rejects with the field named; nothing starts) and starts a co-evolution run. */
  startCoevo(options: CoevoStartOptions): Promise<{ runId: string }>;
  /** Drives a run; a stored run is resumed at its last committed phase (throws if another tab drives it). */
  controlCoevo(runId: string, action: CoevoControl): Promise<CoevoProgress>;
  coevoStatus(runId: string): Promise<CoevoProgress>;
  coevoReport(runId: string): Promise<CoevoReport>;
  /** Progress of every run this worker drives, as it happens. */
  watchCoevo(listener: (p: CoevoProgress) => void): Promise<void>;
  listRuns(): Promise<RunRecord[]>;
  exportRun(runId: string): Promise<Uint8Array>;
  importRun(bytes: Uint8Array): Promise<RunRecord>;
  deleteRun(runId: string): Promise<void>;
}
