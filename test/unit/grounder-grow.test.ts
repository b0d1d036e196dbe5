/**
 * growGrounder (models/growGrounder.ts): the shipped tiny grounder grown into
 * the demo preset's shape (twice as wide, one region block deeper) gives the
 * same heat map and offsets on world screens of every style, glyph reader
 * and spelled match included; the copies of a unit carry unequal weights;
 * shapes it cannot grow into are refused with the reason.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import * as tf from '../../src/models/tf';
import '@tensorflow/tfjs-backend-wasm';
import { importCheckpoint } from '../../src/models/checkpoint';
import { grounderForward, type GrounderConfig } from '../../src/models/grounder';
import { grounderExampleBatch, grounderTensors } from '../../src/models/grounderData';
import { growGrounder, grounderGrowthProblem } from '../../src/models/growGrounder';
import { disposeParams } from '../../src/models/params';
import { grounderPreset } from '../../src/models/presets';
import { Random } from '../../src/learn/random';
import { unequalCopies } from './grow-fixtures';
import { defaultTokenizer } from '../../src/text/vocab';

beforeAll(async () => {
  await tf.setBackend('wasm');
  await tf.ready();
});

const tok = defaultTokenizer();

describe('growGrounder', () => {
  it('keeps the shipped tiny grounder’s heat map in the demo shape', () => {
    const { config, params } = importCheckpoint(readFileSync(join(__dirname, '../../public/base/tiny-grounder.safetensors')));
    const small = config as GrounderConfig;
    const big = grounderPreset('demo', tok.size);
    expect(grounderGrowthProblem(small, big)).toBeNull();
    const grown = growGrounder(params, small, big, new Random(3));
    try {
      expect(grown['text.tok'].shape).toEqual([big.vocabSize, big.dim]);
      expect(Object.keys(grown).filter((k) => k.startsWith(`blocks.${big.layers - 1}.`)).length).toBeGreaterThan(0);
      const inputs = grounderTensors(grounderExampleBatch(tok, small, 6, 4), small);
      const [a, b] = [grounderForward(params, small, inputs), grounderForward(grown, big, inputs)];
      const valid = inputs.valid.arraySync() as number[][];
      const [la, lb] = [a.logits.arraySync() as number[][], b.logits.arraySync() as number[][]];
      let worst = 0;
      for (let r = 0; r < la.length; r++) for (let c = 0; c < la[r].length; c++) if (valid[r][c] > 0) worst = Math.max(worst, Math.abs(la[r][c] - lb[r][c]));
      expect(worst).toBeLessThan(1e-3);
      // Not a heat map that ignores the screen: each row's logits spread over several nats.
      for (const row of la) expect(Math.max(...row) - Math.min(...row.filter((v) => v > -1e6))).toBeGreaterThan(1);
      expect(tf.max(tf.abs(tf.sub(a.offsets, b.offsets))).dataSync()[0]).toBeLessThan(1e-3);
      expect(tf.argMax(b.logits, 1).arraySync()).toEqual(tf.argMax(a.logits, 1).arraySync());

      // The two copies of an input unit share its weights unequally.
      expect(unequalCopies(grown['head.k.w'], small.dim)).toBeGreaterThan(0.9 * small.dim * big.dim);
      tf.dispose([a, b, inputs.images, inputs.tokens, inputs.chars, inputs.valid]);
    } finally {
      disposeParams(params);
      disposeParams(grown);
    }
  });

  it('refuses shapes it cannot grow into, saying why', () => {
    const small = grounderPreset('tiny', tok.size);
    expect(grounderGrowthProblem(small, { ...small, dim: 48, heads: 3 })).toMatch(/whole multiple/);
    expect(grounderGrowthProblem(small, { ...small, dim: 64, heads: 2 })).toMatch(/head sizes differ/);
    expect(grounderGrowthProblem(small, { ...small, layers: 0 })).toMatch(/cannot hold/);
    expect(grounderGrowthProblem(small, grounderPreset('full', tok.size))).toMatch(/maxTokens/);
    expect(() => growGrounder({}, small, { ...small, layers: 0 }, new Random(1))).toThrow(/cannot grow into a 32-wide one: .*cannot hold/);
  });
});
