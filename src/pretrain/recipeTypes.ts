/** The shape of a base-model recipe, as the worker's pretraining host runs it (types only). */
import type { Paint } from '../learn/stepCheck';
import type { RealScreenInput } from '../realScreens/suiteInput';
import type { BaseDataMix, BaseFigure, PretrainOptions } from './baseTypes';
import type { RealPageRenderer } from './realPool';
import type { StyleWeights } from './styleWeights';

export interface RecipeProgress {
  stage: string;
  step: number;
  steps: number;
  loss: number | null;
}

export interface TrainedBase {
  bytes: Uint8Array;
  parameters: number;
  steps: number;
  figures: BaseFigure[];
  /** What it trained on, by source (absent when it trained nothing, or for a model that does not count it). */
  data?: BaseDataMix;
}

/** A resumable checkpoint a recipe hands out while it trains. */
export interface RecipeCheckpoint {
  /** The resume file (src/pretrain/resumeFile.ts): weights, optimizer state, steps done, the run's key. */
  bytes: Uint8Array;
  stage: string;
  step: number;
  steps: number;
}

export interface RecipeOptions {
  preset: PretrainOptions['preset'];
  seed: number;
  scale: number;
  /** The tfjs backend the job runs on (a checkpoint only continues on the backend that made it). */
  backend: string;
  paint: Paint;
  /** Weights (safetensors) to measure as they are: no training, and `bytes` and `steps` of the result are these weights' and 0. */
  from?: Uint8Array;
  /** A base model's weights (safetensors) to tune instead of fresh ones (the planner's PLANNER_TUNE_RECIPES). */
  start?: Uint8Array;
  /** Hand a checkpoint every `every` training steps and after the last. */
  checkpoints?: { every: number; save(c: RecipeCheckpoint): void };
  /** A checkpoint of this recipe's, to continue from: the weights come out as an uninterrupted run's. */
  resume?: Uint8Array;
  /** Share of the grounder's examples from real-DOM training pages (0: none). */
  realShare?: number;
  /** A grounder tune's style weights (absent: all styles alike). */
  tuneStyles?: StyleWeights;
  /** With a start grown from a smaller preset: train only the blocks growth adds (the rest stays the smaller model's). */
  trainAdded?: boolean;
  /** Draws real training pages in the page; null where no page registered one (Node). */
  realPages?: RealPageRenderer | null;
  /** The held-out real-screen suite, drawn by the page; resolves to null where no page registered it (Node). */
  realSuite?: () => Promise<RealScreenInput[] | null>;
  onProgress(p: RecipeProgress): void;
}

/** Trains one base model from a seed (or takes `from`) and measures it on held-out data. */
export type BaseRecipe = (o: RecipeOptions) => Promise<TrainedBase>;
