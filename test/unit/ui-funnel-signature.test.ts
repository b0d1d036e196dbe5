/**
 * The view models of the new charts: the funnel's bar widths, losses and
 * bottleneck; Wilson error bars on the suite lines only where n is known;
 * the styles of the co-evolution signature in a stable order.
 */
import { describe, expect, it } from 'vitest';
import type { CoevoReport } from '../../src/coevo/records';
import { funnelChart } from '../../src/ui/data/funnelModel';
import { reportOf } from './report-fixture';
import { signatureStyles, suiteLines, suitePanels } from '../../src/ui/metrics/metricsModel';

describe('funnel chart model', () => {
  it('sizes bars by share of sampled instructions and marks the step that loses the most', () => {
    const c = funnelChart({
      iteration: 2,
      steps: [
        { key: 'states', label: 'states sampled', count: 10 },
        { key: 'sampled', label: 'instructions sampled', count: 20 },
        { key: 'parsed', label: 'parsed', count: 18 },
        { key: 'verified', label: 'verified by the pool', count: 8 },
        { key: 'kept', label: 'kept by diversity', count: 5, off: true },
      ],
    });
    expect(c.rows.map((r) => [r.width, r.lost, r.bottleneck, r.off])).toEqual([
      [1, 0, false, false],
      [1, 0, false, false],
      [0.9, 2, false, false],
      [0.4, 10, true, false],
      [0.25, 3, false, true],
    ]);
    expect(c.yield).toBe(0.25);
  });

  it('an empty or skipped funnel has no bottleneck and no yield', () => {
    const c = funnelChart({ iteration: 1, skipped: 'coevo is false', steps: [{ key: 'states', label: 's', count: 0 }, { key: 'sampled', label: 'i', count: 0 }] });
    expect(c.rows.some((r) => r.bottleneck)).toBe(false);
    expect(c.yield).toBeNull();
    expect(c.skipped).toBe('coevo is false');
  });
});

const report = (iterations: CoevoReport['iterations'], style_mix?: CoevoReport['style_mix']): CoevoReport => reportOf(iterations, style_mix ? { style_mix } : {});

describe('metrics view: error bars and signature', () => {
  it('gives a line Wilson error bars at the iterations whose n is recorded, and none without n', () => {
    const r = report([
      { k: 0, planner_reward_mean: null, metrics: { 'grounding/all/accuracy': 0.5 }, n: { 'grounding/all/accuracy': 10 } },
      { k: 1, planner_reward_mean: 0.2, metrics: { 'grounding/all/accuracy': 0.8 } },
    ]);
    const [panel] = suitePanels(['grounding/all/accuracy']);
    const [line] = suiteLines(panel, [{ label: 'A', report: r, dash: 0 }]);
    expect(line.low![0]).toBeCloseTo(0.2366, 3);
    expect(line.high![0]).toBeCloseTo(0.7634, 3);
    expect([line.low![1], line.high![1]]).toEqual([null, null]);
    const [bare] = suiteLines(panel, [{ label: 'A', report: report([{ k: 0, planner_reward_mean: null, metrics: { 'grounding/all/accuracy': 0.5 } }]), dash: 0 }]);
    expect(bare.low).toBeUndefined();
  });

  it('lists the styles of the mix and of the probe in a fixed order', () => {
    const r = report([{ k: 0, planner_reward_mean: null, metrics: { 'styles/icon/accuracy': 0.5, 'styles/all/accuracy': 0.5, 'styles/text/accuracy': 1 } }], [{ iteration: 1, sampled: { none: 2, relation: 1, text: 4 }, kept: {} }]);
    expect(signatureStyles(r, ['text', 'icon', 'position', 'relation', 'color', 'function', 'none'])).toEqual(['text', 'icon', 'relation', 'none']);
  });
});
