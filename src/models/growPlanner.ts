/**
 * A planner grown into a larger preset's shape with the same function
 * (Net2Net's wider and deeper moves, Chen et al. 2016): a bigger planner
 * starts where a trained smaller one is, instead of from scratch.
 *
 * Wider by a whole factor m, head size kept: every unit of the residual
 * stream, of q/k/v (so each head) and of the MLP's hidden layer is m copies
 * of one unit. A layer norm over m copies of a vector has the same mean and
 * variance, so it gives m copies of its output; every dense layer reads m
 * copies of its input, so its incoming weights are split between the copies
 * (their shares sum to 1). The shares are random, not 1/m each: copies with
 * equal weights would get equal gradients and stay copies, which would make
 * the bigger planner a smaller one in disguise. The output embedding is the
 * input one (tied), so the final norm's scale and shift are divided by m to
 * keep the logits.
 *
 * Deeper: the added blocks come last, with their attention output and MLP
 * projection at zero, so each adds nothing until training moves them.
 */
import { blockSpecs } from './layers';
import type { PlannerConfig } from './planner';
import { fromValues, initValues, type Params, type ParamMap } from './params';
import type { Random } from '../learn/random';

/** How far a copy's share of an incoming weight may stray from 1/m, as a fraction of 1/m. */
const SHARE_SPREAD = 0.5;

/** Why `from` cannot grow into `to`, or null when it can. */
export function growthProblem(from: PlannerConfig, to: PlannerConfig): string | null {
  for (const key of ['vocabSize', 'promptLength', 'completionLength'] as const) {
    if (from[key] !== to[key]) return `their ${key} differ (${from[key]} and ${to[key]})`;
  }
  if (Boolean(from.goalMarks) !== Boolean(to.goalMarks)) return 'one reads goal marks and the other does not';
  if (to.dim % from.dim !== 0) return `width ${to.dim} is not a whole multiple of ${from.dim}`;
  if (to.dim / to.heads !== from.dim / from.heads) return `their head sizes differ (${from.dim / from.heads} and ${to.dim / to.heads})`;
  if (to.layers < from.layers) return `${to.layers} layers cannot hold ${from.layers}`;
  return null;
}

/** Grown weights (new variables) for `to`'s shape; `params` is left as it is. */
export function growPlanner(params: ParamMap, from: PlannerConfig, to: PlannerConfig, rng: Random): Params {
  const problem = growthProblem(from, to);
  if (problem) throw new Error(`growPlanner: a ${from.dim}-wide, ${from.layers}-layer planner cannot grow into a ${to.dim}-wide, ${to.layers}-layer one: ${problem}.`);
  const m = to.dim / from.dim;
  const values: Record<string, Float32Array> = {};
  const shapes: Record<string, number[]> = {};
  const read = (name: string): { v: Float32Array; shape: number[] } => {
    const t = params[name];
    if (!t) throw new Error(`growPlanner: the planner has no ${name}`);
    return { v: t.dataSync() as Float32Array, shape: t.shape };
  };
  const put = (name: string, v: Float32Array, shape: number[]) => {
    values[name] = v;
    shapes[name] = shape;
  };
  /** Rows kept, each row's columns repeated m times (embeddings, positions). */
  const repeatColumns = (name: string, scale = 1) => {
    const { v, shape } = read(name);
    const [rows, cols] = shape.length === 1 ? [1, shape[0]] : shape;
    const out = new Float32Array(rows * cols * m);
    for (let r = 0; r < rows; r++) for (let k = 0; k < m; k++) for (let c = 0; c < cols; c++) out[r * cols * m + k * cols + c] = v[r * cols + c] * scale;
    put(name, out, shape.length === 1 ? [cols * m] : [rows, cols * m]);
  };
  /** A dense layer reading m copies of its input: rows split among the copies, columns repeated. */
  const splitRows = (name: string, repeatOut: boolean, scale = 1) => {
    const { v, shape } = read(name);
    const [rows, cols] = shape;
    const outCols = repeatOut ? cols * m : cols;
    const out = new Float32Array(rows * m * outCols);
    const shares = new Float64Array(m);
    for (let r = 0; r < rows; r++) {
      for (let c = 0; c < outCols; c++) {
        let sum = 0;
        for (let k = 0; k < m; k++) sum += (shares[k] = 1 + SHARE_SPREAD * (2 * rng.next() - 1));
        const w = v[r * cols + (c % cols)] * scale;
        for (let k = 0; k < m; k++) out[(k * rows + r) * outCols + c] = (w * shares[k]) / sum;
      }
    }
    put(name, out, [rows * m, outCols]);
  };
  repeatColumns('tok');
  repeatColumns('pos');
  repeatColumns('ln_f.g', 1 / m);
  repeatColumns('ln_f.b', 1 / m);
  for (let i = 0; i < from.layers; i++) {
    const b = `blocks.${i}`;
    for (const ln of ['ln1', 'ln2']) for (const x of ['g', 'b']) repeatColumns(`${b}.${ln}.${x}`);
    for (const d of ['attn.q', 'attn.k', 'attn.v', 'attn.o', 'mlp.fc', 'mlp.proj']) {
      splitRows(`${b}.${d}.w`, true);
      repeatColumns(`${b}.${d}.b`);
    }
  }
  if (from.copyGate && to.copyGate) {
    // The gate reads the final norm's output, which is m copies scaled by 1/m: each share is m times larger.
    splitRows('copy.w', false, m);
    const { v, shape } = read('copy.b');
    put('copy.b', v.slice(), shape);
  }
  for (let i = from.layers; i < to.layers; i++) {
    const b = `blocks.${i}`;
    const specs = blockSpecs(b, to.dim);
    const fresh = initValues(rng, specs);
    for (const zero of [`${b}.attn.o.w`, `${b}.attn.o.b`, `${b}.mlp.proj.w`, `${b}.mlp.proj.b`]) fresh[zero].fill(0);
    for (const [name, v] of Object.entries(fresh)) put(name, v, [...specs[name].shape]);
  }
  return fromValues(values, shapes);
}
