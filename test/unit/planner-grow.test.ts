/**
 * growPlanner (models/growPlanner.ts): the shipped tiny planner grown into
 * the demo preset's shape (twice as wide, one block deeper) gives the same
 * log-probs, copy gate included, and the same greedy instructions; the
 * copies of a unit do not carry equal weights (else training could never
 * tell them apart); shapes it cannot grow into are refused with the reason.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import * as tf from '../../src/models/tf';
import '@tensorflow/tfjs-backend-wasm';
import { importCheckpoint } from '../../src/models/checkpoint';
import { growPlanner, growthProblem } from '../../src/models/growPlanner';
import { plannerLogProbs, type PlannerConfig } from '../../src/models/planner';
import { plannerDecode } from '../../src/models/plannerDecode';
import { plannerExampleBatch, plannerTensors } from '../../src/models/plannerData';
import { disposeParams } from '../../src/models/params';
import { plannerPreset } from '../../src/models/presets';
import { Random } from '../../src/learn/random';
import { unequalCopies } from './grow-fixtures';
import { defaultTokenizer } from '../../src/text/vocab';

beforeAll(async () => {
  await tf.setBackend('wasm');
  await tf.ready();
});

const tok = defaultTokenizer();

describe('growPlanner', () => {
  it('keeps the shipped tiny planner’s function in the demo shape', async () => {
    const { config, params } = importCheckpoint(readFileSync(join(__dirname, '../../public/base/tiny-planner.safetensors')));
    const small = config as PlannerConfig;
    const big = plannerPreset('demo', tok.size);
    expect(growthProblem(small, big)).toBeNull();
    const grown = growPlanner(params, small, big, new Random(3));
    try {
      expect(grown['tok'].shape).toEqual([big.vocabSize, big.dim]);
      expect(Object.keys(grown).filter((k) => k.startsWith(`blocks.${big.layers - 1}.`)).length).toBeGreaterThan(0);
      const batch = plannerExampleBatch(tok, small, 6, 5);
      const t = plannerTensors(batch, small);
      const [a, b] = [plannerLogProbs(params, small, t.prompt, t.completion, undefined, t.copy), plannerLogProbs(grown, big, t.prompt, t.completion, undefined, t.copy)];
      const diff = tf.max(tf.abs(tf.sub(a, b))).dataSync()[0];
      expect(diff).toBeLessThan(1e-3);
      // Not a model that ignores its input: the log-probs spread over several nats.
      expect(tf.max(a).dataSync()[0] - tf.min(a).dataSync()[0]).toBeGreaterThan(1);
      const [ga, gb] = [await plannerDecode(params, small, t.prompt, { temperature: 0 }), await plannerDecode(grown, big, t.prompt, { temperature: 0 })];
      expect(gb.tokens).toEqual(ga.tokens);
      tf.dispose([a, b, t.prompt, t.completion, ...(t.copy ? [t.copy] : [])]);

      // The two copies of an input unit share its weights unequally.
      expect(unequalCopies(grown['blocks.0.attn.q.w'], small.dim)).toBeGreaterThan(0.9 * small.dim * big.dim);
    } finally {
      disposeParams(params);
      disposeParams(grown);
    }
  });

  it('refuses shapes it cannot grow into, saying why', () => {
    const small = plannerPreset('tiny', tok.size);
    expect(growthProblem(small, { ...small, dim: 72, heads: 3 })).toMatch(/whole multiple/);
    expect(growthProblem(small, { ...small, dim: 96, heads: 2 })).toMatch(/head sizes differ/);
    expect(growthProblem(small, { ...small, layers: 1 })).toMatch(/cannot hold/);
    expect(growthProblem(small, { ...small, vocabSize: small.vocabSize + 1 })).toMatch(/vocabSize/);
    expect(() => growPlanner({}, small, { ...small, layers: 1 }, new Random(1))).toThrow(/cannot grow into a 48-wide, 1-layer one/);
  });
});
