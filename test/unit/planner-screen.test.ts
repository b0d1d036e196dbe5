/**
 * Screening planner GRPO's prompts (learn/plannerScreen.ts): with the shipped
 * tiny planner, the states it is least sure of give groups of sampled
 * instructions that differ more often than the states it drops, which is what
 * screening is for (an all-alike group teaches GRPO nothing).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import * as tf from '../../src/models/tf';
import '@tensorflow/tfjs-backend-wasm';
import { importCheckpoint } from '../../src/models/checkpoint';
import { disposeParams } from '../../src/models/params';
import type { PlannerConfig } from '../../src/models/planner';
import { decodeStates } from '../../src/learn/evalPlanner';
import { leastSureStates } from '../../src/learn/plannerScreen';
import { trainingPlannerStates, type PlannerState } from '../../src/learn/plannerStates';
import { Random } from '../../src/learn/random';
import { defaultTokenizer } from '../../src/text/vocab';

beforeAll(async () => {
  await tf.setBackend('wasm');
  await tf.ready();
});

const tok = defaultTokenizer();

describe('leastSureStates', () => {
  it('keeps the states whose samples vary, in the candidates’ order', async () => {
    const { config, params } = importCheckpoint(readFileSync(join(__dirname, '../../public/base/tiny-planner.safetensors')));
    const cfg = config as PlannerConfig;
    try {
      const candidates = trainingPlannerStates(new Random(11), 80)
        .filter((s) => s.step.box !== undefined)
        .slice(0, 36);
      expect(candidates.length).toBe(36);
      const screened = await leastSureStates(params, cfg, tok, candidates, 12, { constrained: true });
      expect(screened.states).toHaveLength(12);
      const at = screened.states.map((s) => candidates.indexOf(s));
      expect(at).toEqual([...at].sort((a, b) => a - b));
      expect(screened.sureKept).toBeLessThan(screened.sureAll);

      const dropped = candidates.filter((s) => !screened.states.includes(s));
      const varied = async (states: PlannerState[]) => {
        const g = 7;
        const d = await decodeStates(params, cfg, tok, states, { temperature: 0.9, rng: new Random(5), repeat: g, batchSize: 28, constrained: true });
        let groups = 0;
        for (let i = 0; i < states.length; i++) if (new Set(d.slice(i * g, (i + 1) * g).map((x) => x.instruction)).size > 1) groups++;
        return groups / states.length;
      };
      const kept = await varied(screened.states);
      const rest = await varied(dropped);
      // Measured: 11 of 12 kept groups varied against 12 of 24 dropped (seeds as here).
      expect(kept).toBeGreaterThan(rest);

      // Asking for more than there are keeps them all; asking for none keeps none.
      expect((await leastSureStates(params, cfg, tok, candidates.slice(0, 3), 5)).states).toEqual(candidates.slice(0, 3));
      expect((await leastSureStates(params, cfg, tok, candidates.slice(0, 3), 0)).states).toEqual([]);
      await expect(leastSureStates(params, cfg, tok, candidates, -1)).rejects.toThrow('count must be a whole number');
    } finally {
      disposeParams(params);
    }
  }, 300_000);
});
