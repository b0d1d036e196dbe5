/**
 * The moves a model is grown with (Net2Net's wider and deeper moves, Chen
 * et al. 2016), shared by growPlanner.ts and growGrounder.ts.
 *
 * Wider by a whole factor m: a unit of a grown space is m copies of one
 * unit, laid out copy-major (copy k of unit u at k·n + u). A layer reading m
 * copies of its input has its incoming weights split between the copies by
 * random shares that sum to 1: copies with equal weights would get equal
 * gradients and stay copies for ever.
 *
 * Deeper: added blocks come last with their output projections at zero, so
 * each adds nothing until training moves it. A grown model may train only
 * those (`addedOnly`): the smaller model's function stays inside it, and
 * training can add to it without wearing it down.
 */
import type { Random } from '../learn/random';
import { fromValues, initValues, type ParamMap, type Params, type ParamSpecs } from './params';

/** How far a copy's share of an incoming weight may stray from 1/m, as a fraction of 1/m. */
const SHARE_SPREAD = 0.5;

/** Which original column each column of a grown tensor copies. */
export type ColumnMap = (column: number) => number;

/** Columns repeated m times: copy k of column c at k·cols + c. */
export const repeated = (cols: number): ColumnMap => (c) => c % cols;

export interface Grower {
  /** The widening factor. */
  readonly m: number;
  /** The tensor as it is. */
  copy(name: string): void;
  /** Rows kept, columns widened to `cols` through `column` (default: each repeated m times), times `scale`. */
  widenColumns(name: string, scale?: number, cols?: number, column?: ColumnMap): void;
  /**
   * A dense weight whose input is `blocks` side-by-side blocks of a widened
   * space: each row becomes m rows (its copies) sharing it, columns through
   * `column` into `cols` (default: kept).
   */
  splitRows(name: string, opts?: { blocks?: number; cols?: number; column?: ColumnMap; scale?: number }): void;
  /** A dense layer (`name`.w, `name`.b) from a widened space into a widened one, times `scale`. */
  widenDense(name: string, scale?: number): void;
  /** Fresh tensors for `specs`, those named in `zero` at 0. */
  fresh(specs: ParamSpecs, zero: readonly string[]): void;
  /** The grown weights, as new variables; every name of `specs` must have been made. With `addedOnly`, only those made by `fresh` are trainable. */
  done(specs: ParamSpecs, addedOnly?: boolean): Params;
}

export function grower(params: ParamMap, m: number, rng: Random, model: string): Grower {
  const values: Record<string, Float32Array> = {};
  const shapes: Record<string, number[]> = {};
  const added = new Set<string>();
  const read = (name: string): { v: Float32Array; shape: number[] } => {
    const t = params[name];
    if (!t) throw new Error(`grow: the ${model} has no ${name}`);
    return { v: t.dataSync() as Float32Array, shape: t.shape };
  };
  const put = (name: string, v: Float32Array, shape: number[]) => {
    values[name] = v;
    shapes[name] = shape;
  };
  return {
    m,
    copy(name) {
      const { v, shape } = read(name);
      put(name, v.slice(), shape);
    },
    widenColumns(name, scale = 1, cols?: number, column?: ColumnMap) {
      const { v, shape } = read(name);
      const [rows, from] = shape.length === 1 ? [1, shape[0]] : shape;
      const to = cols ?? from * m;
      const map = column ?? repeated(from);
      const out = new Float32Array(rows * to);
      for (let r = 0; r < rows; r++) for (let c = 0; c < to; c++) out[r * to + c] = v[r * from + map(c)] * scale;
      put(name, out, shape.length === 1 ? [to] : [rows, to]);
    },
    splitRows(name, opts = {}) {
      const { v, shape } = read(name);
      const [rows, from] = shape;
      const blocks = opts.blocks ?? 1;
      const to = opts.cols ?? from;
      const map = opts.column ?? ((c: number) => c);
      const scale = opts.scale ?? 1;
      const n = rows / blocks; // width of one block before growing
      const out = new Float32Array(rows * m * to);
      const shares = new Float64Array(m);
      for (let r = 0; r < rows; r++) {
        const [block, u] = [Math.floor(r / n), r % n];
        for (let c = 0; c < to; c++) {
          let sum = 0;
          for (let k = 0; k < m; k++) sum += (shares[k] = 1 + SHARE_SPREAD * (2 * rng.next() - 1));
          const w = v[r * from + map(c)] * scale;
          for (let k = 0; k < m; k++) out[(block * n * m + k * n + u) * to + c] = (w * shares[k]) / sum;
        }
      }
      put(name, out, [rows * m, to]);
    },
    widenDense(name, scale = 1) {
      const cols = read(`${name}.w`).shape[1];
      this.splitRows(`${name}.w`, { cols: cols * m, column: repeated(cols), scale });
      this.widenColumns(`${name}.b`, scale);
    },
    fresh(specs, zero) {
      const made = initValues(rng, specs);
      for (const name of zero) made[name].fill(0);
      for (const [name, v] of Object.entries(made)) {
        put(name, v, [...specs[name].shape]);
        added.add(name);
      }
    },
    done(specs, addedOnly = false) {
      const missing = Object.keys(specs).filter((k) => !(k in values));
      if (missing.length > 0) throw new Error(`grow: the grown ${model} lacks ${missing.join(', ')}`);
      for (const [name, spec] of Object.entries(specs)) {
        if (spec.shape.join() !== shapes[name].join()) throw new Error(`grow: the grown ${model}'s ${name} is [${shapes[name]}], not [${spec.shape}]`);
      }
      const grown = fromValues(values, shapes);
      if (addedOnly) for (const [name, v] of Object.entries(grown)) v.trainable = added.has(name);
      return grown;
    },
  };
}
