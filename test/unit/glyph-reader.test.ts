/**
 * The grounder's glyph reader (models/glyphReader.ts) and its labels: where
 * the painter says each character landed becomes a label at one glyph
 * position; a cell hears of a glyph within its window and not beyond it;
 * and trained on some screens, the reader names the centred character on
 * screens of other tasks far more often than always naming the commonest.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import * as tf from '../../src/models/tf';
import '@tensorflow/tfjs-backend-wasm';
import { CANVAS_HEIGHT, CANVAS_WIDTH, GLYPH_COLS, GLYPH_POSITIONS, GRID_COLS, IMAGE_FLOATS } from '../../src/models/canvas';
import { GLYPH_WINDOWS_T } from '../../src/models/kernelNames';
import { registerWasmKernels } from '../../workers/wasmKernels';
import { glyphReaderSpecs, glyphsNearCells, readGlyphs, windowLayer } from '../../src/models/glyphReader';
import { initParams } from '../../src/models/params';
import { oneHotFloat } from '../../src/models/dtype';
import { syntheticScreenImage } from '../../src/models/rasterize';
import { Random } from '../../src/learn/random';
import { heldOutScreens, trainingScreens } from '../../src/pretrain/grounderScreens';
import { glyphLabels, LETTER_CLASSES } from '../../src/world/cellLabels';
import { wordChars } from '../../src/text/tokenizer';
import type { Glyph } from '../../src/world/render/painter';
import type { Screen } from '../../src/world/types';

beforeAll(async () => {
  await tf.setBackend('wasm');
  await tf.ready();
});

function painted(screens: readonly Screen[]): { images: Float32Array; labels: Int32Array } {
  const images = new Float32Array(screens.length * IMAGE_FLOATS);
  const labels = new Int32Array(screens.length * GLYPH_POSITIONS);
  screens.forEach((s, i) => {
    const glyphs: Glyph[] = [];
    images.set(syntheticScreenImage(s, glyphs), i * IMAGE_FLOATS);
    labels.set(glyphLabels(glyphs), i * GLYPH_POSITIONS);
  });
  return { images, labels };
}

describe('the window layer as a convolution (WASM)', () => {
  it('gives the windows-times-weights values and weight gradients, with and without the windows kernel', () => {
    const params = initParams(new Random(5), glyphReaderSpecs(16));
    const screens = trainingScreens(new Random(6), 2).map((s) => s.screen);
    const images = tf.tensor4d(painted(screens).images, [2, CANVAS_HEIGHT, CANVAS_WIDTH, 3]);
    const w = params['glyph.window.w'];
    const b = params['glyph.window.b'];
    const run = (byConvolution: boolean) =>
      tf.tidy(() => {
        const up = tf.reshape(tf.randomNormal([2, GLYPH_POSITIONS, 16], 0, 1, 'float32', 9), [2, -1, GLYPH_COLS, 16]);
        const { value, grads } = tf.variableGrads(() => tf.sum(tf.mul(windowLayer(params, images, byConvolution), up)) as tf.Scalar, [w, b]);
        const out = { y: windowLayer(params, images, byConvolution).dataSync(), loss: value.dataSync()[0], dw: grads[w.name].dataSync(), db: grads[b.name].dataSync() };
        return out;
      });
    const dense = run(false);
    const conv = run(true);
    registerWasmKernels(); // the weight gradient from the windows built transposed in one kernel
    expect(tf.getKernel(GLYPH_WINDOWS_T, 'wasm')).toBeTruthy();
    const kernel = run(true);
    const worst = (a: ArrayLike<number>, c: ArrayLike<number>) => {
      let m = 0;
      let scale = 1e-6;
      for (let i = 0; i < a.length; i++) {
        m = Math.max(m, Math.abs(a[i] - c[i]));
        scale = Math.max(scale, Math.abs(a[i]));
      }
      return m / scale;
    };
    expect(conv.y.length).toBe(dense.y.length);
    expect(worst(dense.y, conv.y)).toBeLessThan(1e-5);
    expect(Math.abs(conv.loss - dense.loss) / Math.abs(dense.loss)).toBeLessThan(1e-5);
    expect(worst(dense.dw, conv.dw)).toBeLessThan(1e-5);
    expect(worst(dense.db, conv.db)).toBeLessThan(1e-5);
    expect(worst(dense.dw, kernel.dw)).toBeLessThan(1e-5);
    expect(worst(dense.db, kernel.db)).toBeLessThan(1e-5);
    images.dispose();
  });
});

describe('glyph labels', () => {
  it('put each drawn character at the glyph position whose window it is centred in, and nothing elsewhere', () => {
    const labels = glyphLabels([
      { element: 'a', char: 'Q', x: 9.5, top: 20, bottom: 27 }, // centre (9.5, 23.5): column 4 and row 11, whose windows are centred at 2·(j + 1) = 10 and 24
      { element: 'a', char: ' ', x: 14, top: 20, bottom: 27 },
      { element: 'a', char: '7', x: 198, top: 200, bottom: 207 }, // (198, 203.5): column 98 and row 101 (198 and 204)
    ]);
    expect(labels[11 * GLYPH_COLS + 4]).toBe(wordChars('q', 1)[0]);
    expect(labels[101 * GLYPH_COLS + 98]).toBe(wordChars('7', 1)[0]);
    expect(labels.filter((k) => k > 0).length).toBe(2);
  });

  it('come from the painter: every character of a painted screen is reported inside its element', () => {
    const [screen] = trainingScreens(new Random(4), 1).map((s) => s.screen);
    const glyphs: Glyph[] = [];
    syntheticScreenImage(screen, glyphs);
    expect(glyphs.length).toBeGreaterThan(20);
    for (const g of glyphs) {
      const el = screen.elements.find((e) => e.id === g.element);
      expect(el).toBeDefined();
      expect(g.x).toBeGreaterThanOrEqual(el!.box.x);
      expect(g.x).toBeLessThan(el!.box.x + el!.box.w);
    }
  });
});

describe('glyph reader', () => {
  it('tells a cell about a glyph within 5 cells on its row and 1 row up or down, not further', () => {
    const logits = tf.buffer([1, GLYPH_POSITIONS, LETTER_CLASSES]);
    for (let q = 0; q < GLYPH_POSITIONS; q++) logits.set(20, 0, q, 0); // "no glyph" everywhere …
    const row = 41, col = 50; // … except one 'x' at glyph position (41, 50): cell (10, 12)
    logits.set(0, 0, row * GLYPH_COLS + col, 0);
    logits.set(20, 0, row * GLYPH_COLS + col, wordChars('x', 1)[0]);
    const near = glyphsNearCells(logits.toTensor() as tf.Tensor3D);
    const x = near.arraySync()[0].map((p) => p[wordChars('x', 1)[0]]);
    const cell = (r: number, c: number) => x[r * GRID_COLS + c];
    expect(cell(10, 12)).toBeGreaterThan(0.4);
    expect(cell(9, 7)).toBeGreaterThan(0.4);
    expect(cell(11, 17)).toBeGreaterThan(0.4);
    expect(cell(10, 18)).toBeLessThan(1e-6);
    expect(cell(8, 12)).toBeLessThan(1e-6);
    near.dispose();
  });

  it('learns to name the centred character on screens of held-out sites', async () => {
    const train = painted(trainingScreens(new Random(1), 24).map((s) => s.screen));
    const held = painted(heldOutScreens(9001, 6).map((s) => s.screen));
    const params = initParams(new Random(2), glyphReaderSpecs(64));
    const vars = Object.values(params).filter((v) => v.trainable);
    const opt: tf.Optimizer = tf.train.adam(3e-3);
    const rng = new Random(3);
    const batch = (d: typeof train, idx: number[]) => ({
      images: tf.tensor4d(idx.flatMap((i) => Array.from(d.images.subarray(i * IMAGE_FLOATS, (i + 1) * IMAGE_FLOATS))), [idx.length, CANVAS_HEIGHT, CANVAS_WIDTH, 3]),
      labels: tf.tensor2d(idx.flatMap((i) => Array.from(d.labels.subarray(i * GLYPH_POSITIONS, (i + 1) * GLYPH_POSITIONS))), [idx.length, GLYPH_POSITIONS], 'int32'),
    });
    const accuracy = async () => {
      const b = batch(held, [0, 1, 2, 3, 4, 5]);
      const pred = tf.tidy(() => tf.argMax(tf.slice(readGlyphs(params, b.images), [0, 0, 1], [-1, -1, LETTER_CLASSES - 1]), 2));
      const [p, y] = [await pred.data(), await b.labels.data()];
      tf.dispose([pred, b.images, b.labels]);
      let hits = 0, n = 0;
      const counts = new Array(LETTER_CLASSES).fill(0);
      y.forEach((k, i) => {
        if (k > 0) (n++, counts[k]++, (hits += p[i] + 1 === k ? 1 : 0));
      });
      return { top1: hits / n, commonest: Math.max(...counts) / n };
    };
    const before = await accuracy();
    for (let step = 0; step < 150; step++) {
      const b = batch(train, [0, 1, 2, 3].map(() => Math.floor(rng.next() * 24)));
      tf.tidy(() => {
        const { grads } = tf.variableGrads(() => {
          const ce = tf.neg(tf.sum(tf.mul(tf.logSoftmax(readGlyphs(params, b.images)), oneHotFloat(b.labels, LETTER_CLASSES)), -1));
          const isGlyph = tf.cast(tf.greater(b.labels, tf.scalar(0, 'int32')), 'float32');
          return tf.add(tf.mean(ce), tf.div(tf.sum(tf.mul(ce, isGlyph)), tf.sum(isGlyph))) as tf.Scalar;
        }, vars);
        opt.applyGradients(grads);
      });
      tf.dispose([b.images, b.labels]);
    }
    const after = await accuracy();
    console.log(`glyph top-1 on held-out screens: ${before.top1.toFixed(3)} → ${after.top1.toFixed(3)} (commonest character ${after.commonest.toFixed(3)})`);
    expect(after.top1).toBeGreaterThan(2 * after.commonest);
    expect(after.top1).toBeGreaterThan(before.top1 + 0.2);
  }, 900_000); // 150 steps of the reader alone: one to six minutes on a 2-core machine, depending on what else runs (a guard against hangs, not a speed goal)
});
