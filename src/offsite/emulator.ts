/**
 * The emulator: everything the model owner ships to the data owner, and
 * nothing more. Per unit of the model, planner or grounder (units.ts), it is one of
 * - an adapter: the first and last unit, shipped with their current weights
 *   as the adapters' starting point (the data owner tunes these);
 * - kept: the unit's own weights, its attention projections optionally as
 *   rank-r SVD factors (selective rank compression, ratio β);
 * - replaced: only its harmonizer's weights; the unit's own are never in it.
 * Plus the embeddings and final norm, which belong to no unit.
 *
 * Values are plain Float32Arrays, not tensors, so an emulator is a file
 * (safetensors, below) and can be inspected. Only this module can make an
 * Emulator (the brand is a module-private symbol, and the
 * tuning entry asks this module whether it made the object), from the owner's side
 * (buildEmulator) or from the shipped bytes (readEmulator); both check that
 * no replaced unit's weights are inside.
 */
import { parseConfig } from '../models/checkpoint';
import { decodeSafetensors, encodeSafetensors, type TensorData } from '../models/safetensors';
import type { ParamMap } from '../models/params';
import { lowRankFactors, multiply, rankAt } from './svd';
import { modelUnits, sandwich, type OffsiteModelConfig, type Unit } from './units';

const BRAND: unique symbol = Symbol('emulator');
/** Every emulator this module made: a copy with the same fields (the brand included) is not one. */
const MADE = new WeakSet<object>();

export type UnitRole = 'adapter' | 'kept' | 'replaced';

export interface UnitPlan {
  index: number;
  id: string;
  role: UnitRole;
  /** Rank of each attention projection when compressed (absent: full rank). */
  rank?: number;
  /** Learned importance (ScaleOT emulators; absent for uniform drop and adapters). */
  score?: number;
}

export type EmulatorMethod = 'scaleot' | 'uniform-drop';

export interface Emulator {
  readonly [BRAND]: true;
  readonly method: EmulatorMethod;
  readonly config: OffsiteModelConfig;
  /** Replace ratio α of the middle units, and rank ratio β of the kept units' attention projections. */
  readonly alpha: number;
  readonly beta: number;
  readonly units: readonly UnitPlan[];
  /** Shipped weights: dense ones under their model names, rank-reduced ones as `${name}.left` and `${name}.right`. */
  readonly tensors: Readonly<Record<string, TensorData>>;
}

export interface EmulatorPlan {
  method: EmulatorMethod;
  alpha: number;
  beta: number;
  /** Unit.index of the units to replace (middle units only). */
  replaced: ReadonlySet<number>;
  /** Harmonizer values of (at least) every replaced unit. */
  harmonizers: Readonly<Record<string, TensorData>>;
  /** Importance per middle unit, in middle order (ScaleOT). */
  scores?: readonly number[];
}

/** Float32 copies of tensors' values, read back with data(). */
export async function tensorValues(p: ParamMap, names?: readonly string[]): Promise<Record<string, TensorData>> {
  const out: Record<string, TensorData> = {};
  for (const n of names ?? Object.keys(p)) {
    const t = p[n];
    if (!t) throw new Error(`tensorValues: no ${n}`);
    out[n] = { shape: [...t.shape], data: new Float32Array((await t.data()) as Float32Array) };
  }
  return out;
}

/** The model owner's side: an emulator of the full model (planner or grounder) under `plan`. */
export async function buildEmulator(full: ParamMap, cfg: OffsiteModelConfig, plan: EmulatorPlan): Promise<Emulator> {
  const units = modelUnits(cfg);
  const { adapters, middle } = sandwich(units);
  for (const i of plan.replaced) if (!middle.some((u) => u.index === i)) throw new Error(`buildEmulator: unit ${i} is not a middle unit`);
  const owned = new Set(units.flatMap((u) => u.params));
  const tensors: Record<string, TensorData> = await tensorValues(full, Object.keys(full).filter((n) => !owned.has(n)));
  const plans: UnitPlan[] = [];
  for (const u of units) {
    const m = middle.indexOf(u);
    const score = m >= 0 && plan.scores ? plan.scores[m] : undefined;
    const base = { index: u.index, id: u.id, ...(score !== undefined ? { score } : {}) };
    if (adapters.includes(u)) {
      Object.assign(tensors, await tensorValues(full, u.params));
      plans.push({ ...base, role: 'adapter' });
    } else if (plan.replaced.has(u.index)) {
      const own = Object.keys(plan.harmonizers).filter((k) => k.startsWith(`${u.harmonizer}.`));
      if (own.length === 0) throw new Error(`buildEmulator: no harmonizer for ${u.id}`);
      for (const k of own) tensors[k] = copy(plan.harmonizers[k]);
      plans.push({ ...base, role: 'replaced' });
    } else {
      const values = await tensorValues(full, u.params);
      let rank: number | undefined;
      if (plan.beta < 1) {
        for (const name of u.projections) {
          const { shape, data } = values[name];
          const [m, n] = shape;
          rank = rankAt(plan.beta, m, n);
          const { left, right } = lowRankFactors(data, m, n, rank);
          delete values[name];
          values[`${name}.left`] = { shape: [m, rank], data: left };
          values[`${name}.right`] = { shape: [rank, n], data: right };
        }
      }
      Object.assign(tensors, values);
      plans.push({ ...base, role: 'kept', ...(rank !== undefined ? { rank } : {}) });
    }
  }
  return checked({ [BRAND]: true, method: plan.method, config: cfg, alpha: plan.alpha, beta: plan.beta, units: plans, tensors });
}

const copy = (t: TensorData): TensorData => ({ shape: [...t.shape], data: new Float32Array(t.data) });

/** Fails unless the emulator carries exactly what its plan says: above all, no replaced unit's own weights. */
function checked(e: Emulator): Emulator {
  const units = modelUnits(e.config);
  if (e.units.length !== units.length) throw new Error(`emulator: ${e.units.length} unit plans for ${units.length} units`);
  for (const u of units) {
    const role = e.units[u.index].role;
    const present = u.params.filter((n) => n in e.tensors);
    if (role === 'replaced' && present.length > 0) throw new Error(`emulator: replaced unit ${u.id} ships its own weights (${present.join(', ')})`);
    if (role === 'replaced' && !Object.keys(e.tensors).some((k) => k.startsWith(`${u.harmonizer}.`))) throw new Error(`emulator: replaced unit ${u.id} has no harmonizer`);
    if (role !== 'replaced') {
      const missing = u.params.filter((n) => !(n in e.tensors) && !(`${n}.left` in e.tensors));
      if (missing.length > 0) throw new Error(`emulator: ${u.id} lacks ${missing.join(', ')}`);
    }
  }
  MADE.add(e);
  return e;
}

/** Unit plans by role, and the units themselves. */
export function emulatorUnits(e: Emulator): { unit: Unit; plan: UnitPlan }[] {
  return modelUnits(e.config).map((unit) => ({ unit, plan: e.units[unit.index] }));
}

/** Names of the adapter tensors: every weight of the adapter units. */
export function adapterNames(e: Emulator): string[] {
  return emulatorUnits(e)
    .filter((x) => x.plan.role === 'adapter')
    .flatMap((x) => x.unit.params);
}

/**
 * The emulator's weights as the model's forward reads them: rank-reduced
 * projections multiplied back into dense [m, n] matrices (of rank r), and
 * harmonizers in place of replaced units (layers.ts isReplaced).
 */
export function emulatorWeights(e: Emulator): Record<string, TensorData> {
  const out: Record<string, TensorData> = {};
  for (const [name, t] of Object.entries(e.tensors)) {
    if (name.endsWith('.right')) continue;
    if (name.endsWith('.left')) {
      const base = name.slice(0, -'.left'.length);
      const right = e.tensors[`${base}.right`];
      const [m, r] = t.shape;
      const n = right.shape[1];
      out[base] = { shape: [m, n], data: multiply(t.data, right.data, m, r, n) };
    } else out[name] = t;
  }
  return out;
}

/** Number of shipped values (the factors, not their products). */
export function emulatorSize(e: Emulator): number {
  return Object.values(e.tensors).reduce((n, t) => n + t.data.length, 0);
}

/** The emulator as one safetensors file, the plan in its metadata. */
export function writeEmulator(e: Emulator): Uint8Array {
  return encodeSafetensors({ ...e.tensors }, {
    format: 'coevo-offsite-emulator',
    method: e.method,
    config: JSON.stringify(e.config),
    alpha: String(e.alpha),
    beta: String(e.beta),
    units: JSON.stringify(e.units),
  });
}

/** The data owner's side: an emulator from the bytes the owner shipped (checked as buildEmulator's are). */
export function readEmulator(bytes: Uint8Array): Emulator {
  const { tensors, metadata } = decodeSafetensors(bytes);
  if (metadata.format !== 'coevo-offsite-emulator') throw new Error(`readEmulator: not an emulator (format ${metadata.format})`);
  const method = metadata.method;
  if (method !== 'scaleot' && method !== 'uniform-drop') throw new Error(`readEmulator: unknown method ${method}`);
  return checked({
    [BRAND]: true,
    method,
    config: parseConfig(metadata.config),
    alpha: Number(metadata.alpha),
    beta: Number(metadata.beta),
    units: JSON.parse(metadata.units) as UnitPlan[],
    tensors,
  });
}

/** Whether a value is an Emulator made by this module (the tuning entry's runtime guard). */
export function isEmulator(x: unknown): x is Emulator {
  return typeof x === 'object' && x !== null && MADE.has(x);
}
