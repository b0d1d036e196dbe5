/**
 * Planner SFT, CoT-SFT, LoRA-SFT and GRPO steps: no tensor leak across 20
 * steps of each, and the same seed gives the same losses.
 *
 * The model is the tiny preset's network (dim, heads, layers) with short
 * prompt and completion buckets (P = 48, C = 16): leaks and determinism do
 * not depend on the sequence length, and short sequences keep 80+ steps
 * inside this file's time budget on the 2-core machine.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import * as tf from '../../src/models/tf';
import '@tensorflow/tfjs-backend-wasm';
import { Random } from '../../src/learn/random';
import { defaultTokenizer } from '../../src/text/vocab';
import { grounderPreset, plannerPreset } from '../../src/models/presets';
import { initPlanner, type PlannerConfig } from '../../src/models/planner';
import { initGrounder } from '../../src/models/grounder';
import { createLora, DEFAULT_LORA, disposeLora } from '../../src/models/lora';
import { disposeParams, snapshot } from '../../src/models/params';
import { makePlannerSft } from '../../src/learn/plannerSft';
import { makePlannerGrpo } from '../../src/learn/plannerGrpo';
import { plannerSftBatch, trainingPlannerStates, type PlannerState } from '../../src/learn/plannerStates';
import { neuralPoolGrounder, verifierGrounder, groundWithPool } from '../../src/learn/plannerGrounderPool';
import { evalPlanner } from '../../src/learn/evalPlanner';

beforeAll(async () => {
  await tf.setBackend('wasm');
  await tf.ready();
});

const tok = defaultTokenizer();
const cfg: PlannerConfig = { ...plannerPreset('tiny'), promptLength: 48, completionLength: 16 };
const states = trainingPlannerStates(new Random(21), 40);
const batchAt = (i: number, size: number, cot = false) => plannerSftBatch(tok, cfg, states.slice((i * size) % 32, ((i * size) % 32) + size), cot);
const pool = () => [verifierGrounder({ name: 'text reader', prior: 1, styles: ['text'] }), verifierGrounder({ name: 'verifier', prior: 2 })];

describe('planner training steps', () => {
  it('SFT, CoT-SFT, LoRA-SFT and GRPO: 20 steps each leak no tensor', async () => {
    expect(tf.getBackend()).toBe('wasm');
    const params = initPlanner(new Random(1), cfg);
    const start = tf.memory().numTensors;
    for (const variant of ['sft', 'cot'] as const) {
      const sft = makePlannerSft(params, cfg, { lr: 1e-3, clipNorm: 1 });
      await sft.step(batchAt(0, 4, variant === 'cot')); // Adam makes its slots on the first step
      const before = tf.memory().numTensors;
      for (let i = 1; i <= 20; i++) expect(Number.isFinite((await sft.step(batchAt(i, 4, variant === 'cot'))).loss)).toBe(true);
      expect(tf.memory().numTensors, variant).toBe(before);
      sft.dispose();
    }
    {
      const lora = createLora(new Random(2), params, DEFAULT_LORA);
      const base = await snapshot(params);
      const sft = makePlannerSft(params, cfg, { lr: 1e-3, lora });
      await sft.step(batchAt(0, 4));
      const before = tf.memory().numTensors;
      for (let i = 1; i <= 20; i++) await sft.step(batchAt(i, 4));
      expect(tf.memory().numTensors, 'lora').toBe(before);
      const after = await snapshot(params);
      for (const k of Object.keys(base)) expect(after[k], k).toEqual(base[k]); // only adapters trained
      const ev = await evalPlanner(params, cfg, tok, states.slice(0, 3), { lora });
      expect(ev.states).toBe(3);
      expect(tf.memory().numTensors, 'lora eval').toBe(before);
      sft.dispose();
      disposeLora(lora);
      for (const v of Object.values(params)) v.trainable = true;
    }
    {
      const grpo = makePlannerGrpo(params, cfg, tok, { lr: 1e-3, pool: pool(), rng: new Random(3) });
      await grpo.step(states.slice(0, 2));
      const before = tf.memory().numTensors;
      for (let i = 1; i <= 20; i++) {
        const r = await grpo.step(states.slice(2 * i, 2 * i + 2));
        expect(r.groups).toBe(2);
        expect(r.samples).toHaveLength(14);
        expect(Number.isFinite(r.loss) && Number.isFinite(r.kl)).toBe(true);
      }
      expect(tf.memory().numTensors, 'grpo').toBe(before);
      grpo.dispose();
    }
    // A neural pool member (untrained tiny grounder): grounding frees what it makes.
    const gcfg = grounderPreset('tiny');
    const gparams = initGrounder(new Random(4), gcfg);
    const neural = neuralPoolGrounder(gparams, gcfg, tok, { batchSize: 4 });
    const before = tf.memory().numTensors;
    const answers = await groundWithPool([neural, verifierGrounder()], states.slice(0, 5).map((s) => ({ screen: s.screen, instruction: s.instruction })));
    expect(tf.memory().numTensors, 'neural grounder').toBe(before);
    expect(answers).toHaveLength(5);
    for (const a of answers) {
      expect(a[0].prior).toBe(2);
      expect(a[0].confidence).toBeGreaterThan(0);
      expect(a[0].confidence).toBeLessThanOrEqual(1);
    }
    disposeParams(gparams);
    disposeParams(params);
    expect(tf.memory().numTensors).toBe(start - Object.keys(params).length);
  });

  it('same seed, same losses (SFT, CoT-SFT and GRPO); another seed differs', async () => {
    const run = async (seed: number) => {
      const params = initPlanner(new Random(seed), cfg);
      const sft = makePlannerSft(params, cfg, { lr: 2e-3, clipNorm: 1 });
      const losses: number[] = [];
      for (let i = 0; i < 3; i++) losses.push((await sft.step(batchAt(i, 4))).loss);
      for (let i = 0; i < 2; i++) losses.push((await sft.step(batchAt(i, 4, true))).loss);
      // An untrained planner's samples do not parse (reward 0, no advantage); a reference policy
      // other than the start makes the KL term, its gradient and so the update non-zero.
      const reference = initPlanner(new Random(seed + 50), cfg);
      const grpo = makePlannerGrpo(params, cfg, tok, { lr: 2e-3, pool: pool(), rng: new Random(seed + 100), reference, beta: 0.5 });
      const samples: string[] = [];
      for (let i = 0; i < 2; i++) {
        const r = await grpo.step(states.slice(2 * i, 2 * i + 2) as PlannerState[]);
        losses.push(r.loss, r.kl, r.meanReward);
        samples.push(...r.samples.map((s) => s.instruction));
      }
      sft.dispose();
      grpo.dispose();
      disposeParams(reference);
      disposeParams(params);
      return { losses, samples };
    };
    const a = await run(5);
    const b = await run(5);
    const c = await run(6);
    console.log('seed 5 losses:', a.losses.map((x) => x.toFixed(5)).join(' '));
    expect(a.losses).toEqual(b.losses);
    expect(a.samples).toEqual(b.samples);
    expect(a.losses.slice(5).filter((_, i) => i % 3 !== 2).every((x) => x > 0)).toBe(true); // GRPO loss and KL
    expect(c.losses).not.toEqual(a.losses);
  });
});
