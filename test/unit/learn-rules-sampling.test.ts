import { describe, expect, it } from 'vitest';
import { Random } from '../../src/learn/random';
import { argmax, logSoftmaxRow, sampleCategorical, sampleFromLogits, sampleRows, softmaxRow, topK, withTemperature } from '../../src/learn/sampling';

describe('sampling on read-back arrays', () => {
  it('log softmax is stable and exact', () => {
    // logits [0, ln 3]: softmax [1/4, 3/4]
    const l = logSoftmaxRow([1000, 1000 + Math.log(3)]);
    expect(l[0]).toBeCloseTo(Math.log(0.25), 12);
    expect(l[1]).toBeCloseTo(Math.log(0.75), 12);
    expect(Array.from(softmaxRow([0, -Infinity]))).toEqual([1, 0]);
  });

  it('temperature and top-k reshape the distribution', () => {
    expect(Array.from(withTemperature([1, 2], 0.5))).toEqual([2, 4]);
    expect(Array.from(topK([3, 1, 2, 0], 2))).toEqual([3, -Infinity, 2, -Infinity]);
    expect(() => withTemperature([1], 0)).toThrow(/temperature/);
    expect(argmax([0.1, 0.7, 0.7])).toBe(1);
  });

  it('draws with the right frequencies, never a zero-probability entry, reproducibly from the seed', () => {
    const probs = Float32Array.from([0.1, 0, 0.6, 0.3]);
    const rng = new Random(11);
    const counts = [0, 0, 0, 0];
    const n = 20000;
    for (let i = 0; i < n; i++) counts[sampleCategorical(probs, rng)]++;
    expect(counts[1]).toBe(0);
    // 20k draws: standard error of a frequency ≤ 0.0035, so 0.015 is more than 4 of them
    [0.1, 0, 0.6, 0.3].forEach((p, i) => expect(Math.abs(counts[i] / n - p)).toBeLessThan(0.015));
    const draw = (seed: number) => Array.from({ length: 50 }, ((r) => () => sampleCategorical(probs, r))(new Random(seed)));
    expect(draw(5)).toEqual(draw(5));
    expect(draw(5)).not.toEqual(draw(6));
  });

  it('sampleFromLogits returns the log-prob under the tempered, filtered distribution', () => {
    const logits = [2, 1, 0];
    const d = sampleFromLogits(logits, new Random(1), { temperature: 0.5, topK: 2 });
    // tempered logits [4, 2, 0]; top-2 keeps [4, 2]: p = [1/(1+e^−2), e^−2/(1+e^−2)]
    const p = [1 / (1 + Math.exp(-2)), Math.exp(-2) / (1 + Math.exp(-2))];
    expect(d.index).toBeLessThan(2);
    expect(d.logProb).toBeCloseTo(Math.log(p[d.index]), 12);
    const rows = sampleRows(Float32Array.from([0, -Infinity, -Infinity, 0]), 2, 2, new Random(1));
    expect(rows.map((r) => r.index)).toEqual([0, 1]);
    expect(rows.map((r) => r.logProb)).toEqual([0, 0]);
  });
});
