/**
 * The foundation's training loop: fits the tiny regressor to generated data
 * with Adam and reports the loss in batches, so the GPU is never made to wait
 * for a readback on every step.
 */
import * as tf from '../models/tf';
import { Random } from './random';
import { TINY_INPUTS, disposeParams, initTinyRegressor, tinyRegressor, tinyTarget } from '../models/tinyRegressor';

export interface TinyJobConfig {
  steps: number;
  batch: number;
  lr: number;
  hidden: number;
  seed: number;
}

export const TINY_JOB_DEFAULTS: TinyJobConfig = { steps: 150, batch: 64, lr: 0.02, hidden: 32, seed: 1 };

const LIMITS: Record<keyof TinyJobConfig, [number, number, boolean]> = {
  steps: [1, 100_000, true],
  batch: [1, 4096, true],
  lr: [1e-6, 1, false],
  hidden: [1, 1024, true],
  seed: [0, 2 ** 31 - 1, true],
};

/** Names the first bad field and its allowed range, so a form can point at it. */
export function validateTinyJobConfig(c: TinyJobConfig): void {
  for (const [key, [lo, hi, integer]] of Object.entries(LIMITS) as [keyof TinyJobConfig, [number, number, boolean]][]) {
    const v = c[key];
    if (typeof v !== 'number' || !Number.isFinite(v) || v < lo || v > hi || (integer && !Number.isInteger(v))) {
      throw new RangeError(`${key} must be ${integer ? 'an integer' : 'a number'} from ${lo} to ${hi}; got ${String(v)}.`);
    }
  }
}

export interface LossPoint {
  step: number; // 1-based
  loss: number;
}

export interface TinyJobResult {
  firstLoss: number;
  lastLoss: number;
  steps: number;
}

function makeBatch(rng: Random, n: number): { x: tf.Tensor2D; y: tf.Tensor2D } {
  const xs = new Float32Array(n * TINY_INPUTS);
  const ys = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    const a = rng.next() * 2 - 1;
    const b = rng.next() * 2 - 1;
    xs[2 * i] = a;
    xs[2 * i + 1] = b;
    ys[i] = tinyTarget(a, b);
  }
  return { x: tf.tensor2d(xs, [n, TINY_INPUTS]), y: tf.tensor2d(ys, [n, 1]) };
}

export async function runTinyJob(
  config: TinyJobConfig,
  onLosses: (points: LossPoint[]) => void | Promise<void>,
  readEvery = 10,
): Promise<TinyJobResult> {
  validateTinyJobConfig(config);
  const rng = new Random(config.seed);
  const params = initTinyRegressor(rng.fork('init'), config.hidden);
  const data = rng.fork('data');
  const optimizer = tf.train.adam(config.lr);
  const vars = Object.values(params);
  let pending: { step: number; loss: tf.Scalar }[] = [];
  let first = NaN;
  let last = NaN;

  const flush = async () => {
    const values = await Promise.all(pending.map((p) => p.loss.data()));
    const points = pending.map((p, i) => ({ step: p.step, loss: values[i][0] }));
    pending.forEach((p) => p.loss.dispose());
    pending = [];
    if (points.length === 0) return;
    if (Number.isNaN(first)) first = points[0].loss;
    last = points[points.length - 1].loss;
    await onLosses(points);
  };

  try {
    for (let step = 1; step <= config.steps; step++) {
      const { x, y } = makeBatch(data, config.batch);
      const loss = optimizer.minimize(() => tf.mean(tf.square(tf.sub(tinyRegressor(params, x), y))) as tf.Scalar, true, vars);
      x.dispose();
      y.dispose();
      if (loss) pending.push({ step, loss });
      if (pending.length >= readEvery || step === config.steps) await flush();
    }
  } finally {
    pending.forEach((p) => p.loss.dispose());
    optimizer.dispose();
    disposeParams(params);
  }
  return { firstLoss: first, lastLoss: last, steps: config.steps };
}
