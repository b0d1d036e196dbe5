/**
 * Weights made earlier, loaded to be measured by a recipe's held-out probe
 * rather than trained (`npm run pretrain -- --measure`).
 */
import { configJson, importCheckpoint, type ModelConfig } from '../models/checkpoint';
import { disposeParams, type Params } from '../models/params';
import type { BaseModelName, BasePreset } from './baseTypes';

/** The checkpoint's variables; refused unless it has exactly the preset's shape, which the probe and the app assume. */
export function measuredWeights(bytes: Uint8Array, cfg: ModelConfig, model: BaseModelName, preset: BasePreset): Params {
  let loaded: ReturnType<typeof importCheckpoint>;
  try {
    loaded = importCheckpoint(bytes);
  } catch (e) {
    throw new Error(`The base ${model} to measure is not a readable checkpoint (${e instanceof Error ? e.message : String(e)}).`);
  }
  if (configJson(loaded.config) !== configJson(cfg)) {
    disposeParams(loaded.params);
    throw new Error(`The base ${model} to measure does not have the '${preset}' preset's shape; measure it with its own --preset, or pretrain it again.`);
  }
  return loaded.params;
}
