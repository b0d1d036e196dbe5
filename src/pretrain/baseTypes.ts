/**
 * What a base-model pretraining job takes and gives, as plain data: the
 * worker, the page's automation API and `npm run pretrain` share these
 * types, and none of them pulls in tfjs.
 */
import type { StyleWeights } from './styleWeights';

export type BaseModelName = 'grounder' | 'planner';
export type BasePreset = 'tiny' | 'demo';

/**
 * The base models that ship in public/base/, per preset (a unit test checks
 * the files are there). A run that starts from the base models (the default
 * where any ships) starts each of them from its base and a model with none
 * from scratch.
 */
export const SHIPPED_BASES: Readonly<Record<BasePreset, readonly BaseModelName[]>> = { tiny: ['grounder', 'planner'], demo: ['grounder', 'planner'] };

/** The presets with at least one shipped base model. */
export const SHIPPED_BASE_PRESETS: readonly BasePreset[] = (Object.keys(SHIPPED_BASES) as BasePreset[]).filter((p) => SHIPPED_BASES[p].length > 0);

/** Whether a base `model` ships for `preset` (any preset name; 'full' has none). */
export function baseShips(preset: string, model: BaseModelName): boolean {
  return (SHIPPED_BASES as Readonly<Record<string, readonly BaseModelName[] | undefined>>)[preset]?.includes(model) ?? false;
}

/** The planner and grounder split by whether a base ships for `preset`, for the words that say which a run starts from. */
export function shippedBases(preset: string): { shipped: BaseModelName[]; missing: BaseModelName[] } {
  const both: BaseModelName[] = ['planner', 'grounder'];
  return { shipped: both.filter((m) => baseShips(preset, m)), missing: both.filter((m) => !baseShips(preset, m)) };
}

export interface PretrainOptions {
  preset: BasePreset;
  seed: number;
  models: BaseModelName[];
  /** Multiplies every stage's step count (1 = the recipe). */
  scale: number;
  /**
   * Base64 safetensors to measure instead of training (`npm run pretrain
   * --measure`): the recipe's held-out figures for weights made earlier,
   * after a change to how the model uses them.
   */
  measure?: Partial<Record<BaseModelName, string>>;
  /** Base64 base model to tune (`npm run pretrain --tune`; PLANNER_TUNE_RECIPES, GROUNDER_TUNE) instead of training one from the seed. */
  tune?: Partial<Record<BaseModelName, string>>;
  /** Training steps between two resumable checkpoints, per model (0 or absent: none). */
  checkpointEvery?: Partial<Record<BaseModelName, number>>;
  /** Base64 resume files (`npm run pretrain --resume`) to continue from, per model; the others start afresh. */
  resume?: Partial<Record<BaseModelName, string>>;
  /**
   * Share of the grounder's pretraining examples drawn from real-DOM
   * training pages the page renders (issue 30; `--real-share`), 0 ≤ x ≤ 1;
   * absent or 0: the world's screens only, as the shipped recipe.
   */
  realShare?: number;
  /** A grounder tune's referring styles, drawn by these relative weights (`--tune-styles`); absent: all alike. */
  tuneStyles?: StyleWeights;
  /** Tunes of a start grown from a smaller preset train only the blocks growth adds (`--train added`); absent: every weight. */
  trainAdded?: boolean;
}

/** A model's latest resumable checkpoint, as the job hands it to `npm run pretrain` to keep. */
export interface PretrainCheckpointFile {
  model: BaseModelName;
  /** Where it is kept in the output folder (resumeFileName). */
  name: string;
  stage: string;
  step: number;
  steps: number;
  /** Counts the job's checkpoints from 1: a larger one is newer. */
  seq: number;
  base64: string;
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
  /** How many checkpoints the job has handed out so far; when it grows, pretrainCheckpoints has a newer one. */
  checkpoints?: number;
}

/** One figure a base model reached on held-out data, with the chance level where one exists. */
export interface BaseFigure {
  model: BaseModelName;
  name: string;
  value: number;
  chance?: number;
  /** How many held-out items the figure is over. */
  n?: number;
  /** Wilson 95% interval of a rate over n items. */
  low?: number;
  high?: number;
}

/** The shipped description of a preset's base models (written beside them as <preset>-base.json). */
export interface BaseManifest {
  preset: BasePreset;
  seed: number;
  backend: string;
  scale: number;
  createdAt: string;
  models: BaseModelEntry[];
  figures: BaseFigure[];
}

/** One shipped model; seed, backend and createdAt say which run made it (one manifest may gather two runs, see mergeManifests). */
export interface BaseModelEntry {
  model: BaseModelName;
  file: string;
  bytes: number;
  parameters: number;
  steps: number;
  wallSeconds: number;
  seed?: number;
  backend?: string;
  scale?: number;
  createdAt?: string;
  /** When its figures were last measured again without training (`npm run pretrain -- --measure`), and on which backend. */
  measuredAt?: string;
  measuredOn?: string;
  /** What it trained on, by source (the grounder's; absent in manifests written before sources were counted). */
  data?: BaseDataMix;
  /** A tuned planner (`--tune`): the file it started from, and that file's own entry where its manifest had one. */
  tunedFrom?: TunedFrom;
  /** Which weights a tune grown from a smaller preset trained (`--train added`): only the added blocks; absent: all. */
  trained?: 'added blocks';
  /** A soup (`--soup`): the files whose weights it averages, each with its own entry where its manifest had one. */
  soupOf?: TunedFrom[];
}

/** A model file another was made from (the start of a tune, or one of a soup's ingredients). */
export interface TunedFrom {
  bytes: number;
  crc32: number;
  /** That file's entry in the manifest beside it (`npm run pretrain` adds it when the byte counts agree). */
  entry?: Omit<BaseModelEntry, 'tunedFrom'> & { tunedFrom?: TunedFrom };
}

/** A pretraining's data mix: examples per source ('world': the Canvas renderer's screens; 'real-dom': fixture pages the browser drew). */
export interface BaseDataMix {
  examples: { world: number; 'real-dom': number };
  /** The share of real-DOM examples asked for (`--real-share`). */
  realShare: number;
  /** Training pages in the real-DOM pool (seeds below 1,000,000; the held-out suite is never drawn). */
  realPages: number;
  /** A tune's style weights (`--tune-styles`), where given. */
  tuneStyles?: StyleWeights;
}

/** An entry with the run that made it spelled out, from its manifest where the entry does not say. */
function withProvenance(from: BaseManifest, m: BaseModelEntry): BaseModelEntry {
  return { seed: from.seed, backend: from.backend, scale: from.scale, createdAt: from.createdAt, ...m };
}

/**
 * The manifest after a run that trained some of a preset's models: the new
 * run's entries and figures, plus the earlier manifest's for the models it
 * did not train (so `--only grounder` into public/base keeps the planner's).
 */
export function mergeManifests(earlier: BaseManifest | null, next: BaseManifest): BaseManifest {
  if (!earlier || earlier.preset !== next.preset) return next;
  const fresh = new Set(next.models.map((m) => m.model));
  return {
    ...next,
    models: [...next.models, ...earlier.models.filter((m) => !fresh.has(m.model)).map((m) => withProvenance(earlier, m))],
    figures: [...next.figures, ...earlier.figures.filter((f) => !fresh.has(f.model))],
  };
}

/**
 * The manifest after `--tune DIR`: each tuned model's entry records the
 * entry of the model it started from, from the manifest beside that one,
 * when its byte count is the start's (otherwise the manifest describes other
 * weights, and only the start's bytes and checksum are kept).
 */
export function tunedManifest(made: BaseManifest, beside: BaseManifest | null): BaseManifest {
  if (!beside) return made;
  return {
    ...made,
    models: made.models.map((m) => {
      const earlier = beside.models.find((e) => e.model === m.model);
      return earlier && m.tunedFrom?.bytes === earlier.bytes ? { ...m, tunedFrom: { ...m.tunedFrom, entry: withProvenance(beside, earlier) } } : m;
    }),
  };
}

/**
 * The manifest after `--measure`: the measured weights are the ones the
 * earlier manifest describes, so their entries (which run trained them, in
 * how many steps and how long) stay, stamped with when they were measured;
 * their figures are the new ones. An entry whose byte count does not match
 * the measured file describes other weights and is replaced by the new one.
 */
export function remeasuredManifest(earlier: BaseManifest | null, next: BaseManifest): BaseManifest {
  if (!earlier || earlier.preset !== next.preset) return next;
  const measured = new Map(next.models.map((m) => [m.model, m]));
  const kept = (m: BaseModelEntry): BaseModelEntry => {
    const now = measured.get(m.model);
    if (!now) return m;
    if (now.bytes !== m.bytes) return now;
    return { ...withProvenance(earlier, m), measuredAt: next.createdAt, measuredOn: next.backend };
  };
  const known = new Set(earlier.models.map((m) => m.model));
  return {
    ...earlier,
    models: [...earlier.models.map(kept), ...next.models.filter((m) => !known.has(m.model))],
    figures: [...next.figures, ...earlier.figures.filter((f) => !measured.has(f.model))],
  };
}

/** One model a soup averages, as `npm run pretrain -- --soup` read it: its size, checksum and the manifest beside it. */
export interface SoupIngredient {
  bytes: number;
  crc32: number;
  beside: BaseManifest | null;
}

/**
 * The manifest after `--soup`: the measured mean's entry (no training steps
 * of its own) records each model it averages, with that model's entry from
 * the manifest beside it when the byte counts agree.
 */
export function soupManifest(made: BaseManifest, ingredients: readonly SoupIngredient[]): BaseManifest {
  return {
    ...made,
    models: made.models.map((m) => ({
      ...m,
      soupOf: ingredients.map(({ bytes, crc32, beside }) => {
        const own = beside?.models.find((e) => e.model === m.model && e.bytes === bytes);
        return own && beside ? { bytes, crc32, entry: withProvenance(beside, own) } : { bytes, crc32 };
      }),
    })),
  };
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
