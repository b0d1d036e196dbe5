/**
 * A fixed, seeded run of a few training steps of one agent under one rule.
 * The engine runs it on whichever backend is active, so a test can compare
 * WebGPU with WASM step by step and watch the tensor count for leaks.
 * Everything random comes from the seed, never from the backend.
 */
import * as tf from '../models/tf';
import { Random } from './random';
import { defaultTokenizer } from '../text/vocab';
import { grounderPreset, type PresetName } from '../models/presets';
import { initGrounder } from '../models/grounder';
import { grounderBatch } from '../models/grounderData';
import { syntheticScreenImage } from '../models/rasterize';
import { disposeParams } from '../models/params';
import { makeGrounderSft } from './grounderSft';
import { makeGrounderGrpo } from './grounderGrpo';
import { sliceTrainingExamples } from './grounderCurriculum';
import type { Screen } from '../world/types';
import type { Glyph } from '../world/render/painter';
import { initPlanner } from '../models/planner';
import { plannerPreset } from '../models/presets';
import { makePlannerSft, PLANNER_CLIP_NORM } from './plannerSft';
import { makePlannerGrpo } from './plannerGrpo';
import { verifierGrounder } from './plannerGrounderPool';
import { plannerSftBatch, trainingPlannerStates } from './plannerStates';

export type StepKind = 'grounder-sft' | 'grounder-grpo' | 'planner-sft' | 'planner-grpo';
export const STEP_KINDS: readonly StepKind[] = ['grounder-sft', 'grounder-grpo', 'planner-sft', 'planner-grpo'];

export interface StepCheckOptions {
  kind: StepKind;
  steps: number;
  batch: number;
  seed: number;
  preset: PresetName;
}

export interface StepCheckResult {
  kind: StepKind;
  backend: string;
  losses: number[];
  /** GRPO only: mean reward of each step's samples. */
  rewards: number[];
  tensorsAfterStep: number[]; // tf.memory().numTensors after each step
  tensorsBefore: number;
  tensorsAfterDispose: number;
  msPerStep: number;
  /** Wall time of each step: the first includes shader compilation on WebGPU. */
  stepMs: number[];
  /** Set by the engine: the first error the GPU reported (a kernel that failed to compile), or null. */
  deviceFault?: string | null;
}

/** Screen → canvas pixels; when `glyphs` is given, every character drawn is pushed onto it (the pretraining's glyph labels). */
export type Paint = (screen: Screen, glyphs?: Glyph[]) => Float32Array;

interface Trainer {
  /** The step's loss, and for GRPO the mean reward of its samples (which the seeded draws decide). */
  step(): Promise<{ loss: number; reward?: number }>;
  dispose(): void;
}

function grounderTrainer(o: StepCheckOptions, paint: Paint): Trainer {
  const rng = new Random(o.seed);
  const tok = defaultTokenizer();
  const cfg = grounderPreset(o.preset);
  const params = initGrounder(rng.fork('init'), cfg);
  const pool = sliceTrainingExamples(rng.fork('data'), o.batch * o.steps, {});
  const batches = Array.from({ length: o.steps }, (_, i) => grounderBatch(tok, cfg, pool.slice(i * o.batch, (i + 1) * o.batch), paint));
  let i = 0;
  if (o.kind === 'grounder-sft') {
    const sft = makeGrounderSft(params, cfg, { lr: 3e-3 });
    return {
      step: async () => ({ loss: (await sft.step(batches[i++ % batches.length])).loss }),
      dispose: () => {
        sft.dispose();
        disposeParams(params);
      },
    };
  }
  const grpo = makeGrounderGrpo(params, cfg, { lr: 1e-3, rng: rng.fork('grpo') });
  return {
    step: async () => {
      const r = await grpo.step(batches[i++ % batches.length]);
      return { loss: r.loss, reward: r.meanReward };
    },
    dispose: () => {
      grpo.dispose();
      disposeParams(params);
    },
  };
}

/**
 * The planner under SFT or GRPO on training states. GRPO's reward comes
 * from the rule-based verifier grounder, so it needs no pixels and both
 * backends see identical rewards; its samples come from the seeded rng.
 */
function plannerTrainer(o: StepCheckOptions): Trainer {
  const rng = new Random(o.seed);
  const tok = defaultTokenizer();
  const cfg = plannerPreset(o.preset);
  const params = initPlanner(rng.fork('init'), cfg);
  const states = trainingPlannerStates(rng.fork('data'), o.batch * o.steps).slice(0, o.batch * o.steps);
  const chunk = (i: number) => states.slice((i % o.steps) * o.batch, ((i % o.steps) + 1) * o.batch);
  let i = 0;
  if (o.kind === 'planner-sft') {
    const sft = makePlannerSft(params, cfg, { lr: 3e-3, clipNorm: PLANNER_CLIP_NORM });
    return {
      step: async () => ({ loss: (await sft.step(plannerSftBatch(tok, cfg, chunk(i++)))).loss }),
      dispose: () => {
        sft.dispose();
        disposeParams(params);
      },
    };
  }
  const grpo = makePlannerGrpo(params, cfg, tok, { lr: 1e-3, pool: [verifierGrounder()], rng: rng.fork('grpo'), groupSize: 4, clipNorm: PLANNER_CLIP_NORM });
  return {
    step: async () => {
      const r = await grpo.step(chunk(i++));
      return { loss: r.loss, reward: r.meanReward };
    },
    dispose: () => {
      grpo.dispose();
      disposeParams(params);
    },
  };
}

export async function runStepCheck(o: StepCheckOptions, paint: Paint = syntheticScreenImage): Promise<StepCheckResult> {
  const tensorsBefore = tf.memory().numTensors;
  const trainer = o.kind.startsWith('planner') ? plannerTrainer(o) : grounderTrainer(o, paint);
  const losses: number[] = [];
  const rewards: number[] = [];
  const tensorsAfterStep: number[] = [];
  const stepMs: number[] = [];
  const t0 = performance.now();
  try {
    for (let s = 0; s < o.steps; s++) {
      const ts = performance.now();
      const r = await trainer.step();
      losses.push(r.loss);
      if (r.reward !== undefined) rewards.push(r.reward);
      stepMs.push(performance.now() - ts);
      tensorsAfterStep.push(tf.memory().numTensors);
    }
  } finally {
    trainer.dispose();
  }
  return {
    kind: o.kind,
    backend: tf.getBackend(),
    losses,
    rewards,
    tensorsAfterStep,
    tensorsBefore,
    tensorsAfterDispose: tf.memory().numTensors,
    msPerStep: (performance.now() - t0) / o.steps,
    stepMs,
  };
}
