/**
 * Text matched as whole words, not letter by letter: every cell reads a
 * unit vector (which text it is part of), and a text, on the screen or in
 * an instruction, is embedded from the letters of its words by one shared
 * encoder. The pretraining teaches both sides contrastively: each cell must
 * pick its own text among the texts of its screen (and "no text"). So a
 * cell needs only what tells the screen's words apart (length, the shape of
 * a few letters), not every glyph of a 7-px font, which the letter-bag
 * reading has to resolve (its letter F1 stayed near 39%). A word never
 * seen is still embedded from its letters.
 */
import * as tf from './tf';
import { oneHotFloat } from './dtype';
import { matMul } from './fastops';
import { dense, denseSpecs, MASKED } from './layers';
import { get, normal, type ParamMap, type ParamSpecs } from './params';
import { WORD_CHAR_CLASSES } from '../text/tokenizer';

/** Scale of the cosine between a cell's vector and a text's: the word score and the contrastive logits. */
export const WORD_SCALE = 10;

export function wordMatchSpecs(dim: number, charLength: number): ParamSpecs {
  return {
    ...denseSpecs('word.enc1', charLength * WORD_CHAR_CLASSES, 2 * dim),
    ...denseSpecs('word.enc2', 2 * dim, dim),
    ...denseSpecs('read.word', dim, dim),
    'word.none': { shape: [dim], init: normal(0.5) },
  };
}

/** x / |x| over the last axis. */
export function unit(x: tf.Tensor): tf.Tensor {
  return tf.div(x, tf.sqrt(tf.add(tf.sum(tf.mul(x, x), -1, true), 1e-6)));
}

/** One vector per token from the letters of its word: chars [N, T, L] int32 → [N, T, d]. */
export function tokenWordVectors(p: ParamMap, chars: tf.Tensor3D): tf.Tensor3D {
  const [n, t, l] = chars.shape;
  const letters = tf.reshape(oneHotFloat(chars, WORD_CHAR_CLASSES), [n, t, l * WORD_CHAR_CLASSES]);
  return dense(p, 'word.enc2', tf.relu(dense(p, 'word.enc1', letters))) as tf.Tensor3D;
}

/** A text's unit vector: the weighted sum of its tokens' vectors [N, T, d] with weights [N, T] → [N, d]. */
export function textVector(words: tf.Tensor3D, weights: tf.Tensor): tf.Tensor2D {
  return unit(tf.sum(tf.mul(words, tf.expandDims(weights, 2)), 1)) as tf.Tensor2D;
}

/** The cells' unit vectors from the read cell features [S, cells, d]. */
export function readWords(p: ParamMap, cells: tf.Tensor): tf.Tensor3D {
  return unit(dense(p, 'read.word', cells)) as tf.Tensor3D;
}

/**
 * Which of its screen's texts each cell shows: logits [S, cells, 1 + M],
 * column 0 "no text", column k the screen's k-th text. words [S, cells, d]
 * (readWords), chars [S·M, T, L] and weights [S·M, T] the texts' tokens,
 * present [S, M] 1 where the screen has a k-th text.
 */
export function screenTextLogits(p: ParamMap, words: tf.Tensor3D, chars: tf.Tensor3D, weights: tf.Tensor2D, present: tf.Tensor2D): tf.Tensor3D {
  const [s, m] = present.shape;
  const d = words.shape[2];
  const texts = tf.reshape(textVector(tokenWordVectors(p, chars), weights), [s, m, d]);
  const none = tf.add(tf.zeros([s, 1, d]), tf.reshape(unit(get(p, 'word.none')), [1, 1, d]));
  const candidates = tf.concat([none, texts], 1); // [S, 1 + M, d]
  const logits = tf.mul(matMul(words, tf.transpose(candidates, [0, 2, 1])), WORD_SCALE);
  const absent = tf.concat([tf.zeros([s, 1]), tf.mul(tf.sub(1, present), MASKED)], 1);
  return tf.add(logits, tf.expandDims(absent, 1)) as tf.Tensor3D;
}
