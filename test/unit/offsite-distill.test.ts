/**
 * Harmonizers distilled to the full model (src/offsite/distill.ts), on the
 * shipped tiny base planner: the distance is zero between a model and itself
 * and grows when a unit is dropped; harmonizers trained on it bring the
 * mixed model's hidden states closer to M's on states they never trained
 * on, closer than harmonizers trained on the task loss; the importance
 * scores are still rewarded by the task loss alone.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as tf from '../../src/models/tf';
import type { PlannerConfig } from '../../src/models/planner';
import { disposeParams, type ParamMap, type Params } from '../../src/models/params';
import { plannerExampleBatch, plannerTensors, type PlannerBatch } from '../../src/models/plannerData';
import { plannerSftLoss } from '../../src/learn/plannerSft';
import { defaultTokenizer } from '../../src/text/vocab';
import { Random } from '../../src/learn/random';
import { klOverLast, plannerDistillLoss } from '../../src/offsite/distill';
import { initHarmonizers } from '../../src/offsite/harmonizers';
import { dynamicLayerReplace } from '../../src/offsite/layerReplace';
import { mixedParams } from '../../src/offsite/mixed';
import { plannerUnits, sandwich } from '../../src/offsite/units';
import { shippedTinyPlanner } from './shipped-planner';

const tok = defaultTokenizer();
let full: Params;
let cfg: PlannerConfig;

beforeAll(async () => {
  ({ params: full, cfg } = await shippedTinyPlanner());
});

afterAll(() => disposeParams(full));

const read = (t: tf.Tensor) => {
  const v = t.dataSync()[0];
  t.dispose();
  return v;
};

describe('distillation to the full model', () => {
  it('measures KL(teacher ‖ student) over the last axis', () => {
    const t = tf.tensor2d([[1, 2, 3], [0, 0, 0]]);
    const s = tf.tensor2d([[1, 2, 3], [2, 0, 0]]);
    const kl = klOverLast(t, s).arraySync() as number[];
    expect(kl[0]).toBeCloseTo(0, 6);
    // Uniform teacher against softmax(2, 0, 0): Σ (1/3)·(log(1/3) − log q_i).
    const z = Math.exp(2) + 2;
    const want = (1 / 3) * (3 * Math.log(1 / 3) - (Math.log(Math.exp(2) / z) + 2 * Math.log(1 / z)));
    expect(kl[1]).toBeCloseTo(want, 5);
    tf.dispose([t, s]);
  });

  it('is zero between M and itself and grows when a middle unit is dropped', async () => {
    const distill = plannerDistillLoss(cfg);
    const batch = plannerExampleBatch(tok, cfg, 4, 5);
    expect(read(distill(full, full, batch))).toBeCloseTo(0, 5);
    const units = plannerUnits(cfg);
    const middle = sandwich(units).middle;
    const identity = initHarmonizers(new Random(1), cfg.dim, middle);
    const dropped = mixedParams(full, units, identity, new Set([middle[1].index]));
    expect(read(distill(dropped, full, batch))).toBeGreaterThan(0.05);
    disposeParams(identity);
  });

  it('trains harmonizers that bring the mixed model closer to M on states they never saw, closer than the task loss does', async () => {
    const distill = plannerDistillLoss(cfg);
    const task = (p: ParamMap, b: PlannerBatch) => tf.tidy(() => {
      const { prompt, completion, copy } = plannerTensors(b, cfg);
      return plannerSftLoss(p, cfg, prompt, completion, copy);
    });
    const units = plannerUnits(cfg);
    const middle = sandwich(units).middle;
    const heldOut: PlannerBatch = plannerExampleBatch(tok, cfg, 8, 900);
    // Each middle unit replaced in turn (α 0.5 of two units), on held-apart states.
    const distanceOf = (harm: Params) => middle.map((u) => read(distill(mixedParams(full, units, harm, new Set([u.index])), full, heldOut)));
    const train = async (trainLossOf: (p: ParamMap, b: PlannerBatch) => tf.Scalar) => {
      const harm = initHarmonizers(new Random(4), cfg.dim, middle);
      const scored: number[] = [];
      await dynamicLayerReplace({
        rng: new Random(5),
        full,
        units,
        middle,
        harmonizers: harm,
        // What scores the masks: counted, to show that no training step goes through it.
        lossOf: (p: ParamMap, b: PlannerBatch) => {
          scored.push(b.examples.length);
          return task(p, b);
        },
        trainLossOf,
        trainBatch: (step) => plannerExampleBatch(tok, cfg, 8, 100 + step),
        validationBatch: plannerExampleBatch(tok, cfg, 4, 99),
        steps: 16,
        alpha: 0.5,
        groupSize: 2,
        rlEvery: 8,
        candidates: 2,
        lr: 1e-2,
        scoreLr: 2,
      });
      // Two RL updates of two candidates each, on the 4-state validation batch.
      expect(scored).toEqual([4, 4, 4, 4]);
      const d = distanceOf(harm);
      disposeParams(harm);
      return d;
    };
    const identity = initHarmonizers(new Random(4), cfg.dim, middle);
    const before = distanceOf(identity);
    disposeParams(identity);
    const distilled = await train((p, b) => distill(p, full, b));
    const taskOnly = await train(task);
    // Measured (mean squared hidden difference per dimension): identity 5.95 and 0.72, distilled 5.42 and 0.62,
    // task loss 5.89 and 0.74 for blocks.0.mlp and blocks.1.attn.
    distilled.forEach((d, i) => {
      expect(d).toBeLessThan(0.95 * before[i]);
      expect(d).toBeLessThan(taskOnly[i]);
    });
  });
});
