import { describe, expect, it } from 'vitest';
import { densePointReward, planReward, planWeights, tokenF1, type Grounding, type PlanTruth } from '../../src/learn/rewards';
import { printInstruction } from '../../src/text/grammar';

describe('dense point reward (SE-GUI)', () => {
  // Box (400,400)-(600,600) on a 1000×1000 screen: normalised centre c = (0.5, 0.5);
  // d_max = distance from c to the farthest corner = √(0.5² + 0.5²) = 0.7071, d_max² = 0.5.
  // The acceptance numbers 2.0 / 1.98 / 0.82 are R_point (= base + decay, in [0, 2]);
  // the total with format is R = 1·1 + 2·R_point = 5.0 / 4.96 / 2.64.
  const box = { x: 400, y: 400, w: 200, h: 200 };
  const screen = { width: 1000, height: 1000 };

  it('(500,500), the centre: d = 0, base 1, decay 1 → R_point 2.0, total 5.0', () => {
    const r = densePointReward({ x: 500, y: 500 }, box, screen);
    expect(r).toEqual({ format: 1, base: 1, decay: 1, point: 2, total: 5 });
  });

  it('(600,500), on the box edge: d = 0.1, decay = 1 − 0.01/0.5 = 0.98, base 1 → R_point 1.98, total 4.96', () => {
    const r = densePointReward({ x: 600, y: 500 }, box, screen);
    expect(r.base).toBe(1);
    expect(r.decay).toBeCloseTo(0.98, 12);
    expect(r.point).toBeCloseTo(1.98, 12);
    expect(r.total).toBeCloseTo(4.96, 12);
  });

  it('(800,500), outside: d = 0.3, decay = 1 − 0.09/0.5 = 0.82, base 0 → R_point 0.82, total 2.64', () => {
    const r = densePointReward({ x: 800, y: 500 }, box, screen);
    expect(r.base).toBe(0);
    expect(r.point).toBeCloseTo(0.82, 12);
    expect(r.total).toBeCloseTo(2.64, 12);
  });

  it('normalises by the screen: d_max is to the farthest corner of a non-square screen', () => {
    // Screen 200×100, box (0,0)-(20,10): c = (0.05, 0.05) normalised, farthest corner (1,1):
    // d_max² = 0.95² + 0.95² = 1.805; point (110, 50) → (0.55, 0.5): d² = 0.25 + 0.2025 = 0.4525
    const r = densePointReward({ x: 110, y: 50 }, { x: 0, y: 0, w: 20, h: 10 }, { width: 200, height: 100 });
    expect(r.point).toBeCloseTo(1 - 0.4525 / 1.805, 12);
  });

  it('sparse keeps only hit-or-miss; a malformed output earns nothing', () => {
    expect(densePointReward({ x: 600, y: 500 }, box, screen, { sparse: true })).toMatchObject({ point: 1, total: 3 });
    expect(densePointReward({ x: 800, y: 500 }, box, screen, { sparse: true })).toMatchObject({ point: 0, total: 1 });
    expect(densePointReward({ x: 500, y: 500 }, box, screen, { formatOk: false }).total).toBe(0);
  });
});

describe('token F1', () => {
  it('is the multiset overlap F1 over lower-case words', () => {
    // "Lunch on Friday" vs "lunch friday": 2 common; P = 2/3, R = 1 → F1 = 0.8
    expect(tokenF1('Lunch on Friday', 'lunch friday')).toBeCloseTo(0.8, 12);
    expect(tokenF1('a a b', 'a b b')).toBeCloseTo(2 / 3, 12);
    expect(tokenF1('', '')).toBe(1);
    expect(tokenF1('x', '')).toBe(0);
  });
});

describe('plan reward (C-DREM)', () => {
  const box = { x: 10, y: 10, w: 40, h: 20 };
  const inBox = { x: 30, y: 20 };
  const outside = { x: 100, y: 100 };
  const typeTruth: PlanTruth = { type: 'TYPE', box, value: 'Lunch on Friday' };
  const typeText = (value: string) => printInstruction({ action: 'TYPE', ref: { style: 'text', text: 'Subject' }, value, phrasing: 0 });
  // Two grounders with priors σ = 1 : 2 (a frozen one and the current one).
  const pool = (hit0: boolean, hit1: boolean): Grounding[] => [
    { point: hit0 ? inBox : outside, confidence: 0.9, prior: 1 },
    { point: hit1 ? inBox : outside, confidence: 0.4, prior: 2 },
  ];

  it('an unparseable instruction gets 0', () => {
    const r = planReward('blorp the frobnicator', typeTruth, pool(true, true));
    expect(r.parsed).toBeNull();
    expect(r.total).toBe(0);
  });

  it('a wrong action type gets 0 even when every grounder hits', () => {
    const click = printInstruction({ action: 'CLICK', ref: { style: 'text', text: 'Subject' }, phrasing: 0 });
    const r = planReward(click, typeTruth, pool(true, true));
    expect(r).toMatchObject({ rType: 0, rValue: 1, total: 0 });
    expect(r.rPlan).toBeCloseTo(1, 12); // both hit: Σ w = 1 up to rounding
  });

  it('a wrong value gets 0; the value needs token-F1 strictly above 0.5', () => {
    expect(planReward(typeText('Dinner'), typeTruth, pool(true, true))).toMatchObject({ rType: 1, rValue: 0, total: 0 });
    // "Lunch" vs "Lunch on Friday": P = 1, R = 1/3 → F1 = 0.5, not > 0.5
    expect(planReward(typeText('Lunch'), typeTruth, pool(true, true)).rValue).toBe(0);
    // "Lunch Friday": F1 = 0.8 > 0.5
    const ok = planReward(typeText('Lunch Friday'), typeTruth, pool(true, true));
    expect(ok.rValue).toBe(1);
    expect(ok.total).toBeCloseTo(1, 12);
  });

  it('weights two grounders by softmax(σ·c), priors 1 : 2', () => {
    // σ·c = [1 × 0.9, 2 × 0.4] = [0.9, 0.8]; w = softmax = [1/(1+e^−0.1), 1/(1+e^0.1)] = [0.5249792, 0.4750208]
    const onlyFirst = planReward(typeText('Lunch on Friday'), typeTruth, pool(true, false));
    expect(onlyFirst.hits).toEqual([1, 0]);
    expect(onlyFirst.weights[0]).toBeCloseTo(0.5249792, 7);
    expect(onlyFirst.total).toBeCloseTo(0.5249792, 7);
    const onlySecond = planReward(typeText('Lunch on Friday'), typeTruth, pool(false, true));
    expect(onlySecond.total).toBeCloseTo(0.4750208, 7);
    expect(planReward(typeText('Lunch on Friday'), typeTruth, pool(false, false)).total).toBe(0);
  });

  it('offers the paper\'s ablation weightings', () => {
    const g = pool(true, false);
    // prior only: softmax([1, 2]) = [1/(1+e), e/(1+e)] = [0.2689414, 0.7310586]
    expect(planWeights(g, { weighting: 'prior' })[0]).toBeCloseTo(0.2689414, 7);
    expect(planWeights(g, { weighting: 'uniform' })).toEqual([0.5, 0.5]);
    // single grounder: the last (current) one by default
    expect(planWeights(g, { weighting: 'single' })).toEqual([0, 1]);
    const text = typeText('Lunch on Friday');
    expect(planReward(text, typeTruth, g, { weighting: 'single' }).total).toBe(0);
    expect(planReward(text, typeTruth, g, { weighting: 'single', single: 0 }).total).toBe(1);
  });

  it('a grounder without a point misses', () => {
    const g: Grounding[] = [{ point: null, confidence: 1, prior: 1 }];
    expect(planReward(typeText('Lunch on Friday'), typeTruth, g).hits).toEqual([0]);
  });

  it('actions without a target score r_type · r_value', () => {
    const down = printInstruction({ action: 'SCROLL', direction: 'down', phrasing: 0 });
    const up = printInstruction({ action: 'SCROLL', direction: 'up', phrasing: 0 });
    const back = printInstruction({ action: 'BACK', phrasing: 0 });
    expect(planReward(down, { type: 'SCROLL', value: 'down' }, []).total).toBe(1);
    expect(planReward(up, { type: 'SCROLL', value: 'down' }, []).total).toBe(0);
    expect(planReward(back, { type: 'BACK' }, []).total).toBe(1);
    expect(planReward(back, { type: 'DONE' }, []).total).toBe(0);
  });
});
