/**
 * Matching a target's letters in order against the glyph reader's output
 * (glyphReader.ts): the best run of glyph positions along a glyph row that
 * spells the target, each character 1–4 positions after the one before
 * (a glyph is 4–6 px wide, a position 2 px), up to 6 after a space.
 *
 * Why in order: the same reader's readings pooled into a bag per cell found
 * the right text element for 31.5% of held-out text elements; scored in
 * order, the best run lay in the element for 91.4% (README "Base models").
 *
 * A max-plus pass over the characters, each step the larger of a few
 * shifted copies plus a gather by matrix product: element-wise ops, slices,
 * pads and matMul only, so it runs on WebGPU and WASM alike.
 */
import * as tf from './tf';
import { CELL, GLYPH_COLS, GLYPH_ROWS, GLYPH_STRIDE, GRID_CELLS } from './canvas';
import { oneHotFloat } from './dtype';
import { max2x2 } from './glyphReader';
import { pickRows, repeatRows } from './readLayers';

// How far the next character may start, in glyph positions, within a word and after a space (bestBefore's
// windows are built for these two); NONE: below any real score, above -Infinity (whose sums turn into NaN).
import { NEXT_AFTER_SPACE, NEXT_WITHIN_WORD, NONE, SPELLED_CELLS, WORST_MATCH } from './orderedMatchRows';
export { NEXT_AFTER_SPACE, NEXT_WITHIN_WORD, WORST_MATCH };

/** x [B, R, C] shifted right by d along C, NONE coming in from the left. */
function shiftRight(x: tf.Tensor3D, d: number): tf.Tensor3D {
  const [b, r, c] = x.shape;
  return tf.pad(tf.slice(x, [0, 0, 0], [b, r, c - d]), [[0, 0], [0, 0], [d, 0]], NONE) as tf.Tensor3D;
}

/**
 * The larger of x shifted right by 1..NEXT_WITHIN_WORD where `space` is 0,
 * by 1..NEXT_AFTER_SPACE where it is 1 ([B, 1, 1]). Windows of 2, 4 and 6
 * by doubling: five shifts where shifting by each distance took ten.
 */
function bestBefore(x: tf.Tensor3D, space: tf.Tensor): tf.Tensor3D {
  const w2 = tf.maximum(x, shiftRight(x, 1)) as tf.Tensor3D;
  const w4 = tf.maximum(w2, shiftRight(w2, 2)) as tf.Tensor3D;
  const w6 = tf.maximum(w4, shiftRight(w2, 4));
  return shiftRight(tf.add(w4, tf.mul(tf.sub(w6, w4), space)) as tf.Tensor3D, 1);
}

/**
 * For every glyph position, the mean log-probability of the best run that
 * spells the target and ends there.
 *
 * - logp [B, GLYPH_POSITIONS, K]: log-probabilities of the character
 *   centred at each position (one row per instruction);
 * - letters [B, N] int32: the target's characters in order, spaces left
 *   out, 0 after its end (so every target has at least one character);
 * - afterSpace [B, N] float 0/1: the character follows a space.
 *
 * Returns [B, GLYPH_ROWS, GLYPH_COLS].
 */
export function orderedMatch(logp: tf.Tensor3D, letters: tf.Tensor2D, afterSpace: tf.Tensor2D): tf.Tensor3D {
  const [b, , k] = logp.shape;
  const n = letters.shape[1];
  // Each character's log-probability at every position: [B, positions, K] × [B, K, N] → [B, positions, N].
  const wanted = oneHotFloat(letters, k);
  const perChar = tf.matMul(logp, wanted, false, true);
  const at = (i: number) => tf.reshape(tf.slice(perChar, [0, 0, i], [b, -1, 1]), [b, GLYPH_ROWS, GLYPH_COLS]) as tf.Tensor3D;
  const column = (t: tf.Tensor2D, i: number) => tf.reshape(tf.slice(t, [0, i], [b, 1]), [b, 1, 1]);
  const present = tf.cast(tf.greater(letters, tf.scalar(0, 'int32')), 'float32') as tf.Tensor2D;
  let score = at(0);
  for (let i = 1; i < n; i++) {
    const next = tf.add(bestBefore(score, column(afterSpace, i)), at(i));
    const here = column(present, i);
    score = tf.add(tf.mul(next, here), tf.mul(score, tf.sub(1, here))) as tf.Tensor3D; // past the end: keep the finished runs
  }
  const length = tf.reshape(tf.maximum(tf.sum(present, 1), 1), [b, 1, 1]);
  return tf.div(score, length) as tf.Tensor3D;
}

/** The target's letters as tensors (instructionBatch.ts fills them): [B, N] int32 and [B, N] 0/1. */
export type SpelledTensors = { letters: tf.Tensor2D; afterSpace: tf.Tensor2D };


/**
 * The in-order match as a score map over cells [B, GRID_CELLS]: for each
 * cell, the best mean log-probability of a run spelling the target that ends
 * in it, between WORST_MATCH and 0; a flat 0 for instructions that spell no
 * target. glyphLogits [S, GLYPH_POSITIONS, K]; `screenOf`: instructions per
 * screen (instruction i reads screen ⌊i / screenOf⌋), or each one's screen [B].
 *
 * No gradient flows back through it: the reader learns from its own glyph
 * labels, and a backward pass through the match would cost more than the
 * rest of the step. Inside customGrad its ops are not taped at all.
 */
export function spelledCells(glyphLogits: tf.Tensor3D, spell: SpelledTensors, screenOf: number | tf.Tensor1D): tf.Tensor2D {
  const b = spell.letters.shape[0];
  const score = tf.customGrad((...args: (tf.Tensor | tf.GradSaveFunc)[]) => {
    const [glyphs, letters, afterSpace] = args as [tf.Tensor3D, tf.Tensor2D, tf.Tensor2D];
    const zero = () => [tf.zerosLike(glyphs), tf.zerosLike(letters), tf.zerosLike(afterSpace)];
    const logp = tf.logSoftmax(glyphs); // once per screen
    if (tf.getKernel(SPELLED_CELLS, tf.getBackend())) {
      // One kernel where the backend has it (WASM: orderedMatchRows.ts), for ~150 small ops below.
      const rows = typeof screenOf === 'number' ? tf.tensor1d(Array.from({ length: b }, (_, i) => Math.floor(i / screenOf)), 'int32') : screenOf;
      return { value: tf.engine().runKernel(SPELLED_CELLS, { logp, letters, afterSpace, rows }) as tf.Tensor2D, gradFunc: zero };
    }
    const perRow = typeof screenOf === 'number' ? repeatRows(logp, screenOf) : pickRows(logp, screenOf);
    const runs = tf.clipByValue(orderedMatch(perRow as tf.Tensor3D, letters, afterSpace), WORST_MATCH, 0);
    let grid = tf.reshape(runs, [b, GLYPH_ROWS, GLYPH_COLS, 1]) as tf.Tensor4D;
    for (let size = GLYPH_STRIDE; size < CELL; size *= 2) grid = max2x2(grid);
    const spells = tf.cast(tf.greater(tf.slice(letters, [0, 0], [b, 1]), tf.scalar(0, 'int32')), 'float32');
    return { value: tf.mul(tf.reshape(grid, [b, GRID_CELLS]), spells), gradFunc: zero };
  }) as (g: tf.Tensor3D, l: tf.Tensor2D, a: tf.Tensor2D) => tf.Tensor2D;
  return score(glyphLogits, spell.letters, spell.afterSpace);
}
