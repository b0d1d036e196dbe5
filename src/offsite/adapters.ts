/**
 * What the data owner sends back: the tuned weights of the adapter units
 * (the sandwich's first and last units), nothing else, and the file they
 * travel in (safetensors, like the app's checkpoints).
 */
import { decodeSafetensors, encodeSafetensors, type TensorData } from '../models/checkpoint';
import type { PlannerConfig } from '../models/planner';
import { plannerUnits, sandwich } from './units';

export interface Adapters {
  readonly kind: 'end-units';
  readonly config: PlannerConfig;
  /** Unit ids, e.g. ["blocks.0.attn", "blocks.1.mlp"]. */
  readonly units: readonly string[];
  readonly tensors: Readonly<Record<string, TensorData>>;
}

/** The weight names an Adapters of this config may carry: exactly the adapter units' own. */
export function allowedAdapterNames(cfg: PlannerConfig): Set<string> {
  return new Set(sandwich(plannerUnits(cfg)).adapters.flatMap((u) => u.params));
}

/** Fails on any tensor that is not an adapter unit's weight, or a missing one. */
export function checkAdapters(a: Adapters): Adapters {
  const allowed = allowedAdapterNames(a.config);
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
  return encodeSafetensors({ ...checkAdapters(a).tensors }, { format: 'coevo-offsite-adapters', kind: a.kind, config: JSON.stringify(a.config), units: JSON.stringify(a.units) });
}

export function readAdapters(bytes: Uint8Array): Adapters {
  const { tensors, metadata } = decodeSafetensors(bytes);
  if (metadata.format !== 'coevo-offsite-adapters') throw new Error(`readAdapters: not adapters (format ${metadata.format})`);
  return checkAdapters({ kind: 'end-units', config: JSON.parse(metadata.config) as PlannerConfig, units: JSON.parse(metadata.units) as string[], tensors });
}
