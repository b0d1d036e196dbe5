/**
 * The shared interval arithmetic against values computed by hand or quoted
 * from the literature: Wilson (textbook), Newcombe's method 10 (his 1998
 * worked examples, independent and paired), the t-interval of three seeds, and the t table's tail.
 */
import { describe, expect, it } from 'vitest';
import { meanInterval, pairedRateDifference, rateDifference, sign, t95, wilson, wilsonOfRate } from '../../src/learn/stats';
import { Random } from '../../src/learn/random';

describe('interval arithmetic', () => {
  it('Wilson 95% intervals: 0/10, 5/10, 80/100', () => {
    const a = wilson(0, 10);
    expect(a.low).toBe(0);
    expect(a.high).toBeCloseTo(0.2775, 3);
    const b = wilson(5, 10);
    expect(b.low).toBeCloseTo(0.2366, 3);
    expect(b.high).toBeCloseTo(0.7634, 3);
    const c = wilson(80, 100);
    expect(c.low).toBeCloseTo(0.7111, 3);
    expect(c.high).toBeCloseTo(0.8666, 3);
    expect(wilson(0, 0)).toEqual({ low: 0, high: 1 });
    // A rate given as a fraction is rounded back to its count: 0.1875 of 32 is 6 of 32.
    expect(wilsonOfRate(0.1875, 32)).toEqual(wilson(6, 32));
  });

  it("Newcombe's hybrid score interval: 56/70 − 48/80 is 0.2 [0.0524, 0.3339] (his example)", () => {
    const d = rateDifference(48 / 80, 80, 56 / 70, 70);
    expect(d.low).toBeCloseTo(0.0524, 4);
    expect(d.high).toBeCloseTo(0.3339, 4);
    // Swapping the two flips the sign.
    const r = rateDifference(56 / 70, 70, 48 / 80, 80);
    expect(r.low).toBeCloseTo(-0.3339, 4);
    expect(r.high).toBeCloseTo(-0.0524, 4);
  });

  /** Items measured twice, from the paired 2×2 table: both hit, only B, only A, neither. */
  const pairs = (both: number, onlyB: number, onlyA: number, neither: number) => {
    const a: boolean[] = [];
    const b: boolean[] = [];
    const put = (k: number, x: boolean, y: boolean) => {
      for (let i = 0; i < k; i++) (a.push(x), b.push(y));
    };
    put(both, true, true);
    put(onlyB, false, true);
    put(onlyA, true, false);
    put(neither, false, false);
    return { a, b };
  };

  it("Newcombe's paired interval: 36 both, 12 and 2 discordant, 0 neither is 0.2 [0.0569, 0.3404] (his example)", () => {
    const { a, b } = pairs(36, 12, 2, 0);
    const d = pairedRateDifference(a, b);
    expect(d.low).toBeCloseTo(0.0569, 4);
    expect(d.high).toBeCloseTo(0.3404, 4);
    const r = pairedRateDifference(b, a);
    expect(r.low).toBeCloseTo(-0.3404, 4);
    expect(r.high).toBeCloseTo(-0.0569, 4);
    // Uncorrelated pairs (φ = 0) give the independent samples' interval.
    const z = pairs(10, 10, 10, 10);
    expect(pairedRateDifference(z.a, z.b)).toEqual(rateDifference(0.5, 40, 0.5, 40));
    expect(() => pairedRateDifference([true], [true, false])).toThrow(/no pairs/);
  });

  it('the paired interval covers a true difference about 95% of the time, and is narrower than the unpaired one when the two agree', () => {
    // Two models that agree on most items: A hits with 0.45, B with 0.50, discordant on 11% of items.
    const rng = new Random(5);
    const n = 200;
    let covered = 0;
    let pairedWidth = 0;
    let unpairedWidth = 0;
    const runs = 2000;
    for (let r = 0; r < runs; r++) {
      const a: boolean[] = [];
      const b: boolean[] = [];
      for (let i = 0; i < n; i++) {
        const u = rng.next();
        // P(both) 0.42, P(only B) 0.08, P(only A) 0.03, P(neither) 0.47: rates 0.45 and 0.50.
        a.push(u < 0.42 || (u >= 0.5 && u < 0.53));
        b.push(u < 0.5);
      }
      const d = pairedRateDifference(a, b);
      if (d.low <= 0.05 && 0.05 <= d.high) covered++;
      pairedWidth += d.high - d.low;
      const ka = a.filter(Boolean).length;
      const kb = b.filter(Boolean).length;
      const u = rateDifference(ka / n, n, kb / n, n);
      unpairedWidth += u.high - u.low;
    }
    expect(covered / runs).toBeGreaterThan(0.93);
    expect(covered / runs).toBeLessThan(0.975);
    expect(pairedWidth).toBeLessThan(0.6 * unpairedWidth);
  });

  it('t-interval of the mean: 0.02, 0.05, 0.08 is 0.05 ± 4.3027 · 0.03 / √3', () => {
    const m = meanInterval([0.02, 0.05, 0.08]);
    expect(m.n).toBe(3);
    expect(m.mean).toBeCloseTo(0.05, 12);
    expect(m.sd).toBeCloseTo(0.03, 12);
    expect(m.interval!.low).toBeCloseTo(0.05 - (4.3027 * 0.03) / Math.sqrt(3), 6);
    expect(m.interval!.high).toBeCloseTo(0.1245, 4);
    // One seed has a mean but no spread: no interval rather than a made-up one.
    expect(meanInterval([0.4])).toEqual({ n: 1, mean: 0.4, sd: null, interval: null });
    expect(meanInterval([]).interval).toBeNull();
    expect(() => meanInterval([0.1, NaN])).toThrow(/finite/);
  });

  it('t critical values: the table and its tail', () => {
    expect(t95(1)).toBeCloseTo(12.706, 3);
    expect(t95(2)).toBeCloseTo(4.303, 3);
    expect(t95(30)).toBeCloseTo(2.042, 3);
    expect(t95(60)).toBeCloseTo(2.0003, 3);
    expect(t95(120)).toBeCloseTo(1.9799, 3);
    expect(() => t95(0)).toThrow(/≥ 1/);
  });

  it('says where an interval lies relative to 0', () => {
    expect(sign({ low: 0.01, high: 0.2 })).toBe('above');
    expect(sign({ low: -0.2, high: -0.01 })).toBe('below');
    expect(sign({ low: 0, high: 0.2 })).toBe('includes 0');
    expect(sign({ low: -0.1, high: 0.1 })).toBe('includes 0');
  });
});
