/**
 * The in-order match of a target's letters against glyph readings
 * (models/orderedMatch.ts): the run that spells the target in order wins,
 * the same letters in another order do not, and a space lets the next
 * word start further on.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import * as tf from '../../src/models/tf';
import '@tensorflow/tfjs-backend-wasm';
import { GLYPH_COLS, GLYPH_POSITIONS } from '../../src/models/canvas';
import { orderedMatch, spelledCells, WORST_MATCH } from '../../src/models/orderedMatch';
import { GRID_CELLS, GRID_COLS } from '../../src/models/canvas';
import { spellTarget, SPELL_LETTERS } from '../../src/text/spelled';
import { LETTER_CLASSES } from '../../src/world/cellLabels';
import { wordChars } from '../../src/text/tokenizer';

beforeAll(async () => {
  await tf.setBackend('wasm');
  await tf.ready();
});

const cls = (ch: string) => wordChars(ch, 1)[0];

/** Readings that say "no glyph" everywhere except the given characters at (row, column). */
function readings(placed: [string, number, number][]): tf.Tensor3D {
  const logp = new Float32Array(GLYPH_POSITIONS * LETTER_CLASSES).fill(Math.log(0.01 / (LETTER_CLASSES - 1)));
  for (let q = 0; q < GLYPH_POSITIONS; q++) logp[q * LETTER_CLASSES] = Math.log(0.99);
  for (const [ch, row, col] of placed) {
    const q = row * GLYPH_COLS + col;
    logp.fill(Math.log(0.01 / (LETTER_CLASSES - 1)), q * LETTER_CLASSES, (q + 1) * LETTER_CLASSES);
    logp[q * LETTER_CLASSES + cls(ch)] = Math.log(0.99);
  }
  return tf.tensor3d(logp, [1, GLYPH_POSITIONS, LETTER_CLASSES]);
}

function target(text: string, n = 8): { letters: tf.Tensor2D; afterSpace: tf.Tensor2D } {
  const letters = new Int32Array(n);
  const afterSpace = new Float32Array(n);
  let i = 0;
  let space = false;
  for (const ch of text) {
    if (ch === ' ') {
      space = true;
      continue;
    }
    letters[i] = cls(ch);
    afterSpace[i++] = space ? 1 : 0;
    space = false;
  }
  return { letters: tf.tensor2d(letters, [1, n], 'int32'), afterSpace: tf.tensor2d(afterSpace, [1, n]) };
}

async function best(logp: tf.Tensor3D, text: string): Promise<{ row: number; col: number; score: number }> {
  const t = target(text);
  const s = orderedMatch(logp, t.letters, t.afterSpace);
  const v = await s.data();
  tf.dispose([s, t.letters, t.afterSpace]);
  let q = 0;
  for (let i = 1; i < v.length; i++) if (v[i] > v[q]) q = i;
  return { row: Math.floor(q / GLYPH_COLS), col: q % GLYPH_COLS, score: v[q] };
}

describe('ordered match', () => {
  it('finds the run that spells the target in order, ending at its last character', async () => {
    const logp = readings([
      ['b', 10, 20], ['a', 10, 22], ['c', 10, 25], // "bac" on row 10
      ['c', 30, 40], ['a', 30, 43], ['b', 30, 45], // "cab" on row 30
    ]);
    expect(await best(logp, 'cab')).toMatchObject({ row: 30, col: 45 });
    expect(await best(logp, 'bac')).toMatchObject({ row: 10, col: 25 });
    const cab = await best(logp, 'cab');
    expect(cab.score).toBeGreaterThan(Math.log(0.9));
    logp.dispose();
  });

  it('lets the next word start up to 6 positions on after a space, but only 4 within a word', async () => {
    const logp = readings([['o', 5, 10], ['k', 5, 16]]); // 6 positions apart
    expect((await best(logp, 'o k')).score).toBeGreaterThan(Math.log(0.9));
    expect((await best(logp, 'ok')).score).toBeLessThan(Math.log(0.5));
    logp.dispose();
  });
});

describe('spelled target', () => {
  it('spells the text an instruction names as its target, not a typed value or an anchor', () => {
    const letters = (s: string) => Array.from(spellTarget(s).letters).filter((c) => c > 0);
    expect(letters('click "Sign in"')).toEqual([...'signin'].map(cls));
    expect(Array.from(spellTarget('click "Sign in"').afterSpace).slice(0, 6)).toEqual([0, 0, 0, 0, 1, 0]);
    expect(letters('enter "bob lunch" in "To"')).toEqual([...'to'].map(cls));
    expect(letters('click the button to the right of "Hotels"')).toEqual([]);
    expect(letters('this is not an instruction')).toEqual([]);
    expect(letters('click "A very long label indeed"')).toHaveLength(SPELL_LETTERS);
  });

  it('scores cells by the best run ending in them, and stays flat when nothing is spelled', async () => {
    // "cab" ends at glyph (row 30, col 45): cell (30 / 4, 45 / 4) on the 8-px grid.
    const logp = readings([['c', 30, 40], ['a', 30, 43], ['b', 30, 45], ['b', 10, 20], ['a', 10, 22], ['c', 10, 25]]);
    const rows = (texts: string[]) => {
      const sp = texts.map((t) => spellTarget(`click "${t}"`));
      return {
        letters: tf.tensor2d(sp.flatMap((x) => Array.from(x.letters)), [texts.length, SPELL_LETTERS], 'int32'),
        afterSpace: tf.tensor2d(sp.flatMap((x) => Array.from(x.afterSpace)), [texts.length, SPELL_LETTERS]),
      };
    };
    const spell = rows(['cab', '']);
    const cells = spelledCells(logp, spell, 2); // one screen, two instructions
    const v = await cells.data();
    const cab = v.subarray(0, GRID_CELLS);
    let top = 0;
    for (let c = 1; c < GRID_CELLS; c++) if (cab[c] > cab[top]) top = c;
    expect(top).toBe(Math.floor(30 / 4) * GRID_COLS + Math.floor(45 / 4));
    expect(cab[top]).toBeGreaterThan(Math.log(0.9));
    expect(Math.min(...cab)).toBeGreaterThanOrEqual(WORST_MATCH);
    expect(new Set(v.subarray(GRID_CELLS))).toEqual(new Set([0]));
    tf.dispose([logp, cells, spell.letters, spell.afterSpace]);
  });
});
