/**
 * Dynamic LayerReplace's choices (src/offsite/layerReplace.ts), on plain
 * numbers: the REINFORCE step, mask sampling in groups, the final α cut,
 * and Offsite-Tuning's uniform drop.
 */
import { describe, expect, it } from 'vitest';
import { Random } from '../../src/learn/random';
import { leastImportant, reinforce, replacedCount, sampleMask, uniformDrop } from '../../src/offsite/layerReplace';
import { plannerUnits, sandwich } from '../../src/offsite/units';
import { plannerPreset } from '../../src/models/presets';

const cfgOf = (layers: number) => ({ ...plannerPreset('tiny', 100), layers });

describe('units', () => {
  it('counts attention and MLP sub-blocks; the first and last are the adapters', () => {
    const units = plannerUnits(cfgOf(2));
    expect(units.map((u) => u.id)).toEqual(['blocks.0.attn', 'blocks.0.mlp', 'blocks.1.attn', 'blocks.1.mlp']);
    const { adapters, middle } = sandwich(units);
    expect(adapters.map((u) => u.id)).toEqual(['blocks.0.attn', 'blocks.1.mlp']);
    expect(middle.map((u) => u.id)).toEqual(['blocks.0.mlp', 'blocks.1.attn']);
    expect(units[2].projections).toEqual(['blocks.1.attn.q.w', 'blocks.1.attn.k.w', 'blocks.1.attn.v.w', 'blocks.1.attn.o.w']);
  });
});

describe('the REINFORCE step', () => {
  const middle = sandwich(plannerUnits(cfgOf(3))).middle; // 4 units: 1, 2, 3, 4
  it('raises the scores of units kept by masks with lower loss, lowers the others, sums to zero', () => {
    const a = middle[0].index;
    const b = middle[1].index;
    // Replacing a costs loss; replacing b does not.
    const masks = [new Set([a]), new Set([b])];
    const next = reinforce([0, 0, 0, 0], middle, masks, [2.0, 1.0], 1);
    expect(next[0]).toBeGreaterThan(0); // a kept in the better mask
    expect(next[1]).toBeLessThan(0);
    expect(next[2]).toBeCloseTo(0, 12); // kept by both: rewards cancel around the mean
    // Two candidates: standardised rewards are −1 and +1.
    expect(next[0]).toBeCloseTo(1, 12);
  });

  it('moves the scores by how the masks rank, not by the level of the loss', () => {
    const masks = middle.map((u) => new Set([u.index]));
    const losses = [1.2, 1.25, 1.1, 1.3];
    const low = reinforce([0, 0, 0, 0], middle, masks, losses, 0.5);
    const high = reinforce([0, 0, 0, 0], middle, masks, losses.map((l) => l + 4), 0.5);
    high.forEach((s, i) => expect(s).toBeCloseTo(low[i], 9));
    // Replacing the third unit costs least, so it is kept least often by the better masks: lowest score.
    expect(low.indexOf(Math.min(...low))).toBe(2);
    expect(Math.max(...low.map(Math.abs))).toBeGreaterThan(0.1);
  });

  it('moves nothing when every candidate scores alike', () => {
    const masks = [new Set([middle[0].index]), new Set([middle[1].index])];
    expect(reinforce([0.5, -0.5, 0, 0], middle, masks, [5.3, 5.3], 0.5)).toEqual([0.5, -0.5, 0, 0]);
  });

  it('over sampled masks, the unit whose replacement hurts most ends with the highest score and is kept at α', () => {
    const rng = new Random(1);
    let scores = middle.map(() => 0);
    // A made-up loss: replacing unit 2 (middle[1]) costs 1.5 nats, the others 0.1 each.
    const cost = new Map(middle.map((u, i) => [u.index, i === 1 ? 1.5 : 0.1]));
    const lossOf = (m: ReadonlySet<number>) => 1 + [...m].reduce((s, i) => s + (cost.get(i) ?? 0), 0);
    for (let it = 0; it < 40; it++) {
      const masks = Array.from({ length: 4 }, () => sampleMask(rng, middle, scores, 2, 0.5));
      for (const m of masks) expect(m.size).toBe(2); // one of each group of two
      scores = reinforce(scores, middle, masks, masks.map(lossOf), 2);
    }
    expect(scores[1]).toBe(Math.max(...scores));
    expect(scores[1]).toBeGreaterThan(scores[0] + 0.5);
    const replaced = leastImportant(middle, scores, 0.5);
    expect(replaced.size).toBe(2);
    expect(replaced.has(middle[1].index)).toBe(false);
  });
});

describe('mask groups', () => {
  const middle = sandwich(plannerUnits(cfgOf(3))).middle; // 4 units
  // Made-up costs of replacing each unit: the first essential, the second costly, the last two nearly free.
  const cost = [1.5, 0.3, 0.05, 0.01];
  const learn = (groupSize: number) => {
    const rng = new Random(3);
    let scores = middle.map(() => 0);
    const lossOf = (m: ReadonlySet<number>) => 1 + middle.reduce((s, u, i) => s + (m.has(u.index) ? cost[i] : 0), 0);
    for (let it = 0; it < 60; it++) {
      const masks = Array.from({ length: 4 }, () => sampleMask(rng, middle, scores, groupSize, 0.5));
      scores = reinforce(scores, middle, masks, masks.map(lossOf), 2);
    }
    return [...leastImportant(middle, scores, 0.25)].map((i) => middle.findIndex((u) => u.index === i));
  };

  it('in pairs, a unit is scored only against its pair, so the cut across groups can drop a costly one', () => {
    // The second unit is always compared with the essential first and ends lowest, though the fourth costs a thirtieth of it.
    expect(learn(2)).toEqual([1]);
  });

  it('in one group of all middle units, the cheapest to replace is the one replaced', () => {
    expect(learn(4)).toEqual([3]);
  });
});

describe('emulator sizes', () => {
  it('replaces round(α·n) middle units, never all of them', () => {
    expect(replacedCount(0.5, 2)).toBe(1);
    expect(replacedCount(0.5, 4)).toBe(2);
    expect(replacedCount(0.75, 4)).toBe(3);
    expect(replacedCount(0.9, 2)).toBe(1);
    expect(replacedCount(0, 4)).toBe(0);
  });

  it('uniform drop keeps every k-th middle unit', () => {
    const middle = sandwich(plannerUnits(cfgOf(5))).middle; // 8 units: 1 … 8
    const kept = (alpha: number) => middle.filter((u) => !uniformDrop(middle, alpha).has(u.index)).map((u) => u.index);
    expect(kept(0.5)).toEqual([1, 3, 5, 7]); // k = 2: positions 0, 2, 4, 6
    expect(kept(0.75)).toEqual([1, 5]); // k = 4
    expect(kept(0)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    const two = sandwich(plannerUnits(cfgOf(2))).middle;
    expect([...uniformDrop(two, 0.5)]).toEqual([2]); // tiny: keeps blocks.0.mlp, replaces blocks.1.attn
  });
});
