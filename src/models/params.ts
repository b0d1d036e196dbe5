/**
 * Named parameter maps: every weight of a model is a tf.Variable under a
 * dotted name ("blocks.0.attn.q.w"), so losses, LoRA, optimizers and
 * checkpoints all see the same flat list. Models read weights through
 * `ParamMap` (plain tensors), so LoRA can hand them W + ΔW instead.
 */
import * as tf from './tf';
import { Random, hashString } from '../learn/random';

/** What a forward function reads: a weight by name. */
export type ParamMap = Readonly<Record<string, tf.Tensor>>;
/** What a model owns: trainable variables by name. */
export type Params = Record<string, tf.Variable>;

export type Init = { kind: 'normal'; std: number } | { kind: 'zeros' } | { kind: 'ones' };

export interface ParamSpec {
  shape: number[];
  init: Init;
}

export type ParamSpecs = Record<string, ParamSpec>;

export const normal = (std: number): Init => ({ kind: 'normal', std });
export const ZEROS: Init = { kind: 'zeros' };
export const ONES: Init = { kind: 'ones' };

export function sizeOf(shape: readonly number[]): number {
  return shape.reduce((a, b) => a * b, 1);
}

/**
 * Values of every parameter, drawn from `rng` only (never tfjs's random), so
 * WebGPU and WASM start from identical weights. Each name draws from its own
 * fork, so adding a parameter never shifts the others.
 */
export function initValues(rng: Random, specs: ParamSpecs): Record<string, Float32Array> {
  const out: Record<string, Float32Array> = {};
  const base = rng.int(0, 0x7fffffff);
  for (const name of Object.keys(specs).sort()) {
    const { shape, init } = specs[name];
    const v = new Float32Array(sizeOf(shape));
    if (init.kind === 'ones') v.fill(1);
    else if (init.kind === 'normal') {
      const r = new Random((base ^ hashString(name)) >>> 0);
      for (let i = 0; i < v.length; i++) v[i] = r.normal() * init.std;
    }
    out[name] = v;
  }
  return out;
}

export function initParams(rng: Random, specs: ParamSpecs): Params {
  const values = initValues(rng, specs);
  return fromValues(values, Object.fromEntries(Object.entries(specs).map(([k, s]) => [k, s.shape])));
}

/** Variables from raw values; names keep sorted order. */
export function fromValues(values: Record<string, Float32Array>, shapes: Record<string, readonly number[]>): Params {
  const out: Params = {};
  for (const name of Object.keys(values).sort()) {
    const shape = shapes[name];
    if (!shape) throw new Error(`fromValues: no shape for ${name}`);
    if (sizeOf(shape) !== values[name].length) throw new Error(`fromValues: ${name} has ${values[name].length} values for shape [${shape}]`);
    out[name] = tf.tidy(() => tf.variable(tf.tensor(values[name], [...shape], 'float32'), true, uniqueVariableName(name)));
  }
  return out;
}

let counter = 0;
/** tfjs variable names are global; a model's name plus a counter keeps two models apart. */
function uniqueVariableName(name: string): string {
  return `${name}#${++counter}`;
}

export function countParams(p: ParamMap | ParamSpecs): number {
  let n = 0;
  for (const v of Object.values(p)) n += sizeOf(v.shape);
  return n;
}

/** Count of variables that an optimizer would update (trainable flag set). */
export function countTrainable(p: Params): number {
  let n = 0;
  for (const v of Object.values(p)) if (v.trainable) n += v.size;
  return n;
}

/** The variables a trainer updates: the trainable ones, less those `frozen` names (a trainer's own choice, e.g. the glyph reader in the loop). */
export function trainableVars(p: Params, frozen?: (name: string) => boolean): tf.Variable[] {
  return Object.entries(p)
    .filter(([name, v]) => v.trainable && !frozen?.(name))
    .map(([, v]) => v);
}

export function setTrainable(p: Params, trainable: boolean): void {
  for (const v of Object.values(p)) v.trainable = trainable;
}

export function disposeParams(p: Params): void {
  for (const v of Object.values(p)) v.dispose();
}

/** Copies of every value (read back with data(), not dataSync). */
export async function snapshot(p: ParamMap): Promise<Record<string, Float32Array>> {
  const out: Record<string, Float32Array> = {};
  for (const name of Object.keys(p).sort()) out[name] = new Float32Array(await p[name].data());
  return out;
}

/** Writes snapshot values back into existing variables (shapes must match). */
export function restore(p: Params, values: Record<string, Float32Array>): void {
  for (const name of Object.keys(p)) {
    const v = values[name];
    if (!v) throw new Error(`restore: snapshot has no ${name}`);
    if (v.length !== p[name].size) throw new Error(`restore: ${name} has ${v.length} values, variable has ${p[name].size}`);
    tf.tidy(() => p[name].assign(tf.tensor(v, p[name].shape, 'float32')));
  }
}

/** A frozen deep copy (e.g. GRPO's reference policy): new variables, not trainable. */
export function cloneParams(p: Params, trainable = false): Params {
  const out: Params = {};
  for (const name of Object.keys(p)) out[name] = tf.tidy(() => tf.variable(tf.clone(p[name]), trainable, uniqueVariableName(name)));
  return out;
}

export function shapesOf(p: ParamMap): Record<string, number[]> {
  return Object.fromEntries(Object.entries(p).map(([k, v]) => [k, [...v.shape]]));
}

/** Reads a weight, failing with its name rather than a tfjs shape error. */
export function get(p: ParamMap, name: string): tf.Tensor {
  const t = p[name];
  if (!t) throw new Error(`missing parameter ${name}`);
  return t;
}
