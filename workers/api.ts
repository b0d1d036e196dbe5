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
import type { PretrainCheckpointFile, PretrainOptions, PretrainResult, PretrainStatus } from '../src/pretrain/baseTypes';
import type { GroundOnceResult } from '../src/learn/groundOnce';
import type { AgentStepResult, TakenStep } from '../src/coevo/agentStep';
import type { PresetName } from '../src/models/presets';
import type { Box, Screen, Task } from '../src/world/types';
import type { BenchOptions, BenchProgress, WorkerBench } from '../src/bench/types';
import type { RealScreenEval } from '../src/learn/evalRealScreens';
import type { RealScreenInput } from '../src/realScreens/suiteInput';
import type { GroundImageResult } from '../src/ownScreen/groundImage';
import type { ScaleChoice } from '../src/ownScreen/tiles';
import type { OffsiteOptions, OffsiteProgress } from '../src/offsite/jobTypes';
import type { OffsiteReport } from '../src/offsite/report';
import type { PrivateTile } from '../src/ownScreen/privateTile';
import type { RenderedPage } from '../src/realScreens/types';

export type { BenchOptions, BenchProgress, WorkerBench };
export type { OffsiteOptions, OffsiteProgress, OffsiteReport };
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
  /** WASM only: `threads` is how many the backend runs on (1 without cross-origin isolation); `threadsAsked` is the count the page asked for (?threads=N), null for the default. */
  wasm?: { simd: boolean; threads: number; threadsAsked: number | null };
}

/** Answer of the WebGPU probe: why there is no WebGPU, in words a person can act on. */
export type WebGpuProbe = { ok: true; adapter: AdapterInfo } | { ok: false; reason: string };

/** Which model an inspection asks for: a run's generation, or (runId null) an untrained one of the preset. */
export interface ModelChoice {
  runId: string | null;
  /** For a run: the newest generation at or before this iteration. */
  iteration: number | 'latest';
  /** 'previous': the generation before that one (e.g. φ(k−1), the attention filter's judge for Dk). */
  which: 'current' | 'previous';
  preset: PresetName;
}

/** The model that answered, in words the UI shows. */
export interface InspectModel {
  untrained: boolean;
  iteration: number | null;
  label: string;
}

/** A person's screenshot, already scaled to a platform's screen size (web 200×128 or mobile 120×208). */
export interface ScreenPixels {
  rgba: Uint8Array;
  width: number;
  height: number;
}

export interface GroundScreenRequest extends ModelChoice {
  screen: Screen | ScreenPixels;
  instruction: string;
  /** Points to sample from the heat map besides the greedy one (default 0, at most 64). */
  samples?: number;
  /** The true target box: adds dense rewards per point and the attention filter's verdict. */
  box?: Box;
  seed?: number;
}

export type GroundScreenAnswer = GroundOnceResult & { model: InspectModel };

/** A person's screenshot at its own size (decoded RGBA) and an instruction: grounded tile by tile at the chosen scale (src/ownScreen). */
export interface GroundImageRequest extends ModelChoice {
  image: { rgba: Uint8Array; width: number; height: number };
  /** The file's own size, when the image was shrunk on reading. */
  original?: { width: number; height: number };
  instruction: string;
  scale: ScaleChoice;
  /** Logits per unit of spelled match when tiles are compared (combine.ts SPELL_WEIGHT, the default); 0 compares logits alone. For calibration runs. */
  spellWeight?: number;
}

export type GroundImageAnswer = GroundImageResult & { model: InspectModel };
export type { GroundImageResult, ScaleChoice };

export interface PlayStepRequest {
  model: Omit<ModelChoice, 'which'>;
  task: Task;
  /** The episode so far, oldest first (the worker replays it). */
  taken: TakenStep[];
  /** 'oracle' writes the task's true next instruction, to watch the grounder alone. */
  planner: 'model' | 'oracle';
  samples?: number;
}

export type PlayStepAnswer = AgentStepResult & { planner: InspectModel | null; grounder: InspectModel };

/** The real-screen suite, rendered on the page (src/realScreens/rasterize.ts), for one grounder to ground. */
export interface RealScreensRequest {
  model: Omit<ModelChoice, 'which'>;
  screens: RealScreenInput[];
}

export type RealScreensAnswer = RealScreenEval & { model: InspectModel };

export type { GroundOnceResult, AgentStepResult, TakenStep, RealScreenInput, RenderedPage };

export interface EngineApi {
  probeWebGpu(): Promise<WebGpuProbe>;
  /** Destroys the WebGPU device in use, as a lost GPU would be (the fault tests); false when WebGPU is not in use. */
  simulateDeviceLoss(): Promise<boolean>;
  /** Selects and initialises a tfjs backend; throws with a clear message when it cannot. */
  useBackend(name: 'webgpu' | 'wasm', threads?: number | null): Promise<DeviceInfo>;
  /** Trains the tiny regressor, stores the run and its loss curve, streams losses to onLosses. */
  runTinyJob(config: TinyJobConfig, onLosses: (points: LossPoint[]) => void): Promise<{ run: RunRecord; result: TinyJobResult }>;
  /** A few seeded training steps of one agent under one rule, with losses and tensor counts (for parity and leak checks). */
  runStepCheck(options: StepCheckOptions): Promise<StepCheckResult>;

  /**
   * Registers how the page draws the held-out real-screen suite (a worker has
   * no DOM): every run's evaluations ask for it once and ground it
   * (`real/...` metrics); without it they skip those metrics and say so.
   */
  provideRealScreens(render: () => Promise<RealScreenInput[]>): Promise<void>;
  /**
   * Registers how the page draws TRAINING fixture pages by seed (seeds below
   * 1,000,000 only; the page refuses others), for the grounder pretraining's
   * real-DOM mix (`realShare`); without it a job asking for a mix fails.
   */
  provideTrainingPages(render: (seeds: number[]) => Promise<RenderedPage[]>): Promise<void>;
  /** Validates the config (a bad value rejects with the field named; nothing starts) and starts a co-evolution run. */
  startCoevo(options: CoevoStartOptions): Promise<{ runId: string }>;
  /** Drives a run; a stored run is resumed at its last committed phase (throws if another tab drives it). */
  controlCoevo(runId: string, action: CoevoControl): Promise<CoevoProgress>;
  coevoStatus(runId: string): Promise<CoevoProgress>;
  /** A run as this tab shows it; a run a reload cut off while it ran is taken up and run on (see coevoHost.open). */
  openCoevo(runId: string): Promise<CoevoProgress>;
  coevoReport(runId: string): Promise<CoevoReport>;
  /** Progress of every run this worker drives, as it happens. */
  watchCoevo(listener: (p: CoevoProgress) => void): Promise<void>;
  listRuns(): Promise<RunRecord[]>;
  exportRun(runId: string): Promise<Uint8Array>;
  /** The run's data sets and rewards for TRL or ms-swift as one zip: the files `npm run export` writes (src/export). */
  exportForTrainer(runId: string, format: 'trl' | 'swift'): Promise<Uint8Array>;
  importRun(bytes: Uint8Array): Promise<RunRecord>;
  deleteRun(runId: string): Promise<void>;

  /** Starts pretraining the base models (one job per worker; refused while one runs). */
  startPretrain(options: PretrainOptions): Promise<void>;
  pretrainStatus(): Promise<PretrainStatus>;
  /** The finished job's safetensors files and manifest. */
  pretrainResult(): Promise<PretrainResult>;
  /** The latest resumable checkpoint of each model the job trains (see PretrainStatus.checkpoints). */
  pretrainCheckpoints(): Promise<PretrainCheckpointFile[]>;

  /** A run's grounder (or an untrained one) on one screen: heat map, greedy and sampled points, rewards and the attention verdict against `box`. */
  groundScreen(req: GroundScreenRequest): Promise<GroundScreenAnswer>;
  /** A run's grounder (or the shipped base one) on rendered real-screen fixture pages: every greedy point and click-in-box figures per instruction style and look. */
  evaluateRealScreens(req: RealScreensRequest): Promise<RealScreensAnswer>;
  /** A run's grounder (or the base one) on a screenshot of any size: scaled, tiled, combined into one point in the screenshot's px. */
  groundImage(req: GroundImageRequest): Promise<GroundImageAnswer>;
  /** One step of the planner and grounder on a task after the steps taken: instruction, point, action, next screen. */
  playStep(req: PlayStepRequest): Promise<PlayStepAnswer>;

  /** The performance benchmark (npm run bench): step speeds against a matmul, a short co-evolution run's phase times and memory. */
  runBench(options: BenchOptions): Promise<WorkerBench>;
  /** Where the running benchmark is. */
  benchProgress(): Promise<BenchProgress>;

  /** One offsite comparison (npm run offsite) of a shipped base agent: every row, the emulators, the report. */
  runOffsite(options: OffsiteOptions, own?: PrivateTile[]): Promise<OffsiteReport>;
  /** Where the running offsite comparison is. */
  offsiteProgress(): Promise<OffsiteProgress>;
}
