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
import { GLYPH_COLS, GLYPH_ROWS } from './canvas';
import { oneHotFloat } from './dtype';

/** How far the next character may start, in glyph positions, within a word and after a space. */
export const NEXT_WITHIN_WORD = 4;
export const NEXT_AFTER_SPACE = 6;
/** Below any real score, above -Infinity (whose sums turn into NaN). */
const NONE = -1e6;

/** x [B, R, C] shifted right by d along C, NONE coming in from the left. */
function shiftRight(x: tf.Tensor3D, d: number): tf.Tensor3D {
  const [b, r, c] = x.shape;
  return tf.pad(tf.slice(x, [0, 0, 0], [b, r, c - d]), [[0, 0], [0, 0], [d, 0]], NONE) as tf.Tensor3D;
}

/** The larger of x shifted right by 1..d. */
function bestBefore(x: tf.Tensor3D, d: number): tf.Tensor3D {
  let m = shiftRight(x, 1);
  for (let k = 2; k <= d; k++) m = tf.maximum(m, shiftRight(x, k)) as tf.Tensor3D;
  return m;
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
    const space = column(afterSpace, i);
    const before = tf.add(tf.mul(bestBefore(score, NEXT_AFTER_SPACE), space), tf.mul(bestBefore(score, NEXT_WITHIN_WORD), tf.sub(1, space)));
    const next = tf.add(before, at(i));
    const here = column(present, i);
    score = tf.add(tf.mul(next, here), tf.mul(score, tf.sub(1, here))) as tf.Tensor3D; // past the end: keep the finished runs
  }
  const length = tf.reshape(tf.maximum(tf.sum(present, 1), 1), [b, 1, 1]);
  return tf.div(score, length) as tf.Tensor3D;
}
