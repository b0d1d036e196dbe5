/**
 * Weights made earlier, loaded to be measured by a recipe's held-out probe
 * rather than trained (`npm run pretrain -- --measure`), or to be tuned (`--tune`).
 */
import { configJson, importCheckpoint, type ModelConfig } from '../models/checkpoint';
import { disposeParams, type Params } from '../models/params';
import type { BaseModelName, BasePreset } from './baseTypes';
import { sameUpToCopyGate, type PlannerConfig } from '../models/planner';

/** The checkpoint's variables; refused unless it has exactly the preset's shape, which the probe and the app assume. */
export function measuredWeights(bytes: Uint8Array, cfg: ModelConfig, model: BaseModelName, preset: BasePreset, purpose: 'measure' | 'tune' = 'measure'): Params {
  return loadedAs(bytes, (c) => configJson(c) === configJson(cfg), model, preset, purpose).params;
}

/**
 * A planner checkpoint of the preset's shape, made with or without the
 * preset's copy gate (planner.ts copyGate: base planners before it have
 * none), with its own config.
 */
export function measuredPlanner(bytes: Uint8Array, cfg: PlannerConfig, preset: BasePreset, purpose: 'measure' | 'tune' = 'measure'): { params: Params; cfg: PlannerConfig } {
  const loaded = loadedAs(bytes, (c) => c.model === 'planner' && sameUpToCopyGate(c, cfg), 'planner', preset, purpose);
  return { params: loaded.params, cfg: loaded.config as PlannerConfig };
}

function loadedAs(bytes: Uint8Array, fits: (c: ModelConfig) => boolean, model: BaseModelName, preset: BasePreset, purpose: 'measure' | 'tune' = 'measure'): ReturnType<typeof importCheckpoint> {
  let loaded: ReturnType<typeof importCheckpoint>;
  try {
    loaded = importCheckpoint(bytes);
  } catch (e) {
    throw new Error(`The base ${model} to ${purpose} is not a readable checkpoint (${e instanceof Error ? e.message : String(e)}).`);
  }
  if (!fits(loaded.config)) {
    disposeParams(loaded.params);
    throw new Error(`The base ${model} to ${purpose} does not have the '${preset}' preset's shape; ${purpose} it with its own --preset, or pretrain it again.`);
  }
  return loaded;
}
