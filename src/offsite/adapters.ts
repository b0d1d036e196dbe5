/**
 * What the data owner sends back, and the file it travels in (safetensors,
 * like the app's checkpoints). Two kinds:
 * - end-units: the tuned weights of the sandwich's first and last units
 *   (Offsite-Tuning's and ScaleOT's adapters);
 * - lora: low-rank deltas A·B (lora.ts) on the 2-D weights of every unit the
 *   emulator did not replace (a replaced unit has no weights in E to adapt,
 *   and its harmonizer has no counterpart in M).
 * Either kind may also carry weights outside every unit, tuned whole
 * (`whole`): the agent's token table, or every weight the emulator ships as
 * it is. Tuning those shows the data owner nothing new, and they hold much
 * of full fine-tuning's gain that no unit's weights do: the demo planner's
 * token table, the demo grounder's screen encoder and heads
 * (docs/offsite.md). A unit's own weights are never carried whole.
 * Nothing else may be inside: checkAdapters fails on any other name.
 */
import { parseConfig } from '../models/checkpoint';
import { decodeSafetensors, encodeSafetensors, type TensorData } from '../models/safetensors';
import { grounderSpecs } from '../models/grounder';
import { plannerSpecs } from '../models/planner';
import { modelUnits, sandwich, type OffsiteModelConfig } from './units';

export type AdapterKind = 'end-units' | 'lora';

export interface Adapters {
  readonly kind: AdapterKind;
  readonly config: OffsiteModelConfig;
  /** Unit ids adapted, e.g. ["blocks.0.attn", "blocks.1.mlp"]. */
  readonly units: readonly string[];
  readonly tensors: Readonly<Record<string, TensorData>>;
  /** LoRA's rank and scale (the delta is (alpha / rank)·A·B); only for kind lora. */
  readonly lora?: { rank: number; alpha: number };
  /** Weights outside every unit carried whole, tuned (wholeWeights). */
  readonly whole?: readonly string[];
}

/** Which weights outside the units adapters carry whole: the token table, or all of them. */
export type CarriedWhole = 'table' | 'outside';

/** The token table of each agent. */
export function tokenTables(cfg: OffsiteModelConfig): string[] {
  return [cfg.model === 'grounder' ? 'text.tok' : 'tok'];
}

/**
 * Every weight of the agent in no unit, which every emulator ships as it is:
 * the planner's tables, final norm and copy gate; the grounder's screen
 * encoder, instruction embeddings, cross-attentions and heads.
 */
export function outsideWeights(cfg: OffsiteModelConfig): string[] {
  const owned = new Set(modelUnits(cfg).flatMap((u) => u.params));
  return Object.keys(cfg.model === 'grounder' ? grounderSpecs(cfg) : plannerSpecs(cfg)).filter((n) => !owned.has(n));
}

export function wholeWeights(cfg: OffsiteModelConfig, carry: CarriedWhole): string[] {
  return carry === 'table' ? tokenTables(cfg) : outsideWeights(cfg);
}

/** The weight names end-unit adapters of this config carry: exactly the adapter units' own. */
export function allowedAdapterNames(cfg: OffsiteModelConfig): Set<string> {
  return new Set(sandwich(modelUnits(cfg)).adapters.flatMap((u) => u.params));
}

/** For LoRA adapters over `units`: the weights they may adapt (each unit's 2-D weights). */
export function loraTargetsOf(cfg: OffsiteModelConfig, units: readonly string[]): string[] {
  const all = modelUnits(cfg);
  return units.flatMap((id) => {
    const u = all.find((x) => x.id === id);
    if (!u) throw new Error(`adapters: no unit ${id} in this model`);
    return u.params.filter((n) => n.endsWith('.w'));
  });
}

/** Fails on any tensor that is not an adapter's, or a missing one. */
export function checkAdapters(a: Adapters): Adapters {
  let allowed: Set<string>;
  if (a.kind === 'end-units') allowed = allowedAdapterNames(a.config);
  else if (a.kind === 'lora') {
    if (!a.lora || !(a.lora.rank >= 1)) throw new Error('adapters: LoRA adapters without their rank');
    allowed = new Set(loraTargetsOf(a.config, a.units).flatMap((w) => [`${w}.lora_a`, `${w}.lora_b`]));
  } else throw new Error(`adapters: unknown kind ${String((a as { kind?: unknown }).kind)}`);
  const whole = a.whole ?? [];
  const outside = new Set(outsideWeights(a.config));
  const foreign = whole.filter((n) => !outside.has(n));
  if (foreign.length > 0) throw new Error(`adapters: ${foreign.join(', ')} cannot be carried whole: only weights outside every unit can`);
  for (const n of whole) allowed.add(n);
  const extra = Object.keys(a.tensors).filter((n) => !allowed.has(n));
  if (extra.length > 0) throw new Error(`adapters: carry non-adapter tensors ${extra.join(', ')}`);
  const missing = [...allowed].filter((n) => !(n in a.tensors));
  if (missing.length > 0) throw new Error(`adapters: lack ${missing.join(', ')}`);
  return a;
}

export function adapterSize(a: Adapters): number {
  return Object.values(a.tensors).reduce((n, t) => n + t.data.length, 0);
}

export function writeAdapters(a: Adapters): Uint8Array {
  return encodeSafetensors({ ...checkAdapters(a).tensors }, {
    format: 'coevo-offsite-adapters',
    kind: a.kind,
    config: JSON.stringify(a.config),
    units: JSON.stringify(a.units),
    ...(a.lora ? { lora: JSON.stringify(a.lora) } : {}),
    ...(a.whole?.length ? { whole: JSON.stringify(a.whole) } : {}),
  });
}

export function readAdapters(bytes: Uint8Array): Adapters {
  const { tensors, metadata } = decodeSafetensors(bytes);
  if (metadata.format !== 'coevo-offsite-adapters') throw new Error(`readAdapters: not adapters (format ${metadata.format})`);
  const kind = metadata.kind;
  // `tables`: what files of 7 Dec named the carried token table.
  const whole = metadata.whole ?? metadata.tables;
  if (kind !== 'end-units' && kind !== 'lora') throw new Error(`readAdapters: unknown kind ${kind}`);
  return checkAdapters({
    kind,
    config: parseConfig(metadata.config),
    units: JSON.parse(metadata.units) as string[],
    tensors,
    ...(metadata.lora ? { lora: JSON.parse(metadata.lora) as { rank: number; alpha: number } } : {}),
    ...(whole ? { whole: JSON.parse(whole) as string[] } : {}),
  });
}
