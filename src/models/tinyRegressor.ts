/**
 * The foundation's tiny model: a two-layer perceptron over a named parameter
 * map, written as a plain function so every weight is in sight. It exists to
 * prove the worker → tfjs → store path end to end before the real agents.
 */
import * as tf from './tf';
import type { Random } from '../learn/random';

export interface TinyRegressorParams {
  w1: tf.Variable; // [inputs, hidden]
  b1: tf.Variable; // [hidden]
  w2: tf.Variable; // [hidden, 1]
  b2: tf.Variable; // [1]
}

export const TINY_INPUTS = 2;

/** Weights come from the project's Random, not tfjs's, so every backend starts identical. */
export function initTinyRegressor(rng: Random, hidden: number): TinyRegressorParams {
  // tidy frees the initial values; variables survive it.
  const variable = (values: Float32Array, shape: number[]) => tf.tidy(() => tf.variable(tf.tensor(values, shape)));
  const dense = (fanIn: number, fanOut: number) =>
    variable(Float32Array.from({ length: fanIn * fanOut }, () => rng.normal() / Math.sqrt(fanIn)), [fanIn, fanOut]);
  return {
    w1: dense(TINY_INPUTS, hidden),
    b1: variable(new Float32Array(hidden), [hidden]),
    w2: dense(hidden, 1),
    b2: variable(new Float32Array(1), [1]),
  };
}

export function tinyRegressor(p: TinyRegressorParams, x: tf.Tensor2D): tf.Tensor2D {
  const h = tf.tanh(tf.add(tf.matMul(x, p.w1), p.b1));
  return tf.add(tf.matMul(h, p.w2), p.b2);
}

/** The function the job learns: smooth, non-linear in both inputs, in [-1.5, 1.5]. */
export function tinyTarget(x0: number, x1: number): number {
  return Math.sin(3 * x0) + 0.5 * x1 * x1 - 0.25;
}

export function disposeParams(p: TinyRegressorParams): void {
  for (const v of Object.values(p)) v.dispose();
}
