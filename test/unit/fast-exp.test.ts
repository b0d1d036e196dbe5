import { describe, expect, it } from 'vitest';
import { expOfNonPositive } from '../../src/models/fastExp';

describe('expOfNonPositive', () => {
  it('is Math.exp to 2e-12 relative over 0 ≥ v ≥ −700, exact at 0, 0 past underflow, NaN for NaN', () => {
    let worst = 0;
    for (let i = 0; i <= 200_000; i++) {
      const v = -((i / 200_000) ** 3) * 700; // dense near 0, to −700 (below about −708 the results are subnormal)
      worst = Math.max(worst, Math.abs(expOfNonPositive(v) / Math.exp(v) - 1));
    }
    for (const v of [-1e-12, -Number.MIN_VALUE, -Math.LN2 / 64, -Math.LN2, -1, -88.7, -103.97, -700]) worst = Math.max(worst, Math.abs(expOfNonPositive(v) / Math.exp(v) - 1));
    expect(worst).toBeLessThan(2e-12);
    expect(expOfNonPositive(0)).toBe(1);
    expect(expOfNonPositive(-800)).toBe(0);
    expect(expOfNonPositive(-Infinity)).toBe(0);
    expect(expOfNonPositive(NaN)).toBeNaN();
  });
});
