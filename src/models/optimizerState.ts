/**
 * The state of the two Adams that training uses (tf.train.adam and
 * FlatAdam) as plain data, and back: what resumable pretraining saves beside
 * the weights, so that the first step after a resume computes what the
 * uninterrupted run's step computed, bit for bit. Moments are keyed by
 * parameter name, not by tfjs variable name: those carry a counter
 * (params.ts) that differs from one process to the next.
 */
import * as tf from './tf';
import { FlatAdam } from './flatAdam';
import type { TensorData } from './safetensors';
import type { Params } from './params';

export interface OptimizerState {
  kind: 'adam' | 'flatAdam';
  /** Parameter names in the optimizer's own order (it indexes its moments by position). */
  keys: string[];
  /** beta1^t and beta2^t as the steps multiplied them up in float32. */
  accBeta1: number;
  accBeta2: number;
  iterations: number;
  /** adam: `m/<key>` and `v/<key>` per parameter; flatAdam: `m` and `v`, flat over `keys`. */
  tensors: Record<string, TensorData>;
}

interface Moment {
  originalName: string;
  variable: tf.Variable;
}

/**
 * tf.train.adam's private fields (tfjs-core 4.x, optimizers/adam_optimizer.js).
 * Its public getWeights/setWeights will not do: setWeights recomputes beta^t
 * with pow(), which rounds differently from the product the steps built up.
 */
interface AdamInternals {
  accBeta1: tf.Variable;
  accBeta2: tf.Variable;
  accumulatedFirstMoment: Moment[];
  accumulatedSecondMoment: Moment[];
  iterations_: number;
}

function adamInternals(opt: tf.AdamOptimizer): AdamInternals {
  const a = opt as unknown as AdamInternals;
  if (!(a.accBeta1 instanceof tf.Variable) || !Array.isArray(a.accumulatedFirstMoment) || !Array.isArray(a.accumulatedSecondMoment)) {
    throw new Error('optimizerState: this tfjs AdamOptimizer keeps its state in other fields than tfjs-core 4.x did; update src/models/optimizerState.ts.');
  }
  return a;
}

/** Parameter name of each tfjs variable name. */
function keyOf(params: Params): (variableName: string) => string {
  const keys = new Map(Object.entries(params).map(([k, v]) => [v.name, k]));
  return (name) => {
    const k = keys.get(name);
    if (k === undefined) throw new Error(`optimizerState: the optimizer updates ${name}, which is not one of the model's parameters.`);
    return k;
  };
}

function paramOf(params: Params, key: string): tf.Variable {
  const p = params[key];
  if (!p) throw new Error(`optimizerState: the saved optimizer state has moments for ${key}, which this model does not have.`);
  return p;
}

// Not instanceof: tf.Optimizer's Symbol.hasInstance says yes for any optimizer, whatever its class.
const isFlatAdam = (opt: tf.Optimizer): opt is FlatAdam => FlatAdam.prototype.isPrototypeOf(opt);
const isAdam = (opt: tf.Optimizer): opt is tf.AdamOptimizer => tf.AdamOptimizer.prototype.isPrototypeOf(opt);

const copy = async (t: tf.Tensor): Promise<TensorData> => ({ shape: [...t.shape], data: new Float32Array((await t.data()) as Float32Array) });

/** A copy of the optimizer's state, or null before its first step. */
export async function saveOptimizer(opt: tf.Optimizer, params: Params): Promise<OptimizerState | null> {
  const key = keyOf(params);
  if (isFlatAdam(opt)) {
    const s = await opt.saveState();
    if (!s) return null;
    return {
      kind: 'flatAdam',
      keys: s.names.map(key),
      accBeta1: s.accBeta1,
      accBeta2: s.accBeta2,
      iterations: s.iterations,
      tensors: { m: { shape: [s.m.length], data: s.m }, v: { shape: [s.v.length], data: s.v } },
    };
  }
  if (isAdam(opt)) {
    const a = adamInternals(opt);
    if (a.accumulatedFirstMoment.length === 0) return null;
    const keys = a.accumulatedFirstMoment.map((mo) => key(mo.originalName.replace(/\/m$/, '')));
    const tensors: Record<string, TensorData> = {};
    for (let i = 0; i < keys.length; i++) {
      tensors[`m/${keys[i]}`] = await copy(a.accumulatedFirstMoment[i].variable);
      tensors[`v/${keys[i]}`] = await copy(a.accumulatedSecondMoment[i].variable);
    }
    return { kind: 'adam', keys, accBeta1: (await a.accBeta1.data())[0], accBeta2: (await a.accBeta2.data())[0], iterations: opt.iterations, tensors };
  }
  throw new Error(`optimizerState: cannot save the state of a ${opt.getClassName()} optimizer (only Adam and FlatAdam).`);
}

function tensorOf(s: OptimizerState, name: string, size: number): Float32Array {
  const t = s.tensors[name];
  if (!t || t.data.length !== size) throw new Error(`optimizerState: the saved state's ${name} is missing or not of ${size} values.`);
  return t.data;
}

/**
 * Puts a saved state into a new optimizer of the same kind and learning
 * rate, before its first step, over the same parameters.
 */
export function restoreOptimizer(opt: tf.Optimizer, params: Params, s: OptimizerState): void {
  const vars = s.keys.map((k) => paramOf(params, k));
  if (isFlatAdam(opt)) {
    if (s.kind !== 'flatAdam') throw new Error(`optimizerState: a ${s.kind} state cannot go into a FlatAdam.`);
    const total = vars.reduce((n, v) => n + v.size, 0);
    opt.loadState({ names: vars.map((v) => v.name), m: tensorOf(s, 'm', total), v: tensorOf(s, 'v', total), accBeta1: s.accBeta1, accBeta2: s.accBeta2, iterations: s.iterations });
    return;
  }
  if (isAdam(opt)) {
    if (s.kind !== 'adam') throw new Error(`optimizerState: a ${s.kind} state cannot go into a tf.train.adam.`);
    const a = adamInternals(opt);
    if (a.accumulatedFirstMoment.length > 0) throw new Error('optimizerState: restore a state before the optimizer’s first step.');
    const moment = (prefix: 'm' | 'v', i: number): Moment => ({
      originalName: `${vars[i].name}/${prefix}`,
      variable: tf.tidy(() => tf.tensor(tensorOf(s, `${prefix}/${s.keys[i]}`, vars[i].size), vars[i].shape, 'float32').variable(false)),
    });
    a.accumulatedFirstMoment = vars.map((_, i) => moment('m', i));
    a.accumulatedSecondMoment = vars.map((_, i) => moment('v', i));
    tf.tidy(() => {
      a.accBeta1.assign(tf.scalar(s.accBeta1));
      a.accBeta2.assign(tf.scalar(s.accBeta2));
    });
    a.iterations_ = s.iterations;
    return;
  }
  throw new Error(`optimizerState: cannot restore the state of a ${opt.getClassName()} optimizer (only Adam and FlatAdam).`);
}
