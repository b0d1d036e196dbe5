/**
 * Checkpoints as safetensors (./safetensors.ts) whose __metadata__ holds
 * {format, model, config}: the model config as JSON (it can also be written
 * beside the file as config.json).
 */
import type { GrounderConfig } from './grounder';
import type { PlannerConfig } from './planner';
import { fromValues, type ParamMap, type Params } from './params';
import { decodeSafetensors, encodeSafetensors, type TensorData } from './safetensors';

export type ModelConfig = GrounderConfig | PlannerConfig;

/** The model's weights and config as safetensors bytes (reads back with await data()). */
export async function exportCheckpoint(params: ParamMap, config: ModelConfig): Promise<Uint8Array> {
  const tensors: Record<string, TensorData> = {};
  for (const name of Object.keys(params).sort()) {
    tensors[name] = { shape: [...params[name].shape], data: new Float32Array((await params[name].data()) as Float32Array) };
  }
  return encodeSafetensors(tensors, { format: 'coevo', model: config.model, config: configJson(config) });
}

/** Config and raw values from safetensors bytes written by exportCheckpoint. */
export function readCheckpoint(bytes: Uint8Array): { config: ModelConfig; tensors: Record<string, TensorData> } {
  const { tensors, metadata } = decodeSafetensors(bytes);
  if (!metadata.config) throw new Error('readCheckpoint: no __metadata__.config; not a coevo checkpoint');
  return { config: parseConfig(metadata.config), tensors };
}

/** New variables from safetensors bytes. */
export function importCheckpoint(bytes: Uint8Array): { config: ModelConfig; params: Params } {
  const { config, tensors } = readCheckpoint(bytes);
  const values = Object.fromEntries(Object.entries(tensors).map(([k, t]) => [k, t.data]));
  const shapes = Object.fromEntries(Object.entries(tensors).map(([k, t]) => [k, t.shape]));
  return { config, params: fromValues(values, shapes) };
}

/** The config.json written beside a checkpoint. */
export function configJson(config: ModelConfig): string {
  return JSON.stringify(config);
}

export function parseConfig(json: string): ModelConfig {
  const c = JSON.parse(json) as ModelConfig;
  if (c.model !== 'grounder' && c.model !== 'planner') throw new Error(`parseConfig: unknown model ${String((c as { model?: unknown }).model)}`);
  return c;
}
