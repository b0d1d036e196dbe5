/**
 * Decoding the planner: greedy, or sampling by Gumbel-max (gumbelNoise.ts),
 * under the grammar constraint and the copy gate's bonus where a row has
 * them. The host chooses every token from the logits it reads back; it is
 * the only sampler, so both ways of driving it give the same tokens:
 *
 * - one step at a time: each step's logits read back, the chosen tokens fed
 *   in (one read-back per token);
 * - in rounds (`deviceBlock`): the device proposes each token itself, the
 *   argmax of logit / T plus the same noise, and feeds it back without a
 *   read-back; it knows the mask and the bonus only for each row's first
 *   token not yet chosen (`lookahead`). The host reads a round's logits back
 *   once and keeps each row's tokens up to the first one it would have
 *   chosen otherwise (with the token it chose there). Where the mask and
 *   the bonus do not change the winner, a whole completion batch takes one
 *   or two read-backs (docs/sampling.md says how often they do).
 *
 * Rows that finished keep stepping (with eos fed in) so shapes stay
 * batched; their outputs are ignored.
 */
import * as tf from './tf';
import type { Random } from '../learn/random';
import { SPECIAL } from '../text/tokenizer';
import type { RowConstraint } from '../text/instructionConstraint';
import type { ParamMap } from './params';
import type { PlannerConfig } from './planner';
import { disposeCache, extend, growCache, prefill, repeatPrefill, truncateCache, type KvCache } from './plannerCache';
import { gumbelAt, gumbelRow } from './gumbelNoise';

export interface DecodeOptions {
  /** 0 = greedy; otherwise sample from softmax(logits / temperature): `rng` gives the noise's seed. */
  temperature: number;
  rng?: Random;
  /** Tokens that may never be produced (e.g. pad, bos, sep). */
  banned?: readonly number[];
  /**
   * Per row, the grammar constraint (text/instructionConstraint.ts): only
   * the tokens it allows are drawn, from the distribution renormalised over
   * them, and log-probs are taken under that same renormalised
   * distribution, as GRPO's training pass recomputes it (`allowedMask`).
   */
  constraints?: readonly (RowConstraint | null)[];
  /** Each prompt row stands for this many consecutive rows (a GRPO group): the prompt runs once for them (default 1). */
  repeat?: number;
  /**
   * Per row, the copy marks after its tokens so far (text/copyMarks.ts
   * copyTokens): with a copy gate, those tokens' logits get the gate's
   * bonus before sampling, as plannerLogits adds it in training.
   */
  copy?: readonly (RowCopy | null)[];
  /**
   * Up to this many tokens per row proposed on the device between
   * read-backs (see above); 0 or absent: one read-back per token.
   */
  deviceBlock?: number;
}

/** The marked next tokens of one row after the tokens generated so far. */
export type RowCopy = (generated: readonly number[]) => readonly number[];

export interface Decoded {
  tokens: number[][]; // per row, up to and including eos (no padding)
  logProbs: number[][]; // per generated token, under temperature 1 (the policy GRPO trains)
  /** Per row and generated token, the allowed set it was drawn from (only for constrained rows). */
  allowed?: (Uint8Array[] | null)[];
  /** Logits read back to the host: one per step, or one per round on the device. */
  readBacks: number;
  /** Rounds on the device: the tokens the host chose otherwise than proposed, because the constraint refused the proposal or for another reason (the copy bonus, rounding). */
  corrections: Corrections;
}

export interface Corrections {
  constraint: number;
  other: number;
}

/** What the rows have produced so far. */
interface Rows {
  gen: number[][];
  lps: number[][];
  done: boolean[];
  allowed: (Uint8Array[] | null)[];
}

/** Chooses row r's token at step t from its logits at `values[offset…]` (with the gate's bonus after them), and records it. */
type Choose = (r: number, t: number, values: Float32Array, offset: number) => number;

export async function plannerDecode(p: ParamMap, cfg: PlannerConfig, prompt: tf.Tensor2D, opts: DecodeOptions): Promise<Decoded> {
  const repeat = opts.repeat ?? 1;
  if (!Number.isInteger(repeat) || repeat < 1) throw new Error(`plannerDecode: repeat must be an integer ≥ 1; got ${repeat}`);
  const block = opts.deviceBlock ?? 0;
  if (!Number.isInteger(block) || block < 0) throw new Error(`plannerDecode: deviceBlock must be an integer ≥ 0; got ${block}`);
  const b = prompt.shape[0] * repeat;
  if (opts.temperature > 0 && !opts.rng) throw new Error('plannerDecode: sampling needs an rng');
  if (cfg.dim % cfg.heads !== 0) throw new Error(`plannerDecode: dim ${cfg.dim} is not a multiple of heads ${cfg.heads}`);
  if (opts.copy && opts.copy.length !== b) throw new Error(`plannerDecode: ${opts.copy.length} copy rows for ${b} rows`);
  if (opts.constraints && opts.constraints.length !== b) throw new Error(`plannerDecode: ${opts.constraints.length} constraints for ${b} rows`);
  const banned = new Uint8Array(cfg.vocabSize);
  for (const id of [SPECIAL.pad, SPECIAL.bos, SPECIAL.sep, ...(opts.banned ?? [])]) banned[id] = 1;
  // One draw per decode: the noise of every (row, step, token) follows from it.
  const seed = opts.temperature > 0 ? Math.floor((opts.rng as Random).next() * 4294967296) >>> 0 : 0;
  const rows: Rows = {
    gen: Array.from({ length: b }, () => []),
    lps: Array.from({ length: b }, () => []),
    done: new Array<boolean>(b).fill(false),
    allowed: Array.from({ length: b }, (_, r) => (opts.constraints?.[r] ? [] : null)),
  };
  const choose = chooser(cfg, opts, seed, banned, rows);
  const first = repeatPrefill(prefill(p, cfg, prompt), prompt.shape[0], repeat);
  const drive = block > 0 ? deviceRounds : hostSteps;
  const corrections: Corrections = { constraint: 0, other: 0 };
  const readBacks = await drive({ p, cfg, opts, cache: first.cache, logits: first.logits, rows, choose, block, seed, banned, corrections });
  return { tokens: rows.gen, logProbs: rows.lps, readBacks, corrections, ...(opts.constraints ? { allowed: rows.allowed } : {}) };
}

interface Drive {
  p: ParamMap;
  cfg: PlannerConfig;
  opts: DecodeOptions;
  cache: KvCache;
  /** The first completion position's logits [B, V (+1 for the gate)]. */
  logits: tf.Tensor2D;
  rows: Rows;
  choose: Choose;
  block: number;
  seed: number;
  banned: Uint8Array;
  corrections: Corrections;
}

/** One read-back per step: the host chooses every row's token, which goes in next. */
async function hostSteps(d: Drive): Promise<number> {
  const { cfg, cache, rows } = d;
  const b = rows.gen.length;
  const c = cfg.completionLength;
  const stride = cfg.vocabSize + (cfg.copyGate ? 1 : 0);
  let logits = d.logits;
  let readBacks = 0;
  try {
    for (let t = 0; t < c; t++) {
      const values = (await logits.data()) as Float32Array;
      readBacks++;
      logits.dispose();
      for (let r = 0; r < b; r++) if (!rows.done[r]) d.choose(r, t, values, r * stride);
      if (t === c - 1 || rows.done.every(Boolean)) break;
      const ids = tf.tensor2d(rows.gen.map((g) => g[g.length - 1]), [b, 1], 'int32');
      const next = extend(d.p, cfg, cache, ids, t);
      ids.dispose();
      growCache(cache, next);
      logits = next.logits;
    }
  } finally {
    if (!logits.isDisposed) logits.dispose();
    disposeCache(cache);
  }
  return readBacks;
}

/**
 * For the rows whose token at step t is the first one not yet chosen, what
 * the host knows before the device proposes it: the constraint's allowed set
 * (an additive mask, 0 or −∞) and the copy marks (1 where the gate's bonus
 * goes), both from the tokens already chosen. The device's proposal there is
 * then the host's choice, up to float rounding. Null when no row needs either.
 */
function lookahead(d: Drive, t: number, forced: Int32Array): { mask: Float32Array | null; marks: Float32Array | null } | null {
  const { cfg, opts, rows } = d;
  const v = cfg.vocabSize;
  let mask: Float32Array | null = null;
  let marks: Float32Array | null = null;
  for (let r = 0; r < rows.gen.length; r++) {
    const g = rows.gen[r];
    if (forced[r] >= 0 || g.length !== t) continue;
    const rc = opts.constraints?.[r];
    if (rc) {
      mask ??= new Float32Array(rows.gen.length * v);
      const ok = rc.allowed(g, cfg.completionLength);
      for (let i = 0; i < v; i++) if (!ok[i]) mask[r * v + i] = -Infinity;
    }
    const marked = cfg.copyGate ? (opts.copy?.[r]?.(g) ?? []) : [];
    if (marked.length > 0) {
      marks ??= new Float32Array(rows.gen.length * v);
      for (const id of marked) marks[r * v + id] = 1;
    }
  }
  return mask || marks ? { mask, marks } : null;
}

/** The fewest steps a round runs (where rows remain). */
const MIN_REACH = 4;

/**
 * Rounds of up to `block` steps proposed on the device, each read back once
 * (logits with the token fed as an extra last column). A round starts at the
 * first position some unfinished row has not settled; tokens a row already
 * settled past it are fed as they were chosen.
 */
async function deviceRounds(d: Drive): Promise<number> {
  const { cfg, cache, rows } = d;
  const b = rows.gen.length;
  const c = cfg.completionLength;
  const v = cfg.vocabSize;
  const stride = v + (cfg.copyGate ? 1 : 0);
  const width = stride + 1;
  const temperature = d.opts.temperature;
  const bannedAdd = tf.tensor2d(Float32Array.from(d.banned, (x) => (x ? -Infinity : 0)), [1, v]);
  const noise = new Float32Array(b * v);
  let logits = d.logits;
  let q = 0;
  let reach = d.block;
  let readBacks = 0;
  // Held here so that a failure mid-round frees them too.
  let steps: tf.Tensor2D[] = [];
  let round: tf.Tensor3D | null = null;
  try {
    for (;;) {
      const k = Math.min(reach, c - q);
      steps = [];
      for (let j = 0; j < k; j++) {
        const t = q + j;
        const forced = Int32Array.from(rows.gen, (g, r) => (t === c - 1 || rows.done[r] ? SPECIAL.eos : t < g.length ? g[t] : -1));
        // A row whose token here is known takes it whatever the noise: only the others need theirs.
        if (temperature > 0) for (let r = 0; r < b; r++) if (forced[r] < 0) gumbelRow(d.seed, r, t, v, noise.subarray(r * v, (r + 1) * v));
        const ahead = lookahead(d, t, forced);
        const cur = logits;
        const tok = tf.tidy(() => {
          let score: tf.Tensor = tf.slice(cur, [0, 0], [b, v]);
          if (ahead?.marks) score = tf.add(score, tf.mul(tf.slice(cur, [0, v], [b, 1]), tf.tensor2d(ahead.marks, [b, v])));
          if (temperature > 0) score = tf.add(tf.div(score, temperature), tf.tensor2d(noise, [b, v]));
          if (ahead?.mask) score = tf.add(score, tf.tensor2d(ahead.mask, [b, v]));
          const proposed = tf.argMax(tf.add(score, bannedAdd), 1);
          const f = tf.tensor1d(forced, 'int32');
          return tf.where(tf.greaterEqual(f, tf.scalar(0, 'int32')), f, proposed) as tf.Tensor1D;
        });
        steps.push(tf.tidy(() => tf.concat([cur, tf.reshape(tf.cast(tok, 'float32'), [b, 1])], 1) as tf.Tensor2D));
        if (t < c - 1) {
          const ids = tf.reshape(tok, [b, 1]) as tf.Tensor2D;
          const next = extend(d.p, cfg, cache, ids, t);
          ids.dispose();
          growCache(cache, next);
          logits = next.logits;
          cur.dispose();
        }
        tok.dispose();
      }
      round = tf.stack(steps) as tf.Tensor3D;
      tf.dispose(steps);
      const values = (await round.data()) as Float32Array;
      readBacks++;
      // Each unfinished row's settled length: where its first token fed differs from the one chosen.
      let settled = Infinity;
      for (let r = 0; r < b; r++) {
        if (rows.done[r]) continue;
        let valid = q + k;
        for (let j = 0; j < k; j++) {
          const t = q + j;
          if (t < rows.gen[r].length) continue;
          const at = (j * b + r) * width;
          const chosen = d.choose(r, t, values, at);
          if (rows.done[r]) break;
          const fed = values[at + stride];
          if (chosen !== fed) {
            const ok = rows.allowed[r]?.[t];
            if (ok && !ok[fed]) d.corrections.constraint++;
            else d.corrections.other++;
            valid = t;
            break;
          }
        }
        if (!rows.done[r]) settled = Math.min(settled, valid);
      }
      if (settled === Infinity) break;
      if (settled < q + k) {
        // The logits at `settled` came from tokens every unfinished row keeps; later ones did not.
        const kept = round;
        logits.dispose();
        logits = tf.tidy(() => tf.reshape(tf.slice(kept, [settled - q, 0, 0], [1, b, stride]), [b, stride]) as tf.Tensor2D);
        truncateCache(cache, settled);
      }
      round.dispose();
      // A round cut short by a row's correction runs steps that are redone: the next one reaches twice as far as this one got.
      reach = Math.min(d.block, Math.max(MIN_REACH, 2 * (settled - q)));
      q = settled;
    }
  } finally {
    tf.dispose([logits, bannedAdd, ...steps, ...(round ? [round] : [])]);
    disposeCache(cache);
  }
  return readBacks;
}

/** The host's sampler: the constraint's allowed set, the gate's bonus, then argmax (greedy) or Gumbel-max over what is allowed. */
function chooser(cfg: PlannerConfig, opts: DecodeOptions, seed: number, banned: Uint8Array, rows: Rows): Choose {
  const c = cfg.completionLength;
  const rowBanned = new Uint8Array(cfg.vocabSize);
  // The tokens a row may take, in increasing order: the sums below visit only these (a constrained row allows a handful).
  const unbanned = Int32Array.from(banned.keys()).filter((i) => !banned[i]);
  const rowOpen = new Int32Array(cfg.vocabSize);
  return (r, t, values, offset) => {
    let row = values.subarray(offset, offset + cfg.vocabSize);
    const marks = cfg.copyGate ? (opts.copy?.[r]?.(rows.gen[r]) ?? []) : [];
    if (marks.length > 0) {
      // Float32 adds, as the training pass's logits + gate · marks rounds them.
      row = row.slice();
      const gate = values[offset + cfg.vocabSize];
      for (const id of marks) row[id] += gate;
    }
    let ban = banned;
    let open = unbanned;
    let n = unbanned.length;
    const rc = opts.constraints?.[r];
    if (rc) {
      // The grammar leaves room for eos in the last slot, so it never has to be forced there.
      const ok = rc.allowed(rows.gen[r], c);
      (rows.allowed[r] as Uint8Array[]).push(ok);
      n = 0;
      for (let i = 0; i < ok.length; i++) {
        rowBanned[i] = banned[i] || !ok[i] ? 1 : 0;
        if (!rowBanned[i]) rowOpen[n++] = i;
      }
      if (n === 0) throw new Error(`plannerDecode: the constraint allows no token after ${rows.gen[r].length} tokens in row ${r}`);
      ban = rowBanned;
      open = rowOpen;
    }
    const { best, logZ } = rowStats(row, open, n);
    let id = opts.temperature > 0 ? gumbelMax(row, open, n, opts.temperature, seed, r, t) : best;
    // The last slot must hold eos so every completion is terminated.
    if (t === c - 1) id = SPECIAL.eos;
    rows.gen[r].push(id);
    rows.lps[r].push(ban[id] ? -Infinity : row[id] - logZ);
    if (id === SPECIAL.eos) rows.done[r] = true;
    return id;
  };
}

/** The first index of the largest row[i] / T + g(seed, r, t, i) over the allowed entries: a draw from softmax(row / T) renormalised over them. */
function gumbelMax(row: Float32Array, open: Int32Array, n: number, temperature: number, seed: number, r: number, t: number): number {
  let max = -Infinity;
  let best = open[0];
  for (let k = 0; k < n; k++) {
    const s = row[open[k]] / temperature + gumbelAt(seed, r, t, open[k]);
    if (s > max) {
      max = s;
      best = open[k];
    }
  }
  return best;
}

/**
 * The additive mask [B, C, V] that renormalises log-probs over what a
 * constrained decode allowed (0 allowed, −1e9 not): rows without a
 * constraint, and positions after a row's eos, allow everything.
 */
export function allowedMask(allowed: readonly (readonly Uint8Array[] | null)[], cfg: PlannerConfig): tf.Tensor3D {
  const v = cfg.vocabSize;
  const c = cfg.completionLength;
  const out = new Float32Array(allowed.length * c * v);
  allowed.forEach((steps, r) => {
    if (!steps) return;
    steps.forEach((ok, t) => {
      const base = (r * c + t) * v;
      for (let i = 0; i < v; i++) if (!ok[i]) out[base + i] = -1e9;
    });
  });
  return tf.tensor3d(out, [allowed.length, c, v]);
}

/**
 * Over the allowed entries of `row` (the first n of `open`, in increasing
 * order): the first index of the largest, and log Σ exp (so a log-prob is
 * row[i] − logZ). Float64 throughout, on the float32 logits read back.
 */
function rowStats(row: Float32Array, open: Int32Array, n: number): { best: number; logZ: number } {
  let max = -Infinity;
  let best = 0;
  for (let k = 0; k < n; k++) {
    const v = row[open[k]];
    if (v > max) {
      max = v;
      best = open[k];
    }
  }
  let z = 0;
  for (let k = 0; k < n; k++) z += Math.exp(row[open[k]] - max);
  return { best, logZ: max + Math.log(z) };
}
