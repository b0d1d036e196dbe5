/**
 * What a base-model pretraining job takes and gives, as plain data: the
 * worker, the page's automation API and `npm run pretrain` share these
 * types, and none of them pulls in tfjs.
 */
export type BaseModelName = 'grounder' | 'planner';
export type BasePreset = 'tiny' | 'demo';

export interface PretrainOptions {
  preset: BasePreset;
  seed: number;
  models: BaseModelName[];
  /** Multiplies every stage's step count (1 = the recipe). */
  scale: number;
}

export interface PretrainStatus {
  state: 'idle' | 'running' | 'done' | 'failed';
  model: BaseModelName | null;
  stage: string;
  step: number;
  steps: number;
  loss: number | null;
  /** At the pace of the current stage; null before its first step. */
  etaMs: number | null;
  error?: string;
}

/** One figure a base model reached on held-out data, with the chance level where one exists. */
export interface BaseFigure {
  model: BaseModelName;
  name: string;
  value: number;
  chance?: number;
  /** How many held-out items the figure is over. */
  n?: number;
}

/** The shipped description of a preset's base models (written beside them as <preset>-base.json). */
export interface BaseManifest {
  preset: BasePreset;
  seed: number;
  backend: string;
  scale: number;
  createdAt: string;
  models: { model: BaseModelName; file: string; bytes: number; parameters: number; steps: number; wallSeconds: number }[];
  figures: BaseFigure[];
}

export interface PretrainResult {
  manifest: BaseManifest;
  /** The safetensors files, base64-encoded so that they cross page.evaluate. */
  files: { name: string; base64: string }[];
}

/** The file a preset's base model ships in, relative to the app's base/ folder. */
export function baseFileName(preset: string, model: BaseModelName): string {
  return `${preset}-${model}.safetensors`;
}

export function manifestFileName(preset: string): string {
  return `${preset}-base.json`;
}
