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

/** Trains one base model from a seed and measures it on held-out data. */
export type BaseRecipe = (o: { preset: PretrainOptions['preset']; seed: number; scale: number; paint: Paint; onProgress(p: RecipeProgress): void }) => Promise<TrainedBase>;
