/**
 * orderedMatch.ts's spelled-cells score computed in plain loops over
 * arrays: what the WASM backend runs as one kernel (SPELLED_CELLS) in place
 * of some 150 small tensor ops per grounding batch (shifts, maxima, pads,
 * slices for each of the target's letters). Same recurrence, same clip and
 * 4×4 max pooling; the values agree with the tensor path to float32
 * rounding (ordered-match test).
 */
import { CELL, GLYPH_COLS, GLYPH_POSITIONS, GLYPH_ROWS, GLYPH_STRIDE, GRID_CELLS, GRID_COLS } from './canvas';

/** The kernel's name in tfjs's registry (registered for WASM by workers/wasmKernels.ts). */
export const SPELLED_CELLS = 'CoevoSpelledCells';

/** The same constants as orderedMatch.ts (imported there from here, so they cannot drift). */
export const NEXT_WITHIN_WORD = 4;
export const NEXT_AFTER_SPACE = 6;
export const NONE = -1e6;
/** Floor of the match score: a run this bad is no run (and the clip keeps NONE out of the sums). */
export const WORST_MATCH = -8;

const POOL = CELL / GLYPH_STRIDE; // glyph positions per cell side

/**
 * logp [S, GLYPH_POSITIONS, K] (log-probabilities), letters [B, N] (0
 * after the end), afterSpace [B, N] 0/1, rows [B] (each row's screen) →
 * [B, GRID_CELLS]: per cell, the best clipped mean log-probability of a run
 * spelling the row's target that ends in it; 0 for rows with no target.
 */
export function spelledCellsRows(logp: Float32Array, k: number, letters: Int32Array, afterSpace: Float32Array, n: number, rows: Int32Array): Float32Array {
  const b = letters.length / n;
  const out = new Float32Array(b * GRID_CELLS);
  let score = new Float64Array(GLYPH_POSITIONS);
  let next = new Float64Array(GLYPH_POSITIONS);
  const w2 = new Float64Array(GLYPH_COLS);
  const w4 = new Float64Array(GLYPH_COLS);
  for (let r = 0; r < b; r++) {
    if (!(letters[r * n] > 0)) continue; // no target: a flat 0
    const screen = rows[r] * GLYPH_POSITIONS * k;
    const first = letters[r * n];
    for (let p = 0; p < GLYPH_POSITIONS; p++) score[p] = logp[screen + p * k + first];
    let length = 1;
    for (let i = 1; i < n; i++) {
      const letter = letters[r * n + i];
      if (!(letter > 0)) continue; // past the end: the finished runs stay
      length++;
      const reach = afterSpace[r * n + i] ? NEXT_AFTER_SPACE : NEXT_WITHIN_WORD;
      for (let row = 0; row < GLYPH_ROWS; row++) {
        const base = row * GLYPH_COLS;
        // The best score 1..reach positions before each column, as orderedMatch's bestBefore takes it.
        for (let c = 0; c < GLYPH_COLS; c++) w2[c] = Math.max(score[base + c], c >= 1 ? score[base + c - 1] : NONE);
        for (let c = 0; c < GLYPH_COLS; c++) w4[c] = Math.max(w2[c], c >= 2 ? w2[c - 2] : NONE);
        for (let c = 0; c < GLYPH_COLS; c++) {
          let best = NONE;
          if (c >= 1) best = reach === NEXT_AFTER_SPACE ? Math.max(w4[c - 1], c >= 5 ? w2[c - 5] : NONE) : w4[c - 1];
          next[base + c] = best + logp[screen + (base + c) * k + letter];
        }
      }
      [score, next] = [next, score];
    }
    const o = r * GRID_CELLS;
    out.fill(-Infinity, o, o + GRID_CELLS);
    for (let p = 0; p < GLYPH_POSITIONS; p++) {
      const v = Math.min(0, Math.max(WORST_MATCH, score[p] / length));
      const cell = Math.floor(Math.floor(p / GLYPH_COLS) / POOL) * GRID_COLS + Math.floor((p % GLYPH_COLS) / POOL);
      if (v > out[o + cell]) out[o + cell] = v;
    }
  }
  return out;
}
