/** The acceptance arithmetic of an offsite comparison (src/offsite/summary.ts), on made-up rows. */
import { describe, expect, it } from 'vitest';
import { wilson } from '../../src/learn/stats';
import { DEFAULT_OFFSITE, type OffsiteComparison, type OffsiteRow, type RowName, type Scale } from '../../src/offsite/compare';
import { summarise, summaryLines } from '../../src/offsite/summary';

const row = (name: RowName, k: number, loss: number, scale?: Scale): OffsiteRow => ({ name, ...(scale ? { scale } : {}), n: 100, k, exact: k / 100, interval: wilson(k, 100), loss });

function comparison(rows: OffsiteRow[], scales: Scale[]): OffsiteComparison {
  return { settings: { ...DEFAULT_OFFSITE, scales }, rows, emulators: [], fullSize: 0, adapterSize: 0, scoreHistory: [], seconds: {} };
}

describe('summarise', () => {
  const a = { alpha: 0.5, beta: 1 };
  const b = { alpha: 0.5, beta: 0.5 };
  const rows = [
    row('zero-shot', 10, 3.0),
    row('full fine-tuning', 30, 2.0),
    row('emulator fine-tuning', 12, 2.8, a),
    row('plug-in', 28, 2.1, a),
    row('offsite-tuning emulator fine-tuning', 11, 2.9, a),
    row('offsite-tuning plug-in', 20, 2.5, a),
    row('emulator fine-tuning', 9, 2.9, b),
    row('plug-in', 25, 2.3, b),
    row('offsite-tuning emulator fine-tuning', 9, 3.0, b),
    row('offsite-tuning plug-in', 26, 2.2, b),
  ];

  it('gives each scale its gain shares, privacy gap and lead over uniform drop', () => {
    const [sa, sb] = summarise(comparison(rows, [a, b]));
    expect(sa.gainShareExact).toBeCloseTo(0.9, 12);
    expect(sa.gainShareLoss).toBeCloseTo(0.9, 12);
    expect(sa.privacyGap.value).toBeCloseTo(0.16, 12);
    expect(sa.privacyGap.interval.low).toBeGreaterThan(0); // 12/100 against 28/100 is clear
    expect(sa.overUniformDrop?.value).toBeCloseTo(0.08, 12);
    expect(sa.overUniformDrop?.interval.low).toBeLessThan(0); // 20 against 28 of 100 is not
    expect(sb.gainShareExact).toBeCloseTo(0.75, 12);
    expect(sb.overUniformDrop?.value).toBeCloseTo(-0.01, 12);
    expect(summaryLines([sa])[0]).toContain('plug-in reaches 90% of full fine-tuning');
  });

  it('pairs the rows item by item where they kept their hits: the same difference, a narrower interval', () => {
    // The uniform-drop plug-in hits items 0–19, ScaleOT's plug-in the same 20 and 8 more: 8 points, every discordant pair in its favour.
    const hits = (k: number) => Array.from({ length: 100 }, (_, i) => i < k);
    const withHits = rows.map((r) => (r.scale === a && (r.name === 'plug-in' || r.name === 'offsite-tuning plug-in') ? { ...r, hit: hits(r.k) } : r));
    const [sa] = summarise(comparison(withHits, [a]));
    expect(sa.overUniformDrop?.paired).toBe(true);
    expect(sa.overUniformDrop?.value).toBeCloseTo(0.08, 12);
    expect(sa.overUniformDrop?.interval.low).toBeGreaterThan(0); // unpaired it includes 0 (above)
    expect(sa.privacyGap.paired).toBe(false); // the emulator row kept no hits
    expect(summaryLines([sa])[0]).toMatch(/plug-in − uniform-drop plug-in 8\.0 points \[[0-9.]+, [0-9.]+\] \(paired\)/);
  });

  it('has no lead over uniform drop where there are no uniform-drop rows', () => {
    const noDrop = rows.filter((r) => !(r.scale === b && r.name.startsWith('offsite-tuning')));
    const [, sb] = summarise(comparison(noDrop, [a, b]));
    expect(sb.overUniformDrop).toBeNull();
    expect(summaryLines([sb])[0]).toContain('n/a (nothing dropped)');
  });

  it('has no share when full fine-tuning gained nothing or lost, and fails on a missing row', () => {
    const flat = rows.map((r) => (r.name === 'full fine-tuning' ? row('full fine-tuning', 10, 3.0) : r));
    expect(summarise(comparison(flat, [a]))[0].gainShareExact).toBeNaN();
    expect(summarise(comparison(flat, [a]))[0].gainShareLoss).toBeNaN();
    const worse = rows.map((r) => (r.name === 'full fine-tuning' ? row('full fine-tuning', 8, 2.0) : r));
    const [w] = summarise(comparison(worse, [a]));
    expect(w.gainShareExact).toBeNaN(); // 10 → 8 in exact match: no gain for plug-in to have a share of
    expect(w.gainShareLoss).toBeCloseTo(0.9, 12);
    expect(summaryLines([w])[0]).toContain('n/a (full fine-tuning gained nothing)');
    expect(() => summarise(comparison(rows, [{ alpha: 0.25, beta: 1 }]))).toThrow(/no plug-in row at α 0.25/);
  });
});
