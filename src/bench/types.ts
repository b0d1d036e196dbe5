/**
 * The shapes the benchmark passes around: what the command asks the worker
 * for (BenchOptions), what the worker measures (WorkerBench), what the page
 * adds (MainThreadBench) and the JSON the command writes (BenchReport).
 * Types only, so the page and the Node script import them without tfjs.
 */
import type { GrounderConfig } from '../models/grounder';
import type { PlannerConfig } from '../models/planner';
import type { PresetName } from '../models/presets';

export interface BenchOptions {
  preset: PresetName;
  seed: number;
  /** Screens rendered for the screens/s figure. */
  screens: number;
  /** Grounder SFT batch size and timed steps (after one untimed warm-up step). */
  grounderBatch: number;
  grounderSteps: number;
  /** Planner SFT batch size (timed for as many steps as planner GRPO). */
  plannerBatch: number;
  /** Planner GRPO: prompts per step, completions per prompt, timed steps (after one warm-up). */
  grpoPrompts: number;
  groupSize: number;
  plannerSteps: number;
  /** Timed repetitions of the reference matmul (after one warm-up). */
  matmulReps: number;
  /** Timed replays of each distinct kernel of the steps, for the time-per-kernel table (0 skips it). */
  kernelReps: number;
  /** Co-evolution iterations run for the per-phase times and the memory figures (0 skips them). */
  iterations: number;
  /** `key=value` overrides of the preset's co-evolution config for that run (the reduced config). */
  coevoSet: string[];
  /** Planner GRPO samples on the device, one read-back per round (plannerDecode.ts), instead of one per token. */
  deviceSampling: boolean;
}

/** A matrix product [batch, m, k] × [batch, k, n]. */
export interface MatmulShape {
  batch: number;
  m: number;
  k: number;
  n: number;
}

export interface MemorySnapshot {
  tensors: number;
  /** Bytes held by live tensors (tfjs's own count, every backend). */
  bytes: number;
  /** WebGPU: bytes of GPU buffers in use by tensors; null elsewhere. */
  gpuBytesInUse: number | null;
  /** WebGPU: bytes of GPU buffers allocated, including those pooled for reuse; null elsewhere. */
  gpuBytesAllocated: number | null;
}

/** One training step measured: wall time per step, matrix-product FLOPs counted from the kernels it ran. */
export interface StepFigures {
  /** Wall time of each timed step (the warm-up, which compiles shaders, is left out). */
  stepMs: number[];
  warmupMs: number;
  /** WebGPU shader programs compiled by the warm-up step, and by the timed steps (0 when shapes are fixed); null elsewhere. */
  warmupShaders: number | null;
  timedShaders: number | null;
  medianMs: number;
  /** Matrix-product FLOPs of one step (forward and backward; 2·m·k·n per product). */
  flops: number;
  /** Matrix products per step. */
  matmuls: number;
  /** All kernels per step: each is a dispatch, and on a GPU each costs a fixed overhead. */
  kernels: number;
  /** Reads of tensor data back to the host per step (backend read/readSync): on a GPU each waits for the queue to drain. */
  readBacks: number;
  /** The product with the largest FLOP share: the reference matmul has its shape. */
  dominant: MatmulShape;
  gflops: number;
  /** Most tensor bytes alive during the step beyond those alive before it. */
  peakStepBytes: number;
  /** Where the time goes, when the kernels were replayed (BenchOptions.kernelReps > 0). */
  kernelTimes: KernelBreakdown | null;
}

/** One distinct kernel call of a step, replayed on its own (kernelTimes.ts). */
export interface KernelTime {
  kernel: string;
  inputs: (number[] | null)[];
  /** How many times the step ran it. */
  count: number;
  msEach: number;
  /** msEach × count: its estimated share of the step. */
  msTotal: number;
}

/** A step's time split by kernel: the replays' estimates, most expensive first. */
export interface KernelBreakdown {
  /** Sum of every replayed kernel's estimate; compare with the step's median. */
  estimateMs: number;
  /** Kernel calls that could not be replayed out of context (not in the estimate). */
  skipped: number;
  /** The most expensive distinct calls. */
  top: KernelTime[];
  /** Estimated time per kernel name, all shapes together. */
  byName: { kernel: string; count: number; msTotal: number }[];
}

export interface MatmulFigures {
  shape: MatmulShape;
  flops: number;
  medianMs: number;
  gflops: number;
}

export interface PhaseTime {
  iteration: number;
  phase: string;
  seconds: number;
}

export interface CoevoBench {
  iterations: number;
  /** The config the run used: the preset's, with these overrides (stated so nobody takes it for the full run). */
  set: string[];
  reduced: boolean;
  phases: PhaseTime[];
  /** Memory after each iteration's last phase (index k − 1 for iteration k), models of the run still held. */
  memoryAfter: MemorySnapshot[];
  wallSeconds: number;
}

/**
 * What one training step ran, in the sizes that vary from step to step
 * (prompt buckets, completion lengths, how many instructions the reward
 * pool grounded): a mirror of the step (the PyTorch anchor, bench/anchor/)
 * needs them to do the same work.
 */
export interface GrounderSftWork {
  batch: number;
}

export interface PlannerSftWork {
  batch: number;
  promptLength: number;
}

export interface PlannerGrpoWork {
  /** Completions sampled: prompts × groupSize. */
  rows: number;
  groupSize: number;
  promptLength: number;
  /** Tokens sampled per row (the decode loop ran until every row ended, or the completion length). */
  decodeSteps: number;
  /** Instructions the reward pool's neural grounder grounded (those that parsed). */
  groundedQueries: number;
  /** Completion batches the sampling decoded, and the logits it read back for them. */
  decodeBatches: number;
  decodeReadBacks: number;
}

/** Each step's work, warm-up (the profiled step) first, then the timed steps in order. */
export interface StepsWork {
  grounderSft: GrounderSftWork[];
  plannerSft: PlannerSftWork[];
  plannerGrpo: PlannerGrpoWork[];
}

export type AnchorStepName = keyof StepsWork;

/** The project's values a mirror of its models and steps needs besides the configs. */
export interface AnchorConstants {
  canvasWidth: number;
  canvasHeight: number;
  cell: number;
  glyphStride: number;
  letterClasses: number;
  wordCharClasses: number;
  roleClasses: number;
  iconClasses: number;
  colorClasses: number;
  spellLetters: number;
  /** The web screen, whose cells are the valid ones of the mirror's batches. */
  screenWidth: number;
  screenHeight: number;
  pad: number;
  bos: number;
  eos: number;
  sep: number;
  temperature: number;
  beta: number;
  epsilon: number;
  /** Queries per forward of the reward pool's neural grounder. */
  poolBatch: number;
}

/** What bench/anchor/anchor.py reads (its --spec): the models, as the worker built them, and their training settings. */
export interface AnchorSpec {
  grounder: GrounderConfig;
  planner: PlannerConfig;
  constants: AnchorConstants;
  grounderLr: number;
  plannerSftLr: number;
  plannerGrpoLr: number;
  /** Global gradient-norm clip of planner SFT (0: none). */
  plannerClip: number;
  /** Parameter counts of the project's models, which the mirror's must equal. */
  params: { grounder: number; planner: number };
  work?: Partial<StepsWork>;
}

/** What the worker measures. */
export interface WorkerBench {
  backend: string;
  adapter: { vendor: string; architecture: string; device: string; description: string; software: boolean } | null;
  /** WASM: the threads the backend runs on; null on WebGPU. */
  threads: number | null;
  preset: PresetName;
  /** Wall time of one small element-wise kernel, queued with others and read back once. */
  dispatchMs: number;
  screens: { count: number; perSecond: number; msEach: number };
  grounder: { batch: number; samplesPerSecond: number; step: StepFigures; matmul: MatmulFigures };
  planner: { prompts: number; groupSize: number; groupsPerSecond: number; step: StepFigures; matmul: MatmulFigures; sampling: 'host' | 'device' };
  plannerSft: { batch: number; step: StepFigures };
  /** The sizes each step ran, and the models, for the PyTorch anchor. */
  work: StepsWork;
  anchorSpec: AnchorSpec;
  memoryBefore: MemorySnapshot;
  coevo: CoevoBench | null;
}

/** Where the worker is, for the command's progress line. */
export interface BenchProgress {
  stage: string;
  detail: string;
  /** Figures measured so far, one line each, so that a long run shows them before its end. */
  results: string[];
}

/** Long tasks on the page's main thread while the worker trained. */
export interface MainThreadBench {
  /** Whether this browser reports 'longtask' entries (tasks of 50 ms and more). */
  longtaskSupported: boolean;
  longTasks: number;
  longestTaskMs: number;
  /** Largest lateness of a 10 ms timer on the page: sees tasks below the 50 ms long-task threshold too. */
  maxTimerLagMs: number;
  observedSeconds: number;
}

export interface BenchMachine {
  os: string;
  cpus: string;
  cores: number;
  memoryGiB: number;
  browser: string;
  node: string;
}

/** The JSON `npm run bench` writes. */
export interface BenchReport {
  version: 1;
  command: string;
  date: string;
  preset: PresetName;
  machine: BenchMachine;
  backend: string;
  adapter: WorkerBench['adapter'];
  threads: WorkerBench['threads'];
  /** Whether a hardware GPU was measured (false: software WebGPU or WASM). */
  hardware_gpu: boolean;
  /** Wall time of one small kernel (dispatch overhead): kernels_per_step times this bounds a step from below. */
  dispatch_ms: number;
  screens: { rendered_per_second: number; ms_each: number; count: number };
  grounder: ReportedStep & { sft_samples_per_second: number; batch: number };
  planner: ReportedStep & { grpo_groups_per_second: number; prompts: number; group_size: number; sampling: 'host' | 'device'; decode_read_backs_per_batch: number };
  planner_sft: { batch: number; step_ms: number; step_gflop: number; step_gflops: number; kernels_per_step: number; read_backs_per_step: number; matmuls_per_step: number; warmup_ms: number };
  /** The PyTorch anchor (--anchor): the same steps timed in PyTorch on CPU, interleaved with the WASM runs; null without it. */
  anchor: AnchorReport | null;
  iteration: {
    /** Which iteration `phases_seconds` is (the last: shaders compiled, caches warm). */
    iteration: number;
    phases_seconds: Record<string, number>;
    total_seconds: number;
    all_phases: PhaseTime[];
    config: { iterations: number; reduced: boolean; set: string[] };
  } | null;
  memory: {
    before: MemorySnapshot;
    after_iteration: MemorySnapshot[];
    /** Tensors after iteration 3 minus after iteration 1 (the last minus the first when fewer ran). */
    tensor_growth: number | null;
    gpu_bytes_growth: number | null;
    /** Tensor bytes one grounder step holds at its peak: the tolerance for "flat". */
    one_step_bytes: number;
    gpu_bytes_flat: boolean | null;
  };
  main_thread: {
    longest_task_ms: number;
    long_tasks: number;
    longtask_supported: boolean;
    max_timer_lag_ms: number;
    observed_seconds: number;
  };
  acceptance: {
    grounder_efficiency_at_least_half: boolean;
    no_tensor_growth: boolean | null;
    gpu_bytes_flat: boolean | null;
    longest_task_under_50ms: boolean;
  };
  wall_seconds: number;
}

/** What the report says of one training step, grounder's or planner's, against the same-run matmul. */
export interface ReportedStep {
  step_ms: number;
  step_gflop: number;
  step_gflops: number;
  matmul_gflops: number;
  matmul_shape: MatmulShape;
  step_efficiency: number;
  kernels_per_step: number;
  read_backs_per_step: number;
  matmuls_per_step: number;
  warmup_ms: number;
  shaders_compiled_warmup: number | null;
  shaders_compiled_timed: number | null;
  /** The step's time split by kernel, from replaying each distinct call (null when skipped with --kernel-reps 0). */
  kernel_times: {
    estimate_ms: number;
    /** estimate_ms over the measured step: how much of the step the replays explain. */
    explained_share: number;
    skipped_calls: number;
    by_name: { kernel: string; count: number; ms: number }[];
    top: { kernel: string; inputs: (number[] | null)[]; count: number; ms_each: number; ms: number }[];
  } | null;
}

/** One step timed both ways: medians over rounds of each round's median, FLOPs of the profiled steps. */
export interface AnchorStepReport {
  wasm_ms: number;
  torch_ms: number;
  /** wasm_ms / torch_ms. */
  ratio: number;
  wasm_gflop: number;
  torch_gflop: number;
  /** torch_gflop / wasm_gflop − 1: the bench fails beyond ±ANCHOR_FLOP_TOLERANCE. */
  flop_difference: number;
  /** Each round's median, in round order. */
  wasm_round_ms: number[];
  torch_round_ms: number[];
}

export interface AnchorReport {
  torch: string;
  python: string;
  threads: number;
  rounds: number;
  /** Parameter counts: the project's models, and the mirrors' (equal, or the bench fails). */
  params: { grounder: number; planner: number; torch_grounder: number; torch_planner: number };
  steps: Record<AnchorStepName, AnchorStepReport>;
  /** The sizes the first round's steps ran at (warm-up first), which both sides ran. */
  work: StepsWork;
  flops_within_tolerance: boolean;
  /** What the mirror does not do of the project's step (bench/anchor/anchor.py says). */
  not_mirrored: string[];
}
