/**
 * The two training steps the benchmark times, built the way the
 * co-evolution phases build them: grounder SFT on painted real-world
 * batches, and planner GRPO (sampling, reward from a pool of the verifier
 * and the neural grounder, update) on training states with a target. The
 * batches are prepared before timing, so a step's time is training only;
 * painting has its own figure (screens.ts).
 */
import { Random } from '../learn/random';
import { defaultTokenizer } from '../text/vocab';
import { grounderPreset, plannerPreset, type PresetName } from '../models/presets';
import { initGrounder, type GrounderConfig } from '../models/grounder';
import { initPlanner } from '../models/planner';
import { grounderBatch, type GrounderBatch } from '../models/grounderData';
import { disposeParams, type Params } from '../models/params';
import { makeGrounderSft } from '../learn/grounderSft';
import { makePlannerGrpo } from '../learn/plannerGrpo';
import { makePlannerSft, PLANNER_CLIP_NORM } from '../learn/plannerSft';
import { sliceTrainingExamples } from '../learn/grounderCurriculum';
import { neuralPoolGrounder, verifierGrounder } from '../learn/plannerGrounderPool';
import { plannerSftBatch, trainingPlannerStates, type PlannerState } from '../learn/plannerStates';
import type { PlannerBatch } from '../models/plannerData';
import type { Paint } from '../learn/stepCheck';
import type { GrounderSftWork, PlannerGrpoWork, PlannerSftWork } from './types';

export interface TimedTrainer<W> {
  /** One update; resolves to the sizes it ran at. */
  step(): Promise<W>;
  dispose(): void;
}

/** Learning rates of the bench's steps (the anchor's mirror uses the same). */
export const BENCH_LR = { grounderSft: 3e-3, plannerSft: 3e-3, plannerGrpo: 1e-3 } as const;
/** Queries per forward of the reward pool's neural grounder. */
export const POOL_BATCH = 16;
/** Planner SFT clips as the co-evolution phase does. */
export const BENCH_PLANNER_CLIP = PLANNER_CLIP_NORM;

/** The grounder and its config, shared by both benches (the planner's reward asks it). */
export interface BenchGrounder {
  params: Params;
  cfg: GrounderConfig;
}

export function benchGrounder(preset: PresetName, seed: number): BenchGrounder {
  const cfg = grounderPreset(preset);
  return { params: initGrounder(new Random(seed).fork('bench-grounder'), cfg), cfg };
}

/** Grounder SFT steps cycling over `distinct` batches of `batch` painted examples. */
export function grounderSftTrainer(g: BenchGrounder, o: { seed: number; batch: number; distinct: number; paint: Paint }): TimedTrainer<GrounderSftWork> {
  const rng = new Random(o.seed).fork('bench-grounder-data');
  const tok = defaultTokenizer();
  const pool = sliceTrainingExamples(rng, o.batch * o.distinct, {});
  if (pool.length < o.batch) throw new Error(`Only ${pool.length} grounder examples were drawn for a batch of ${o.batch}.`);
  const batches: GrounderBatch[] = [];
  for (let i = 0; i + o.batch <= pool.length && batches.length < o.distinct; i += o.batch) batches.push(grounderBatch(tok, g.cfg, pool.slice(i, i + o.batch), o.paint));
  const sft = makeGrounderSft(g.params, g.cfg, { lr: BENCH_LR.grounderSft });
  let i = 0;
  return {
    step: async () => {
      const batch = batches[i++ % batches.length];
      await sft.step(batch);
      return { batch: batch.examples.length };
    },
    dispose: () => sft.dispose(),
  };
}

/** Planner GRPO steps of `prompts` targeted training states, each sampled `groupSize` times. */
export function plannerGrpoTrainer(preset: PresetName, g: BenchGrounder, o: { seed: number; prompts: number; groupSize: number; paint: Paint; deviceSampling?: boolean }): TimedTrainer<PlannerGrpoWork> {
  const rng = new Random(o.seed).fork('bench-planner');
  const tok = defaultTokenizer();
  const cfg = plannerPreset(preset);
  const params = initPlanner(rng.fork('init'), cfg);
  const states: PlannerState[] = trainingPlannerStates(rng.fork('states'), 8 * o.prompts).filter((s) => s.step.box !== undefined);
  if (states.length < o.prompts) throw new Error(`Only ${states.length} targeted planner states were drawn for ${o.prompts} prompts.`);
  // The co-evolution pool from iteration 1: the verifier and the current grounder (priors 1 : 2).
  const pool = [verifierGrounder({ name: 'verifier', prior: 1 }), neuralPoolGrounder(g.params, g.cfg, tok, { name: 'grounder', prior: 2, paint: o.paint, batchSize: POOL_BATCH })];
  const grpo = makePlannerGrpo(params, cfg, tok, { lr: BENCH_LR.plannerGrpo, pool, rng: rng.fork('sample'), groupSize: o.groupSize, deviceBlock: o.deviceSampling ? cfg.completionLength : 0 });
  let i = 0;
  return {
    step: async () => {
      const batch = Array.from({ length: o.prompts }, (_, k) => states[(i * o.prompts + k) % states.length]);
      i++;
      const { sizes, decode } = await grpo.step(batch);
      return { rows: batch.length * o.groupSize, groupSize: o.groupSize, promptLength: sizes.promptLength, decodeSteps: sizes.decodeSteps, groundedQueries: sizes.grounded, decodeBatches: decode.batches, decodeReadBacks: decode.readBacks };
    },
    dispose: () => {
      grpo.dispose();
      disposeParams(params);
    },
  };
}

/** Planner SFT steps cycling over `distinct` batches of `batch` training states (teacher-forced, clipped as in the co-evolution phase). */
export function plannerSftTrainer(preset: PresetName, o: { seed: number; batch: number; distinct: number }): TimedTrainer<PlannerSftWork> {
  const rng = new Random(o.seed).fork('bench-planner-sft');
  const tok = defaultTokenizer();
  const cfg = plannerPreset(preset);
  const params = initPlanner(rng.fork('init'), cfg);
  const states = trainingPlannerStates(rng.fork('states'), o.batch * o.distinct);
  const batches: PlannerBatch[] = [];
  for (let i = 0; i + o.batch <= states.length; i += o.batch) batches.push(plannerSftBatch(tok, cfg, states.slice(i, i + o.batch)));
  if (batches.length === 0) throw new Error(`Only ${states.length} planner states were drawn for a batch of ${o.batch}.`);
  const sft = makePlannerSft(params, cfg, { lr: BENCH_LR.plannerSft, clipNorm: BENCH_PLANNER_CLIP });
  let i = 0;
  return {
    step: async () => {
      const batch = batches[i++ % batches.length];
      await sft.step(batch);
      return { batch: batch.examples.length, promptLength: batch.promptLength };
    },
    dispose: () => {
      sft.dispose();
      disposeParams(params);
    },
  };
}
