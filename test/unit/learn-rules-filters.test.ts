import { describe, expect, it } from 'vitest';
import { attentionKeep, boxCells } from '../../src/learn/attentionFilter';
import { curate, diversitySubset, misaligned, tooEasy, type CurationSample } from '../../src/learn/curation';
import { Random } from '../../src/learn/random';

// A 4×4 grid of 10-px cells; the box (0,0)-(20,20) holds the centres of cells 0, 1, 4, 5.
const box = { x: 0, y: 0, w: 20, h: 20 };
const map = (values: Record<number, number>, rest = 0) => Float32Array.from({ length: 16 }, (_, i) => values[i] ?? rest);

describe('attention filter (SE-GUI, τ = 0.2)', () => {
  it('finds the cells whose centre lies in the box, or the one under a tiny box\'s centre', () => {
    expect(boxCells(4, 4, 10, box)).toEqual([0, 1, 4, 5]);
    expect(boxCells(4, 4, 10, { x: 31, y: 31, w: 2, h: 2 })).toEqual([15]);
  });

  it('keeps a map that looks at the box', () => {
    // raw peak 0.5 in the box → normalised 1; cells 4, 5 hold 0.05 → 0.1, so box mean (1 + 0.2 + 0.1 + 0.1)/4 = 0.35; screen mean (0.5 + 0.1 + 14×0.05)/0.5/16 = 0.1625
    const v = attentionKeep(map({ 0: 0.5, 1: 0.1 }, 0.05), 4, 4, 10, box);
    expect(v.keep).toBe(true);
    expect(v.maxInBox).toBeCloseTo(1, 6);
    expect(v.meanInBox).toBeCloseTo(0.35, 6);
    expect(v.meanAll).toBeCloseTo(0.1625, 6);
    expect(v.reason).toMatch(/^kept/);
  });

  it('drops when no value in the box exceeds τ', () => {
    // box 0.15 everywhere, peak 1 elsewhere: max in box 0.15 ≤ 0.2 (its mean 0.15 > screen mean does not save it)
    const v = attentionKeep(map({ 0: 0.15, 1: 0.15, 4: 0.15, 5: 0.15, 15: 1 }), 4, 4, 10, box);
    expect(v.maxInBox).toBeCloseTo(0.15, 6);
    expect(v.meanInBox).toBeGreaterThan(v.meanAll);
    expect(v.keep).toBe(false);
    expect(v.reason).toMatch(/peak in box 0\.150 ≤ τ 0\.2/);
    // exactly τ does not exceed τ
    expect(attentionKeep(map({ 0: 0.2, 15: 1 }), 4, 4, 10, box).keep).toBe(false);
  });

  it('drops when the box mean does not exceed the screen mean, though the peak passes', () => {
    // box: one cell 0.3, three 0 → max 0.3 > τ but mean 0.075; screen: (0.3 + 1 + 11×0.5)/16 = 0.425
    const v = attentionKeep(map({ 0: 0.3, 1: 0, 4: 0, 5: 0, 15: 1 }, 0.5), 4, 4, 10, box);
    expect(v.maxInBox).toBeCloseTo(0.3, 6);
    expect(v.meanInBox).toBeCloseTo(0.075, 6);
    expect(v.meanAll).toBeCloseTo(0.425, 6);
    expect(v.keep).toBe(false);
    expect(v.reason).toMatch(/mean in box/);
    // a flat map: peak 1 > τ but box mean = screen mean, not above it
    expect(attentionKeep(map({}, 1), 4, 4, 10, box).keep).toBe(false);
  });
});

describe('curation filters', () => {
  it('too easy: drops only when all G samples hit', () => {
    expect(tooEasy([true, true, true])).toEqual({ decision: 'drop', reason: 'too easy: all 3 of 3 sampled points hit' });
    expect(tooEasy([true, false, true])).toEqual({ decision: 'keep', reason: '2 of 3 sampled points hit' });
  });

  it('misaligned: ambiguous, resolved elsewhere, or confidently grounded elsewhere', () => {
    const hit = { hit: true, confidence: 0.9 };
    const miss = { hit: false, confidence: 0.9 };
    const unsure = { hit: false, confidence: 0.1 };
    expect(misaligned({ votes: [hit], rule: { kind: 'ambiguous', ids: ['a', 'b'] } }).reason).toMatch(/ambiguous.*2 elements/);
    expect(misaligned({ votes: [hit], rule: { kind: 'none' } }).decision).toBe('drop');
    expect(misaligned({ votes: [hit], rule: { kind: 'element', id: 'b' }, targetId: 'a' }).reason).toMatch(/resolves it to b, not a/);
    expect(misaligned({ votes: [miss, { ...miss, name: 'φ2' }, hit] }).reason).toMatch(/2 confident verifier\(s\) ground it elsewhere \(verifier 0, φ2\) against 1/);
    expect(misaligned({ votes: [miss, hit] }).decision).toBe('keep'); // a tie is not "the pool says elsewhere"
    expect(misaligned({ votes: [unsure, unsure, hit] }).decision).toBe('keep'); // unconfident misses are no evidence
    expect(misaligned({ votes: [hit], rule: { kind: 'element', id: 'a' }, targetId: 'a' }).decision).toBe('keep');
    // The rule verifier resolving it to the target outweighs confident model misses: those are what distillation teaches.
    const taught = misaligned({ votes: [miss, { ...miss, name: 'φ2' }, hit], rule: { kind: 'element', id: 'a' }, targetId: 'a' });
    expect(taught).toEqual({ decision: 'keep', reason: 'aligned: the rule verifier resolves it to the target a' });
  });

  it('greedy k-centre picks one sample from each of three spread-out clusters', () => {
    // clusters near 0 (0, 1, 2), near 100 (3, 4), near 50 (5), on a line in 2-D
    const pts = [[0, 0], [0.1, 0], [0.2, 0.1], [100, 0], [100.1, 0], [50, 0.2]].map((p) => Float32Array.from(p));
    const cluster = [0, 0, 0, 1, 1, 2];
    for (const seed of [1, 2, 3, 4, 5]) {
      const { chosen, decisions } = diversitySubset(pts, 3, new Random(seed));
      expect(chosen).toHaveLength(3);
      expect(new Set(chosen.map((i) => cluster[i])).size).toBe(3);
      expect(decisions.filter((d) => d.decision === 'keep')).toHaveLength(3);
      for (let i = 0; i < pts.length; i++) {
        if (!chosen.includes(i)) expect(decisions[i].reason).toMatch(/^not diverse: 0\.\d+ from chosen sample \d/);
      }
    }
    expect(diversitySubset(pts, 3, new Random(7))).toEqual(diversitySubset(pts, 3, new Random(7)));
    expect(diversitySubset(pts, 10, new Random(1)).chosen).toHaveLength(6);
  });

  it('curate chains the three filters and records every decision', () => {
    const e = (x: number) => Float32Array.from([x, 0]);
    const samples: CurationSample[] = [
      { id: 'easy', hits: [true, true, true, true], embedding: e(0) },
      { id: 'ambiguous', hits: [true, false], verifiers: { votes: [], rule: { kind: 'ambiguous', ids: ['x', 'y'] } }, embedding: e(1) },
      { id: 'elsewhere', hits: [false, false], verifiers: { votes: [{ hit: false, confidence: 0.8 }] }, embedding: e(2) },
      { id: 'good', hits: [true, false], verifiers: { votes: [{ hit: true, confidence: 0.8 }] }, embedding: e(10) },
      { id: 'near-good', hits: [false, false], verifiers: { votes: [{ hit: true, confidence: 0.8 }] }, embedding: e(10.5) },
      { id: 'far', embedding: e(50) },
    ];
    const records = curate(samples, { k: 2, rng: new Random(3) });
    const by = Object.fromEntries(records.map((r) => [r.id, r]));
    expect(by.easy).toMatchObject({ kept: false, droppedBy: 'too-easy' });
    expect(by.easy.decisions).toHaveLength(1);
    expect(by.ambiguous).toMatchObject({ kept: false, droppedBy: 'misaligned' });
    expect(by.elsewhere).toMatchObject({ kept: false, droppedBy: 'misaligned' });
    expect(by.far.kept).toBe(true); // the far sample is always a k-centre pick among {good, near-good, far}
    expect(by.far.decisions.map((d) => d.decision.reason)).toEqual([
      'not checked: no sampled points',
      'not checked: no verifier evidence',
      expect.stringMatching(/^k-centre pick/),
    ]);
    // exactly one of the near-duplicates survives, and the other names it by id
    expect([by.good.kept, by['near-good'].kept].filter(Boolean)).toHaveLength(1);
    const dropped = by.good.kept ? by['near-good'] : by.good;
    expect(dropped.droppedBy).toBe('diversity');
    expect(dropped.decisions[2].decision.reason).toBe(`not diverse: 0.500 from chosen sample ${by.good.kept ? 'good' : 'near-good'}`);
    expect(records.every((r) => r.decisions.length >= 1)).toBe(true);
  });
});
