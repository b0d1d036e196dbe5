/** Selective rank compression's SVD (src/offsite/svd.ts): exact at full rank, Eckart–Young below it. */
import { describe, expect, it } from 'vitest';
import { Random } from '../../src/learn/random';
import { lowRankFactors, multiply, rankAt, svd } from '../../src/offsite/svd';

function randomMatrix(seed: number, m: number, n: number): Float32Array {
  const r = new Random(seed);
  return Float32Array.from({ length: m * n }, () => r.normal());
}

const frobenius = (a: ArrayLike<number>, b: ArrayLike<number>) => {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += (a[i] - b[i]) ** 2;
  return Math.sqrt(s);
};

describe('svd', () => {
  it.each([
    [12, 12],
    [20, 7],
    [7, 20],
  ])('reconstructs a %i × %i matrix at full rank, with orthonormal singular vectors', (m, n) => {
    const a = randomMatrix(m * 100 + n, m, n);
    const k = Math.min(m, n);
    const { left, right } = lowRankFactors(a, m, n, k);
    const back = multiply(left, right, m, k, n);
    expect(frobenius(a, back) / frobenius(a, new Float32Array(a.length))).toBeLessThan(1e-5);
    const d = svd(a, m, n);
    for (let i = 0; i < k; i++) {
      for (let j = 0; j < k; j++) {
        const uu = d.u[i].reduce((s, x, t) => s + x * d.u[j][t], 0);
        const vv = d.v[i].reduce((s, x, t) => s + x * d.v[j][t], 0);
        expect(Math.abs(uu - (i === j ? 1 : 0))).toBeLessThan(1e-9);
        expect(Math.abs(vv - (i === j ? 1 : 0))).toBeLessThan(1e-9);
      }
    }
    for (let i = 1; i < k; i++) expect(d.s[i]).toBeLessThanOrEqual(d.s[i - 1]);
  });

  it('error falls strictly with rank and equals the dropped singular values (Eckart–Young)', () => {
    const [m, n] = [16, 10];
    const a = randomMatrix(3, m, n);
    const s = svd(a, m, n).s;
    let previous = Infinity;
    for (let r = 1; r <= n; r++) {
      const { left, right } = lowRankFactors(a, m, n, r);
      const err = frobenius(a, multiply(left, right, m, r, n));
      const dropped = Math.sqrt(s.slice(r).reduce((t, x) => t + x * x, 0));
      expect(Math.abs(err - dropped)).toBeLessThan(1e-4 * (1 + dropped));
      expect(err).toBeLessThan(previous);
      previous = err;
    }
    expect(previous).toBeLessThan(1e-4);
  });

  it('recovers an exactly low-rank matrix at its rank', () => {
    const [m, n, r] = [14, 9, 3];
    const a = multiply(randomMatrix(5, m, r), randomMatrix(6, r, n), m, r, n);
    const d = svd(a, m, n);
    expect(d.s[r - 1]).toBeGreaterThan(0.1);
    expect(d.s[r]).toBeLessThan(1e-5);
    const { left, right } = lowRankFactors(a, m, n, r);
    expect(frobenius(a, multiply(left, right, m, r, n))).toBeLessThan(1e-4);
  });

  it('rankAt keeps ratio β of the smaller side, at least one', () => {
    expect(rankAt(0.5, 48, 48)).toBe(24);
    expect(rankAt(0.25, 48, 192)).toBe(12);
    expect(rankAt(0.001, 48, 48)).toBe(1);
    expect(() => rankAt(0, 4, 4)).toThrow();
    expect(() => lowRankFactors(new Float32Array(16), 4, 4, 5)).toThrow();
  });
});
