/**
 * The grounder's glyph reader: which character is centred at each 2-px
 * position of the canvas (GLYPH_STRIDE), read from the 12×12 pixels around
 * it, and what those readings say about each cell's neighbourhood.
 *
 * Why its own branch, and why this shape (throwaway runs on 300 rendered
 * screens, README "Base models"): letters read through the cell features
 * (8-px cells, `dim` channels, word-level labels) stayed at the level of
 * always guessing "e" on held-out sites. One hidden layer over a 12×12 crop
 * reads glyphs of held-out sites well, but only if the crop is centred on
 * the glyph to within a pixel or so, and learns faster in grey with each
 * crop's background colour taken away. So: grey pixels less the local
 * background, 12×12 windows every 2 px, one hidden layer.
 */
import * as tf from './tf';
import { LETTER_CLASSES } from '../world/cellLabels';
import { CANVAS_HEIGHT, CANVAS_WIDTH, CELL, GLYPH_COLS, GLYPH_ROWS, GLYPH_POSITIONS, GLYPH_STRIDE, GRID_CELLS, GRID_COLS, GRID_ROWS } from './canvas';
import { dense, denseOnData, denseSpecs, relu, spaceToDepth } from './layers';
import { get, type ParamMap, type ParamSpecs } from './params';
import { transposedTimes } from './fastops';
import { softmax } from './rowOps';
import { GLYPH_WINDOWS_T, NEAR_MAX, NEAR_MAX_GRAD } from './kernelNames';

/** The window, in glyph-grid steps before and after a position: 6 steps of 2 px = 12 px. */
const BEFORE = 2;
const AFTER = 3;
const WINDOW_INPUTS = (BEFORE + AFTER + 1) ** 2 * GLYPH_STRIDE * GLYPH_STRIDE;
/** Cells left and right of a cell whose glyphs it sees (a short word's span), and rows above and below. */
const NEAR_COLS = 5;
const NEAR_ROWS = 1;
/** Contrast after the background is taken away: ink on any background comes out near ±1 or more. */
const CONTRAST = 4;

export function glyphReaderSpecs(hidden: number): ParamSpecs {
  return {
    ...denseSpecs('glyph.window', WINDOW_INPUTS, hidden, Math.sqrt(2 / WINDOW_INPUTS)),
    ...denseSpecs('glyph.out', hidden, LETTER_CLASSES, 0.02),
    ...denseSpecs('read.glyphs', LETTER_CLASSES, LETTER_CLASSES, 0.1),
  };
}

/** Whether a parameter belongs to the glyph reader proper (window and output layers; not read.glyphs, which maps readings to cells). */
export function isGlyphReaderParam(name: string): boolean {
  return name.startsWith('glyph.');
}

/** Each cell's value [S, R, C] → every pixel of the cell [S, R·CELL, C·CELL, 1]. */
function perPixel(x: tf.Tensor3D): tf.Tensor4D {
  const [s, r, c] = x.shape;
  const tiled = tf.tile(tf.reshape(x, [s, r, c, 1]), [1, 1, 1, CELL * CELL]); // [S, R, C, 8·8]
  const blocks = tf.transpose(tf.reshape(tiled, [s, r, c, CELL, CELL]), [0, 1, 3, 2, 4]);
  return tf.reshape(blocks, [s, r * CELL, c * CELL, 1]) as tf.Tensor4D;
}

/** Grey pixels [S, H, W, 1] less the mean of the 3×3 cells around each pixel's cell (24 px: the local background). */
function centredGrey(images: tf.Tensor4D): tf.Tensor4D {
  const s = images.shape[0];
  const grey = tf.mean(images, 3, true) as tf.Tensor4D;
  const cellMean = tf.reshape(tf.mean(tf.reshape(spaceToDepth(grey, CELL), [s * GRID_CELLS, CELL * CELL]), 1), [s, GRID_ROWS, GRID_COLS]);
  const padded = tf.pad(cellMean, [[0, 0], [1, 1], [1, 1]], 1);
  let sum: tf.Tensor | null = null;
  for (let dy = 0; dy < 3; dy++) {
    for (let dx = 0; dx < 3; dx++) {
      const v = tf.slice(padded, [0, dy, dx], [s, GRID_ROWS, GRID_COLS]);
      sum = sum ? tf.add(sum, v) : v;
    }
  }
  return tf.mul(tf.sub(grey, perPixel(tf.div(sum as tf.Tensor, 9) as tf.Tensor3D)), CONTRAST) as tf.Tensor4D;
}

/** Window side in glyph-grid steps. */
const SIDE = BEFORE + AFTER + 1;
const BLOCK_DEPTH = GLYPH_STRIDE * GLYPH_STRIDE;

/** The centred grey pixels as 2×2 blocks on the glyph grid, zero-padded by the window's reach: [S, GLYPH_ROWS + 5, GLYPH_COLS + 5, 4]. */
function paddedBlocks(images: tf.Tensor4D): tf.Tensor4D {
  const blocks = spaceToDepth(centredGrey(images), GLYPH_STRIDE); // [S, GLYPH_ROWS, GLYPH_COLS, stride²]
  return tf.pad(blocks, [[0, 0], [BEFORE, AFTER], [BEFORE, AFTER], [0, 0]]);
}

/** The 12×12 window of every glyph position, flattened (dy-major, then dx): [S, GLYPH_ROWS, GLYPH_COLS, WINDOW_INPUTS]. */
function windowsOf(padded: tf.Tensor4D): tf.Tensor4D {
  const s = padded.shape[0];
  const views: tf.Tensor[] = [];
  for (let dy = 0; dy < SIDE; dy++) {
    for (let dx = 0; dx < SIDE; dx++) views.push(tf.slice(padded, [0, dy, dx, 0], [s, GLYPH_ROWS, GLYPH_COLS, BLOCK_DEPTH]));
  }
  return tf.concat(views, 3) as tf.Tensor4D;
}

/** The window layer's weight and bias gradients from its output gradient rows: on WASM the windows are built transposed, with a row of ones for the bias, in one kernel (glyphWindows.ts). */
function windowGradients(padded: tf.Tensor4D, rows: tf.Tensor2D): [tf.Tensor, tf.Tensor] {
  if (!tf.getKernel(GLYPH_WINDOWS_T, tf.getBackend())) return [transposedTimes(tf.reshape(windowsOf(padded), [-1, WINDOW_INPUTS]), rows), tf.sum(rows, 0)];
  const windowsT = tf.engine().runKernel(GLYPH_WINDOWS_T, { padded }, { side: SIDE }) as tf.Tensor2D;
  const both = tf.matMul(windowsT, rows);
  const hidden = rows.shape[1];
  return [tf.slice(both, [0, 0], [WINDOW_INPUTS, hidden]), tf.reshape(tf.slice(both, [WINDOW_INPUTS, 0], [1, hidden]), [hidden])];
}

/**
 * The window layer before its ReLU, [S, GLYPH_ROWS, GLYPH_COLS, hidden]:
 * each window times glyph.window.w, plus its bias. `byConvolution` (the
 * default on WASM) computes it as one convolution of the padded block grid
 * with the weights as a 6×6 filter, which XNNPACK runs without building the
 * windows; building them took 36 slices and a concat, about a sixth of a
 * grounder SFT step (docs/experiments.md, 4 Dec). tfjs has no WASM kernel for
 * a convolution's filter gradient, so the backward pass builds the windows
 * then (transposed, in one kernel: windowGradients), and only when the reader
 * trains. Same values as the windows times the
 * weights, up to the order of the additions.
 */
export function windowLayer(p: ParamMap, images: tf.Tensor4D, byConvolution = tf.getBackend() === 'wasm'): tf.Tensor4D {
  const padded = paddedBlocks(images);
  if (!byConvolution) return denseOnData(p, 'glyph.window', windowsOf(padded)) as tf.Tensor4D;
  const w = get(p, 'glyph.window.w');
  const b = get(p, 'glyph.window.b');
  const hidden = w.shape[1] as number;
  const layer = tf.customGrad((...args: (tf.Tensor | tf.GradSaveFunc)[]) => {
    const [wt, bt, save] = args as [tf.Tensor2D, tf.Tensor1D, tf.GradSaveFunc];
    save([padded]); // pixels: kept for the weight gradient, never trained through
    const filter = tf.reshape(wt, [SIDE, SIDE, BLOCK_DEPTH, hidden]) as tf.Tensor4D;
    return {
      value: tf.add(tf.conv2d(padded, filter, 1, 'valid'), bt),
      gradFunc: (dy: tf.Tensor, saved: tf.Tensor[]) => {
        const rows = tf.reshape(dy, [-1, hidden]) as tf.Tensor2D;
        return windowGradients(saved[0] as tf.Tensor4D, rows);
      },
    };
  });
  return layer(w, b) as tf.Tensor4D;
}

/** Glyph logits [S, GLYPH_POSITIONS, LETTER_CLASSES] (class 0: no character centred there) from images [S, H, W, 3]. */
export function readGlyphs(p: ParamMap, images: tf.Tensor4D): tf.Tensor3D {
  if (images.shape[1] !== CANVAS_HEIGHT || images.shape[2] !== CANVAS_WIDTH) throw new Error(`readGlyphs: images must be canvas-sized; got [${images.shape}]`);
  const s = images.shape[0];
  const h = relu(windowLayer(p, images));
  return tf.reshape(dense(p, 'glyph.out', h), [s, GLYPH_POSITIONS, LETTER_CLASSES]) as tf.Tensor3D;
}

/** The larger of x's four values in each 2×2 block [S, 2R, 2C, k] → [S, R, C, k], by strided slices (rank 4). */
export function max2x2(x: tf.Tensor4D): tf.Tensor4D {
  const [s, h, w, k] = x.shape;
  const rows = tf.reshape(x, [s * (h / 2), 2, w / 2, 2 * k]);
  const at = (i: number, j: number) => tf.slice(rows, [0, i, 0, j * k], [s * (h / 2), 1, w / 2, k]);
  const m = tf.maximum(tf.maximum(at(0, 0), at(0, 1)), tf.maximum(at(1, 0), at(1, 1)));
  return tf.reshape(m, [s, h / 2, w / 2, k]) as tf.Tensor4D;
}

/** glyphsNearCells's pooling and window maximum as one kernel and its gradient as another (WASM: windowLoops.ts). */
const nearMax = tf.customGrad((...args: (tf.Tensor | tf.GradSaveFunc)[]) => {
  const [x, save] = args as [tf.Tensor4D, tf.GradSaveFunc];
  const attrs = { pool: CELL / GLYPH_STRIDE, nearRows: NEAR_ROWS, nearCols: NEAR_COLS };
  const [value, index] = tf.engine().runKernel(NEAR_MAX, { x }, attrs) as unknown as [tf.Tensor4D, tf.Tensor4D];
  save([index]);
  return {
    value,
    gradFunc: (dy: tf.Tensor, saved: tf.Tensor[]) => [tf.engine().runKernel(NEAR_MAX_GRAD, { dy, index: saved[0] }, { shape: x.shape }) as tf.Tensor],
  };
});

/**
 * For each cell, how likely each character is to be drawn near it (within
 * NEAR_COLS cells on its row, NEAR_ROWS rows up or down): the most likely
 * reading of that character at any glyph position there. [S, cells, K]
 */
export function glyphsNearCells(glyphLogits: tf.Tensor3D): tf.Tensor3D {
  const s = glyphLogits.shape[0];
  const k = LETTER_CLASSES;
  let perCell = tf.reshape(softmax(glyphLogits), [s, GLYPH_ROWS, GLYPH_COLS, k]) as tf.Tensor4D;
  if (tf.getKernel(NEAR_MAX, tf.getBackend())) return tf.reshape(nearMax(perCell), [s, GRID_CELLS, k]) as tf.Tensor3D;
  for (let size = GLYPH_STRIDE; size < CELL; size *= 2) perCell = max2x2(perCell);
  const padded = tf.pad(perCell, [[0, 0], [NEAR_ROWS, NEAR_ROWS], [NEAR_COLS, NEAR_COLS], [0, 0]]);
  let near: tf.Tensor | null = null;
  for (let dy = 0; dy <= 2 * NEAR_ROWS; dy++) {
    for (let dx = 0; dx <= 2 * NEAR_COLS; dx++) {
      const v = tf.slice(padded, [0, dy, dx, 0], [s, GRID_ROWS, GRID_COLS, k]);
      near = near ? tf.maximum(near, v) : v;
    }
  }
  return tf.reshape(near as tf.Tensor, [s, GRID_CELLS, k]) as tf.Tensor3D;
}

/** The glyph readings' contribution to each cell's letter logits [S, cells, K]. */
export function glyphLetterLogits(p: ParamMap, glyphLogits: tf.Tensor3D): tf.Tensor3D {
  return dense(p, 'read.glyphs', glyphsNearCells(glyphLogits)) as tf.Tensor3D;
}
