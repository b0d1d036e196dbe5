/**
 * The WASM kernel for the grounder's spelling match (SPELLED_CELLS,
 * orderedMatchRows.ts, registered by workers/wasmKernels.ts) gives what the
 * tensor path gives, to float32 rounding: several screens with several
 * instructions each, targets with spaces, full length and none.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as tf from '../../src/models/tf';
import '@tensorflow/tfjs-backend-wasm';
import { GLYPH_POSITIONS, GRID_CELLS } from '../../src/models/canvas';
import { spelledCells } from '../../src/models/orderedMatch';
import { SPELLED_CELLS } from '../../src/models/orderedMatchRows';
import { spellTarget, SPELL_LETTERS } from '../../src/text/spelled';
import { LETTER_CLASSES } from '../../src/world/cellLabels';
import { registerWasmKernels } from '../../workers/wasmKernels';

let identity: tf.KernelConfig;

beforeAll(async () => {
  await tf.setBackend('wasm');
  await tf.ready();
  identity = { ...(tf.getKernel('Identity', 'wasm') as tf.KernelConfig) };
});

afterAll(() => {
  // Other files in this worker measure the tensor path and the copying Identity.
  tf.unregisterKernel(SPELLED_CELLS, 'wasm');
  tf.unregisterKernel('Identity', 'wasm');
  tf.registerKernel(identity);
});

describe('spelled cells as one WASM kernel', () => {
  it('equals the tensor path, and the step runs the kernel', async () => {
    const texts = ['Save', 'New York City', 'checklist final', '', 'abcdefghijklmnop', 'Lunch'];
    const perScreen = 3;
    // Peaked random readings, so some runs score high and many are clipped at the floor.
    const glyphs = tf.tidy(() => tf.mul(tf.randomNormal([2, GLYPH_POSITIONS, LETTER_CLASSES], 0, 1, 'float32', 4), 3) as tf.Tensor3D);
    const sp = texts.map((t) => spellTarget(`click "${t}"`));
    const spell = {
      letters: tf.tensor2d(sp.flatMap((x) => Array.from(x.letters)), [texts.length, SPELL_LETTERS], 'int32'),
      afterSpace: tf.tensor2d(sp.flatMap((x) => Array.from(x.afterSpace)), [texts.length, SPELL_LETTERS]),
    };
    expect(tf.getKernel(SPELLED_CELLS, 'wasm')).toBeUndefined();
    // Each row's screen given as a list, in any order (the reward pool's batches).
    const rows = tf.tensor1d([1, 0, 1, 0, 0, 1], 'int32');
    const viaOps = tf.tidy(() => spelledCells(glyphs, spell, perScreen));
    const listedOps = tf.tidy(() => spelledCells(glyphs, spell, rows));
    registerWasmKernels();
    const listedKernel = tf.tidy(() => spelledCells(glyphs, spell, rows));
    const profile = await tf.profile(() => tf.tidy(() => spelledCells(glyphs, spell, perScreen)));
    const viaKernel = tf.tidy(() => spelledCells(glyphs, spell, perScreen));
    expect(profile.kernelNames).toContain(SPELLED_CELLS);
    const [a, b] = [(await viaOps.data()) as Float32Array, (await viaKernel.data()) as Float32Array];
    expect(b.length).toBe(texts.length * GRID_CELLS);
    let worst = 0;
    for (let i = 0; i < a.length; i++) worst = Math.max(worst, Math.abs(a[i] - b[i]));
    expect(worst).toBeLessThan(1e-5);
    const [c, d] = [(await listedOps.data()) as Float32Array, (await listedKernel.data()) as Float32Array];
    expect(c.reduce((m, x, i) => Math.max(m, Math.abs(x - d[i])), 0)).toBeLessThan(1e-5);
    // Row 5 reads screen 1 both ways; row 4 reads screen 0 in the list and screen 1 three to a screen.
    const same = (r: number) => d.subarray(r * GRID_CELLS, (r + 1) * GRID_CELLS).every((x, i) => x === b[r * GRID_CELLS + i]);
    expect(same(5)).toBe(true);
    expect(same(4)).toBe(false);
    // Not a flat answer: the scores spread over the range, and the row without a target is 0.
    const row = (r: number) => Array.from(b.subarray(r * GRID_CELLS, (r + 1) * GRID_CELLS));
    expect(Math.max(...row(0)) - Math.min(...row(0))).toBeGreaterThan(1);
    expect(new Set(row(3))).toEqual(new Set([0]));
    tf.dispose([glyphs, spell.letters, spell.afterSpace, viaOps, viaKernel, rows, listedOps, listedKernel]);
  });
});
