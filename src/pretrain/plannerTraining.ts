/**
 * The base planner's training for a preset, checkpointed and resumable
 * (`npm run pretrain -- --resume`): the same initial weights, recipe and
 * steps as buildBasePlanner trains (test/slow/pretrain-planner-recipe holds
 * the two to the same bytes); plannerRecipe then hands the weights to
 * buildBasePlanner to measure. It lives apart from buildBasePlanner so that
 * the evaluation there can change without touching checkpoints, and
 * checkpoints without touching the evaluation.
 */
import { exportCheckpoint } from '../models/checkpoint';
import { grownStart } from './grownStart';
import { fitCopyGate, initPlanner, type PlannerConfig } from '../models/planner';
import { crc32 } from '../bytes/crc32';
import { measuredPlanner } from './measuredWeights';
import { countParams, disposeParams, type Params } from '../models/params';
import { plannerPreset } from '../models/presets';
import { Random } from '../learn/random';
import type { Tokenizer } from '../text/tokenizer';
import type { BasePreset } from './baseTypes';
import type { LoopState } from './loopState';
import { BASE_PLANNER_RECIPES, PLANNER_TUNE_RECIPES, trainBasePlanner, type BasePlannerOptions, type BasePlannerProgress, type BasePlannerRecord } from './planner';
import type { RecipeOptions } from './recipeTypes';
import { recipeCheckpoints, resumedState } from './resumeFile';
import { RESUME_FORMAT, type ResumeKey } from './resumeKey';

export interface PresetPlannerOptions {
  preset: BasePreset;
  seed: number;
  scale: number;
  backend: string;
  tok: Tokenizer;
  checkpoints?: RecipeOptions['checkpoints'];
  resume?: Uint8Array;
  /** A base planner to tune (PLANNER_TUNE_RECIPES) instead of training one from the seed. */
  start?: Uint8Array;
  /** With a start grown from a smaller preset: train only the blocks growth adds (`--train added`). */
  trainAdded?: boolean;
  onProgress?: (p: BasePlannerProgress) => void;
}

/** The preset's recipe (or, tuning, its tuning recipe) with every step count times `scale`, as buildBasePlanner runs it. */
export function scaledPlannerRecipe(preset: BasePreset, seed: number, scale: number, tuning = false): BasePlannerOptions {
  const recipe = (tuning ? PLANNER_TUNE_RECIPES : BASE_PLANNER_RECIPES)[preset];
  return { ...recipe, seed, pretrainSteps: Math.round(recipe.pretrainSteps * scale), sftSteps: Math.round(recipe.sftSteps * scale) };
}

/**
 * A base planner's weights to tune: the preset's shape but for the copy
 * gate, which is added if it has none; a smaller preset's planner is grown
 * into the preset's shape first (`--grow-from`, grownStart.ts).
 */
function tunedWeights(bytes: Uint8Array, cfg: PlannerConfig, preset: BasePreset, seed: number, addedOnly: boolean): Params {
  return fitCopyGate(grownStart(bytes, cfg, seed, addedOnly) ?? measuredPlanner(bytes, cfg, preset, 'tune').params, cfg);
}

/** Trains the base planner from `seed` (or on from a checkpoint) and returns its safetensors file. */
export async function trainPresetPlanner(o: PresetPlannerOptions): Promise<{ bytes: Uint8Array; parameters: number; steps: number }> {
  const cfg = plannerPreset(o.preset, o.tok.size);
  const opts = scaledPlannerRecipe(o.preset, o.seed, o.scale, o.start !== undefined);
  // A tuning run's checkpoints name the planner it started from, so another start cannot continue them.
  const start = o.start ? { start: { bytes: o.start.length, crc32: crc32(o.start) }, ...(o.trainAdded ? { trainAdded: true } : {}) } : {};
  const key: ResumeKey = { format: RESUME_FORMAT, preset: o.preset, model: 'planner', seed: o.seed, scale: o.scale, backend: o.backend, recipe: JSON.stringify({ recipe: opts, config: cfg, ...start }) };
  const resume = resumedState<BasePlannerRecord>(o.resume, key);
  const checkpoints = recipeCheckpoints<BasePlannerRecord>(key, o.checkpoints, (s: LoopState<BasePlannerRecord>) => ({
    stage: s.record.stage,
    step: s.step,
    steps: s.record.stage === 'pretrain' ? opts.pretrainSteps : opts.sftSteps,
  }));
  // From the seed (or the start) even when resuming: the checkpoint's weights replace these.
  const params = o.start ? tunedWeights(o.start, cfg, o.preset, o.seed, o.trainAdded === true) : initPlanner(new Random(o.seed).fork('planner init'), cfg);
  try {
    await trainBasePlanner(params, cfg, o.tok, opts, o.onProgress, { checkpoints, resume });
    return { bytes: await exportCheckpoint(params, cfg), parameters: countParams(params), steps: opts.pretrainSteps + opts.sftSteps };
  } finally {
    disposeParams(params);
  }
}
