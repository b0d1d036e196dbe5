import { beforeAll, describe, expect, it } from 'vitest';
import * as tf from '../../src/models/tf';
import '@tensorflow/tfjs-backend-wasm';
import { GROUNDER_BETA, PLANNER_BETA, groupAdvantages, grpoLoss, type GrpoAggregation } from '../../src/learn/grpo';

beforeAll(async () => {
  await tf.setBackend('wasm');
  await tf.ready();
});

const ln = Math.log;

describe('group advantages', () => {
  it('match the hand-computed values, Bessel std + 1e-4; an equal group is zero and not informative', () => {
    // group 1: r = [1, 0, 0, 1], mean 0.5, sample var = (4 × 0.25) / 3 = 1/3, std = 0.5773503
    //   A = ±0.5 / (0.5773503 + 0.0001) = ±0.8658754
    // group 2: r = [0.5, 0.5, 0.5, 0.5] → all equal → A = 0, not informative
    const { advantages, informative, groups } = groupAdvantages([1, 0, 0, 1, 0.5, 0.5, 0.5, 0.5], 4);
    const a = 0.5 / (Math.sqrt(1 / 3) + 1e-4);
    expect(a).toBeCloseTo(0.8658754, 6);
    [a, -a, -a, a, 0, 0, 0, 0].forEach((x, i) => expect(advantages[i]).toBeCloseTo(x, 10));
    expect(informative).toBe(1);
    expect(groups).toBe(2);
  });

  it('refuses rewards that do not split into groups', () => {
    expect(() => groupAdvantages([1, 0, 1], 2)).toThrow(/groups of 2/);
  });

  it('exports the papers\' β', () => {
    expect(PLANNER_BETA).toBe(0.01);
    expect(GROUNDER_BETA).toBe(0.004);
  });
});

/**
 * The worked group: 4 completions of one token each (T = 1, as a grounder's
 * sampled point), all old and reference log-probs ln 0.5, advantages
 * [a, −a, −a, a] with a = 0.8658754 (the group [1, 0, 0, 1] above), ε = 0.2, β = 0.01.
 *
 *   i  p     ρ = p/0.5  A    clip(ρ)  −min(ρA, clip(ρ)A)      clip active   k3 with d = ln(0.5/p)
 *   0  0.75  1.5        +a   1.2      −min(1.5a, 1.2a) = −1.2a   yes (ρ>1.2, A>0)  2/3 + ln 1.5 − 1 = 0.0721318
 *   1  0.25  0.5        −a   0.8      −min(−0.5a, −0.8a) = 0.8a  yes (ρ<0.8, A<0)  2 − ln 2 − 1    = 0.3068528
 *   2  0.55  1.1        −a   1.1      −min(−1.1a, −1.1a) = 1.1a  no                0.5/0.55 + ln 1.1 − 1 = 0.0044012
 *   3  0.5   1.0        +a   1.0      −a                         no                0
 *
 *   policy mean = (−1.2 + 0.8 + 1.1 − 1.0)·a / 4 = −0.075a = −0.0649407
 *   KL mean     = (0.0721318 + 0.3068528 + 0.0044012 + 0) / 4 = 0.0958465
 *   loss        = −0.0649407 + 0.01 × 0.0958465 = −0.0639822
 *   clip fraction = 2 / 4 = 0.5
 */
describe('GRPO loss on the worked group', () => {
  const a = 0.5 / (Math.sqrt(1 / 3) + 1e-4);
  const p = [0.75, 0.25, 0.55, 0.5];
  const make = (adv: number[]) => ({
    logpOld: tf.tensor2d(p.map(() => [ln(0.5)])),
    logpRef: tf.tensor2d(p.map(() => [ln(0.5)])),
    advantages: tf.tensor1d(adv),
    mask: tf.ones([4, 1]) as tf.Tensor2D,
  });

  it('matches the hand-computed loss, KL and clip fraction', async () => {
    const before = tf.memory().numTensors;
    const c = make([a, -a, -a, a]);
    const logp = tf.tensor2d(p.map((x) => [ln(x)]));
    const out = grpoLoss({ ...c, logp }, { beta: 0.01 });
    expect(-0.075 * a).toBeCloseTo(-0.0649407, 6);
    expect((await out.kl.data())[0]).toBeCloseTo(0.0958465, 5);
    expect((await out.loss.data())[0]).toBeCloseTo(-0.075 * a + 0.01 * 0.0958465, 5);
    expect((await out.loss.data())[0]).toBeCloseTo(-0.0639822, 5);
    expect((await out.clipFraction.data())[0]).toBeCloseTo(0.5, 6);
    tf.dispose([out.loss, out.kl, out.clipFraction, logp, c.logpOld, c.logpRef, c.advantages, c.mask]);
    expect(tf.memory().numTensors).toBe(before);
  });

  it('has the hand-computed policy gradient: zero where the clip is active, −ρA/N elsewhere', async () => {
    // β = 0: d loss / d logp_i = −ρ_i A_i / 4 when unclipped, 0 when clipped
    //   i=0: 0; i=1: 0; i=2: −1.1·(−a)/4 = 0.275a = 0.2381157; i=3: −a/4 = −0.2164689
    const c = make([a, -a, -a, a]);
    const logp = tf.tensor2d(p.map((x) => [ln(x)]));
    const g = tf.grad((lp: tf.Tensor) => grpoLoss({ ...c, logp: lp as tf.Tensor2D }, { beta: 0 }).loss)(logp);
    const got = await g.data();
    [0, 0, 0.275 * a, -a / 4].forEach((x, i) => expect(got[i]).toBeCloseTo(x, 5));
    expect(0.275 * a).toBeCloseTo(0.2381157, 6);
    tf.dispose([g, logp, c.logpOld, c.logpRef, c.advantages, c.mask]);
  });

  it('an equal-reward group contributes no policy gradient: only the KL term remains', async () => {
    const { advantages } = groupAdvantages([0.5, 0.5, 0.5, 0.5], 4);
    const c = make(advantages);
    const logp = tf.tensor2d(p.map((x) => [ln(x)]));
    const grad = (beta: number) => tf.grad((lp: tf.Tensor) => grpoLoss({ ...c, logp: lp as tf.Tensor2D }, { beta }).loss)(logp);
    const policyOnly = await grad(0).data();
    expect(Array.from(policyOnly, Math.abs)).toEqual([0, 0, 0, 0]); // exactly zero (signs may be −0)
    // With β: d/d logp of β·k3 / N = β (1 − exp(logp_ref − logp)) / 4 = β (1 − 0.5/p) / 4
    const withKl = await grad(0.01).data();
    p.forEach((x, i) => expect(withKl[i]).toBeCloseTo((0.01 * (1 - 0.5 / x)) / 4, 7));
    tf.dispose([logp, c.logpOld, c.logpRef, c.advantages, c.mask]);
  });
});

describe('aggregations on a ragged mask', () => {
  // N = 2, T = 3, mask [[1,1,1],[1,0,0]], ρ = 1 everywhere, β = 0, so each
  // token's loss is −A: row 0 (A = 1) gives −1 on 3 tokens, row 1 (A = −2) gives +2 on 1 token.
  // The padded log-probs are finite junk (5) and must not matter.
  //   grpo    = mean(−3/3, 2/1)      = 0.5
  //   dapo    = (−3 + 2) / 4 tokens  = −0.25
  //   dr_grpo = (−3 + 2) / (2 × 3)   = −1/6;  with maxTokens 4: −1 / 8
  const cases: [GrpoAggregation, number | undefined, number][] = [
    ['grpo', undefined, 0.5],
    ['dapo', undefined, -0.25],
    ['dr_grpo', undefined, -1 / 6],
    ['dr_grpo', 4, -1 / 8],
  ];
  for (const [aggregation, maxTokens, want] of cases) {
    it(`${aggregation}${maxTokens ? ` (maxTokens ${maxTokens})` : ''} = ${want.toFixed(4)}`, async () => {
      const logp = tf.tensor2d([[-1, -2, -0.5], [-1.5, 5, 5]]);
      const logpOld = tf.clone(logp);
      const logpRef = tf.clone(logp);
      const advantages = tf.tensor1d([1, -2]);
      const mask = tf.tensor2d([[1, 1, 1], [1, 0, 0]]);
      const out = grpoLoss({ logp, logpOld, logpRef, advantages, mask }, { beta: 0, aggregation, maxTokens });
      expect((await out.loss.data())[0]).toBeCloseTo(want, 6);
      expect((await out.kl.data())[0]).toBeCloseTo(0, 7);
      tf.dispose([out.loss, out.kl, out.clipFraction, logp, logpOld, logpRef, advantages, mask]);
    });
  }
});

describe('GRPO loss shapes', () => {
  it('refuses inputs whose shapes differ instead of broadcasting them', () => {
    const logp = tf.zeros([2, 3]) as tf.Tensor2D;
    const mask = tf.ones([2, 1]) as tf.Tensor2D;
    const adv = tf.zeros([2]) as tf.Tensor1D;
    expect(() => grpoLoss({ logp, logpOld: logp, logpRef: logp, advantages: adv, mask }, { beta: 0 })).toThrow(/mask is \[2,1\]/);
    tf.dispose([logp, mask, adv]);
  });
});
