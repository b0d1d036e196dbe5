/** The shape of a base-model recipe, as the worker's pretraining host runs it (types only). */
import type { Paint } from '../learn/stepCheck';
import type { BaseFigure, PretrainOptions } from './baseTypes';

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
}

export interface RecipeOptions {
  preset: PretrainOptions['preset'];
  seed: number;
  scale: number;
  paint: Paint;
  /** Weights (safetensors) to measure as they are: no training, and `bytes` and `steps` of the result are these weights' and 0. */
  from?: Uint8Array;
  onProgress(p: RecipeProgress): void;
}

/** Trains one base model from a seed (or takes `from`) and measures it on held-out data. */
export type BaseRecipe = (o: RecipeOptions) => Promise<TrainedBase>;
