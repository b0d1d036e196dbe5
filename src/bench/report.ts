/**
 * The benchmark's JSON from what the worker and the page measured: raw
 * figures next to the ratios and the acceptance checks of issue 7. Pure, so
 * the command and the tests build the same thing.
 */
import type { AnchorReport, BenchMachine, BenchReport, MainThreadBench, MemorySnapshot, PlannerGrpoWork, ReportedStep, StepFigures, WorkerBench } from './types';

const round = (x: number, digits = 4): number => (Number.isFinite(x) ? +x.toPrecision(digits) : x);

/** The longest task may be at most this long while training (acceptance 4). */
export const LONGEST_TASK_LIMIT_MS = 50;
/** A training step must reach this share of the same-run matmul GFLOP/s (acceptance 2). */
export const STEP_EFFICIENCY_TARGET = 0.5;

function stepFields(step: StepFigures, matmulGflops: number, shape: BenchReport['grounder']['matmul_shape']) {
  return {
    step_ms: round(step.medianMs),
    step_gflop: round(step.flops / 1e9),
    step_gflops: round(step.gflops),
    matmul_gflops: round(matmulGflops),
    matmul_shape: shape,
    step_efficiency: round(step.gflops / matmulGflops, 3),
    kernels_per_step: step.kernels,
    read_backs_per_step: step.readBacks,
    matmuls_per_step: step.matmuls,
    warmup_ms: round(step.warmupMs),
    shaders_compiled_warmup: step.warmupShaders,
    shaders_compiled_timed: step.timedShaders,
    kernel_times: kernelFields(step),
  };
}

/** Logits read back per completion batch over the timed steps (the warm-up, first, left out unless it is all there is). */
function decodeReadBacks(work: readonly PlannerGrpoWork[]): number {
  const timed = work.length > 1 ? work.slice(1) : work;
  const batches = timed.reduce((a, w) => a + w.decodeBatches, 0);
  return batches > 0 ? round(timed.reduce((a, w) => a + w.decodeReadBacks, 0) / batches, 3) : 0;
}

function kernelFields(step: StepFigures): ReportedStep['kernel_times'] {
  const k = step.kernelTimes;
  if (!k) return null;
  return {
    estimate_ms: round(k.estimateMs),
    explained_share: round(k.estimateMs / step.medianMs, 3),
    skipped_calls: k.skipped,
    by_name: k.byName.map((e) => ({ kernel: e.kernel, count: e.count, ms: round(e.msTotal) })),
    top: k.top.map((e) => ({ kernel: e.kernel, inputs: e.inputs, count: e.count, ms_each: round(e.msEach), ms: round(e.msTotal) })),
  };
}

function growth(memory: readonly MemorySnapshot[], pick: (m: MemorySnapshot) => number | null): number | null {
  if (memory.length < 2) return null;
  const first = pick(memory[0]);
  const last = pick(memory[memory.length - 1]);
  return first === null || last === null ? null : last - first;
}

export interface ReportMeta {
  command: string;
  date: string;
  machine: BenchMachine;
  wallSeconds: number;
}

export function buildBenchReport(w: WorkerBench, main: MainThreadBench, meta: ReportMeta, anchor: AnchorReport | null = null): BenchReport {
  const grounder = { sft_samples_per_second: round(w.grounder.samplesPerSecond), batch: w.grounder.batch, ...stepFields(w.grounder.step, w.grounder.matmul.gflops, w.grounder.matmul.shape) };
  const planner = {
    grpo_groups_per_second: round(w.planner.groupsPerSecond),
    prompts: w.planner.prompts,
    group_size: w.planner.groupSize,
    sampling: w.planner.sampling,
    decode_read_backs_per_batch: decodeReadBacks(w.work.plannerGrpo),
    ...stepFields(w.planner.step, w.planner.matmul.gflops, w.planner.matmul.shape),
  };
  const c = w.coevo;
  let iteration: BenchReport['iteration'] = null;
  if (c && c.iterations > 0) {
    const last = c.iterations;
    const mine = c.phases.filter((p) => p.iteration === last);
    iteration = {
      iteration: last,
      phases_seconds: Object.fromEntries(mine.map((p) => [p.phase, round(p.seconds)])),
      total_seconds: round(mine.reduce((a, p) => a + p.seconds, 0)),
      all_phases: c.phases.map((p) => ({ ...p, seconds: round(p.seconds) })),
      config: { iterations: c.iterations, reduced: c.reduced, set: c.set },
    };
  }
  const after = c?.memoryAfter ?? [];
  const tensorGrowth = growth(after, (m) => m.tensors);
  const gpuGrowth = growth(after, (m) => m.gpuBytesInUse);
  const oneStep = Math.max(w.grounder.step.peakStepBytes, 0);
  const gpuFlat = gpuGrowth === null ? null : Math.abs(gpuGrowth) <= oneStep;
  const longest = round(main.longestTaskMs);
  const hardware = w.adapter !== null && !w.adapter.software;
  return {
    version: 1,
    command: meta.command,
    date: meta.date,
    preset: w.preset,
    machine: meta.machine,
    backend: w.backend,
    adapter: w.adapter,
    threads: w.threads,
    hardware_gpu: hardware,
    dispatch_ms: round(w.dispatchMs),
    screens: { rendered_per_second: round(w.screens.perSecond), ms_each: round(w.screens.msEach), count: w.screens.count },
    grounder,
    planner,
    planner_sft: {
      batch: w.plannerSft.batch,
      step_ms: round(w.plannerSft.step.medianMs),
      step_gflop: round(w.plannerSft.step.flops / 1e9),
      step_gflops: round(w.plannerSft.step.gflops),
      kernels_per_step: w.plannerSft.step.kernels,
      read_backs_per_step: w.plannerSft.step.readBacks,
      matmuls_per_step: w.plannerSft.step.matmuls,
      warmup_ms: round(w.plannerSft.step.warmupMs),
    },
    anchor,
    iteration,
    memory: {
      before: w.memoryBefore,
      after_iteration: after,
      tensor_growth: tensorGrowth,
      gpu_bytes_growth: gpuGrowth,
      one_step_bytes: oneStep,
      gpu_bytes_flat: gpuFlat,
    },
    main_thread: {
      longest_task_ms: longest,
      long_tasks: main.longTasks,
      longtask_supported: main.longtaskSupported,
      max_timer_lag_ms: round(main.maxTimerLagMs),
      observed_seconds: round(main.observedSeconds),
    },
    acceptance: {
      grounder_efficiency_at_least_half: grounder.step_efficiency >= STEP_EFFICIENCY_TARGET,
      no_tensor_growth: tensorGrowth === null ? null : tensorGrowth <= 0,
      gpu_bytes_flat: gpuFlat,
      longest_task_under_50ms: main.longtaskSupported && longest < LONGEST_TASK_LIMIT_MS,
    },
    wall_seconds: round(meta.wallSeconds),
  };
}

/** The short table the command prints. */
export function benchTable(r: BenchReport): string {
  const rows: [string, string][] = [
    ['adapter', r.adapter ? `${r.adapter.vendor} ${r.adapter.architecture} ${r.adapter.device || r.adapter.description}${r.adapter.software ? ' (software)' : ''}`.replace(/\s+/g, ' ').trim() : `${r.backend} (no GPU adapter)`],
    ...(r.threads === null ? [] : [['WASM threads', String(r.threads)] as [string, string]]),
    ['small-kernel dispatch', `${r.dispatch_ms} ms`],
    ['screens rendered (worker)', `${r.screens.rendered_per_second}/s`],
    ['grounder SFT', `${r.grounder.sft_samples_per_second} samples/s (batch ${r.grounder.batch}, ${r.grounder.step_ms} ms/step)`],
    ['grounder step', `${r.grounder.step_gflops} GFLOP/s vs matmul ${r.grounder.matmul_gflops} → efficiency ${r.grounder.step_efficiency}`],
    ['planner GRPO', `${r.planner.grpo_groups_per_second} groups/s (${r.planner.prompts}×${r.planner.group_size}, ${r.planner.step_ms} ms/step)`],
    ['planner sampling', `on the ${r.planner.sampling}: ${r.planner.decode_read_backs_per_batch} read-backs per completion batch, ${r.planner.read_backs_per_step} per step in all`],
    ['planner step', `${r.planner.step_gflops} GFLOP/s vs matmul ${r.planner.matmul_gflops} → efficiency ${r.planner.step_efficiency}`],
    ['planner SFT', `batch ${r.planner_sft.batch}, ${r.planner_sft.step_ms} ms/step, ${r.planner_sft.step_gflops} GFLOP/s, ${r.planner_sft.kernels_per_step} kernels`],
  ];
  for (const [name, step] of [['grounder', r.grounder], ['planner', r.planner]] as const) {
    const k = step.kernel_times;
    if (!k) continue;
    const top = k.by_name.slice(0, 4).map((e) => `${e.kernel} ${e.ms} ms`).join(', ');
    rows.push([`${name} time by kernel`, `${k.estimate_ms} ms replayed (${Math.round(k.explained_share * 100)}% of the step): ${top}`]);
  }
  if (r.iteration) {
    const phases = Object.entries(r.iteration.phases_seconds).map(([k, v]) => `${k} ${v}s`).join(', ');
    rows.push([`iteration ${r.iteration.iteration}${r.iteration.config.reduced ? ' (reduced config)' : ''}`, `${r.iteration.total_seconds} s: ${phases}`]);
  }
  const m = r.memory;
  rows.push(['tensors after iterations', m.after_iteration.map((s) => s.tensors).join(' → ') + ` (growth ${m.tensor_growth ?? 'n/a'})`]);
  rows.push(['GPU bytes in use after iterations', m.after_iteration.map((s) => s.gpuBytesInUse ?? 'n/a').join(' → ') + ` (growth ${m.gpu_bytes_growth ?? 'n/a'}, one step ${m.one_step_bytes})`]);
  rows.push(['longest main-thread task', `${r.main_thread.longest_task_ms} ms (${r.main_thread.long_tasks} long tasks; max timer lag ${r.main_thread.max_timer_lag_ms} ms)`]);
  const width = Math.max(...rows.map(([k]) => k.length));
  return rows.map(([k, v]) => `${k.padEnd(width)}  ${v}`).join('\n');
}
