/**
 * The worker's half of `npm run bench`: screens/s, grounder SFT, planner SFT
 * and planner GRPO steps (time, FLOPs, GFLOP/s; the sizes each step ran, for
 * the PyTorch anchor), the reference matmul at each step's
 * dominant shape on the same adapter in the same run, and a short
 * co-evolution run for per-phase times and memory across iterations.
 */
import * as tf from '../models/tf';
import { disposeParams } from '../models/params';
import type { Paint } from '../learn/stepCheck';
import { benchGrounder, grounderSftTrainer, plannerGrpoTrainer, plannerSftTrainer, type TimedTrainer } from './agentSteps';
import { anchorSpec } from './anchorSpec';
import { benchCoevo, type CoevoDriver } from './coevoRun';
import { dispatchMs, matmulFigures, memorySnapshot, stepFigures, timeSteps } from './measure';
import { byKernelName, timeKernels } from './kernelTimes';
import { benchScreens, timeScreens } from './screens';
import type { BenchOptions, BenchProgress, KernelBreakdown, StepFigures, WorkerBench } from './types';

export interface BenchDeps {
  paint: Paint;
  adapter: WorkerBench['adapter'];
  threads: WorkerBench['threads'];
  coevo: CoevoDriver;
  onProgress(p: BenchProgress): void;
}

/** How many of the most expensive distinct kernel calls the report lists. */
const TOP_KERNELS = 12;

async function measureTrainer<W>(trainer: TimedTrainer<W>, steps: number, kernelReps: number, say: (detail: string) => void): Promise<{ figures: StepFigures; work: W[] }> {
  const work: W[] = [];
  try {
    say('warm-up step (compiles shaders; profiled to count FLOPs)');
    const { timing, profile } = await timeSteps(async () => work.push(await trainer.step()), steps, (i, lastMs) => say(`timed step ${i + 1}/${steps} (the step before took ${Math.round(lastMs)} ms)`));
    let breakdown: KernelBreakdown | null = null;
    if (kernelReps > 0) {
      const t = await timeKernels(profile.calls, kernelReps, (done, total) => say(`replaying kernel ${done + 1} of ${total} distinct calls`));
      breakdown = { estimateMs: t.estimateMs, skipped: t.skipped, top: t.kernels.slice(0, TOP_KERNELS), byName: byKernelName(t.kernels) };
    }
    return { figures: stepFigures(timing, profile, breakdown), work };
  } finally {
    trainer.dispose();
  }
}

function kernelLine(name: string, s: StepFigures): string | null {
  const k = s.kernelTimes;
  if (!k) return null;
  const top = k.byName.slice(0, 5).map((e) => `${e.kernel} ${Math.round(e.msTotal)} ms (${e.count}×)`).join(', ');
  return `${name} kernels replayed: ${Math.round(k.estimateMs)} ms of the ${Math.round(s.medianMs)} ms step explained; ${top}`;
}

function stepLine(name: string, s: StepFigures, matmulGflops: number): string {
  const ms = s.stepMs.map((x) => Math.round(x)).join(', ');
  return `${name}: steps ${ms} ms (warm-up ${Math.round(s.warmupMs)} ms), ${s.kernels} kernels, ${s.readBacks} read-backs, ${(s.flops / 1e9).toFixed(3)} GFLOP → ${s.gflops.toFixed(3)} GFLOP/s; matmul ${matmulGflops.toFixed(3)} GFLOP/s`;
}

export async function runBench(o: BenchOptions, deps: BenchDeps): Promise<WorkerBench> {
  const results: string[] = [];
  const stage = (name: string) => (detail: string) => deps.onProgress({ stage: name, detail, results: [...results] });
  const result = (line: string) => {
    results.push(line);
    deps.onProgress({ stage: 'result', detail: line, results: [...results] });
  };
  const memoryBefore = memorySnapshot();

  stage('dispatch')('timing 200 small kernels');
  const dispatch = await dispatchMs(200);
  result(`small kernel: ${dispatch.toFixed(2)} ms`);

  stage('screens')(`rendering ${o.screens} screens`);
  const screens = timeScreens(deps.paint, benchScreens(o.seed, o.screens));
  result(`screens: ${screens.perSecond.toFixed(1)}/s`);

  const g = benchGrounder(o.preset, o.seed);
  try {
    const gRun = await measureTrainer(grounderSftTrainer(g, { seed: o.seed, batch: o.grounderBatch, distinct: Math.min(4, o.grounderSteps + 2), paint: deps.paint }), o.grounderSteps, o.kernelReps, stage('grounder SFT'));
    const gStep = gRun.figures;
    stage('matmul')(`reference for the grounder step [${Object.values(gStep.dominant).join('×')}]`);
    const gMatmul = await matmulFigures(gStep.dominant, o.matmulReps);
    result(stepLine('grounder SFT', gStep, gMatmul.gflops));
    const gKernels = kernelLine('grounder SFT', gStep);
    if (gKernels) result(gKernels);

    const pRun = await measureTrainer(plannerGrpoTrainer(o.preset, g, { seed: o.seed, prompts: o.grpoPrompts, groupSize: o.groupSize, paint: deps.paint, deviceSampling: o.deviceSampling }), o.plannerSteps, o.kernelReps, stage('planner GRPO'));
    const pStep = pRun.figures;
    stage('matmul')(`reference for the planner step [${Object.values(pStep.dominant).join('×')}]`);
    const pMatmul = await matmulFigures(pStep.dominant, o.matmulReps);
    result(stepLine('planner GRPO', pStep, pMatmul.gflops));
    const pKernels = kernelLine('planner GRPO', pStep);
    if (pKernels) result(pKernels);

    // Timed as often as planner GRPO; its kernels are not replayed (the anchor compares whole steps).
    const sRun = await measureTrainer(plannerSftTrainer(o.preset, { seed: o.seed, batch: o.plannerBatch, distinct: Math.min(4, o.plannerSteps + 2) }), o.plannerSteps, 0, stage('planner SFT'));
    result(`planner SFT: steps ${sRun.figures.stepMs.map((x) => Math.round(x)).join(', ')} ms (warm-up ${Math.round(sRun.figures.warmupMs)} ms), ${sRun.figures.kernels} kernels, ${(sRun.figures.flops / 1e9).toFixed(3)} GFLOP`);

    const coevo =
      o.iterations > 0
        ? await benchCoevo(deps.coevo, { preset: o.preset, seed: o.seed, iterations: o.iterations, set: o.coevoSet, reduced: o.coevoSet.length > 0 }, (p) =>
            stage('co-evolution')(`iteration ${p.iteration} ${p.phase ?? ''}`),
          )
        : null;

    return {
      backend: tf.getBackend(),
      adapter: deps.adapter,
      threads: deps.threads,
      preset: o.preset,
      dispatchMs: dispatch,
      screens,
      grounder: { batch: o.grounderBatch, samplesPerSecond: (o.grounderBatch * 1000) / gStep.medianMs, step: gStep, matmul: gMatmul },
      planner: { prompts: o.grpoPrompts, groupSize: o.groupSize, groupsPerSecond: (o.grpoPrompts * 1000) / pStep.medianMs, step: pStep, matmul: pMatmul, sampling: o.deviceSampling ? 'device' : 'host' },
      plannerSft: { batch: o.plannerBatch, step: sRun.figures },
      work: { grounderSft: gRun.work, plannerSft: sRun.work, plannerGrpo: pRun.work },
      anchorSpec: anchorSpec(o.preset),
      memoryBefore,
      coevo,
    };
  } finally {
    disposeParams(g.params);
  }
}
