import { describe, expect, it } from 'vitest';
import type { CoevoReport } from '../../src/coevo/records';
import { alignSeries, pointCount, thin, xSpan } from '../../src/ui/charts/align';
import { PALETTE, colourAt } from '../../src/ui/charts/palette';
import { compareFinal, curveLines, curvePanels, grpoIterationLines, metricKeys, parseMetricKey, suiteLines, suitePanels, type ChartRun } from '../../src/ui/metrics/metricsModel';

function report(runId: string, iterations: CoevoReport['iterations'], curves: CoevoReport['curves'] = {}): CoevoReport {
  return {
    version: 1, runId, config: {}, device: { backend: 'wasm', adapter: '' }, timings: [], iterations, datasets: [], curation: [],
    informative_group_ratio: iterations.filter((it) => it.k > 0).map((it) => ({ iteration: it.k, value: 0.5 })), curves,
  };
}

const KEYS = [
  'web/cross-domain/step_success', 'web/cross-task/element_accuracy', 'web/cross-task/step_success', 'mobile/high/step_accuracy', 'mobile/low/type_accuracy',
  'grounding/mobile-icon/accuracy', 'grounding/web-text/accuracy', 'online/all/task_success', 'bogus', 'a//b',
];

describe('suite panels', () => {
  it('parses suite/split/metric keys and refuses others', () => {
    expect(parseMetricKey('web/cross-task/step_success')).toEqual({ suite: 'web', split: 'cross-task', metric: 'step_success' });
    expect(parseMetricKey('bogus')).toBeNull();
    expect(parseMetricKey('a//b')).toBeNull();
  });
  it('one panel per split for multi-metric suites, one per suite (lines = splits) for single-metric ones, in METHOD.md order', () => {
    const panels = suitePanels(KEYS);
    expect(panels.map((p) => p.id)).toEqual(['web/cross-task', 'web/cross-domain', 'mobile/high', 'mobile/low', 'grounding', 'online']);
    expect(panels[0].lines.map((l) => l.key)).toEqual(['web/cross-task/element_accuracy', 'web/cross-task/step_success']);
    expect(panels[1].lines.map((l) => l.key)).toEqual(['web/cross-domain/step_success']);
    // step_success has the same colour in every web split.
    expect(panels[1].lines[0].colour).toBe(panels[0].lines[1].colour);
    expect(panels[4].lines.map((l) => l.label)).toEqual(['web-text', 'mobile-icon']);
    expect(panels[5].title).toContain('task success');
  });
  it('the reading probe: one panel of grounding by style (lines in the styles\' order), and reading per cell and per glyph', () => {
    const keys = ['reading/glyphs/top1', 'styles/all/accuracy', 'reading/cells/letter_f1', 'styles/relation/accuracy', 'styles/text/accuracy', 'reading/cells/role_accuracy', 'online/all/task_success'];
    const panels = suitePanels(keys);
    expect(panels.map((p) => p.id)).toEqual(['online', 'styles', 'reading/cells', 'reading/glyphs']);
    expect(panels[1].lines.map((l) => l.label)).toEqual(['text', 'relation', 'all']);
    expect(panels[1].title).toBe('Reading probe: grounding by referring style: accuracy');
    expect(panels[2].lines.map((l) => l.label)).toEqual(['role accuracy', 'letter f1']);
    expect(panels[3].title).toContain('glyph reader');
  });
  it('the planner\'s own figures: a panel per figure with a line per split, after the mobile suite, each split one colour throughout', () => {
    const splits = ['mobile', 'cross-domain', 'cross-task', 'cross-site'];
    const figures = ['prompts_cut', 'value_f1', 'exact', 'parse_sampled', 'type_accuracy'];
    // value_f1 is left out where a split has no step with a value.
    const keys = [...splits.flatMap((sp) => figures.map((m) => `planner/${sp}/${m}`)).filter((k) => k !== 'planner/cross-task/value_f1'), 'mobile/high/step_accuracy', 'mobile/high/type_accuracy', 'grounding/web-text/accuracy'];
    const panels = suitePanels(keys);
    expect(panels.map((p) => p.id)).toEqual(['mobile/high', 'planner/exact', 'planner/type_accuracy', 'planner/value_f1', 'planner/parse_sampled', 'planner/prompts_cut', 'grounding']);
    const planner = panels.filter((p) => p.suite === 'planner');
    expect(planner[0].title).toBe('Planner alone: action type and target');
    expect(planner[4].title).toBe('Planner alone: prompts cut to fit');
    expect(planner[0].lines.map((l) => [l.key, l.label])).toEqual(['cross-task', 'cross-site', 'cross-domain', 'mobile'].map((sp) => [`planner/${sp}/exact`, sp]));
    expect(planner[2].lines.map((l) => l.label)).toEqual(['cross-site', 'cross-domain', 'mobile']);
    for (const p of planner) for (const l of p.lines) expect(l.colour).toBe(planner[0].lines.find((x) => x.label === l.label)!.colour);
    expect(new Set(planner[0].lines.map((l) => l.colour)).size).toBe(4);
    // One line per split and run over the iterations.
    const r = report('a', [
      { k: 0, planner_reward_mean: null, metrics: { 'planner/mobile/exact': 0.25, 'planner/cross-task/exact': 0.5 } },
      { k: 1, planner_reward_mean: 0.1, metrics: { 'planner/mobile/exact': 0.75 } },
    ]);
    const lines = suiteLines(suitePanels(metricKeys([r]))[0], [{ label: 'A', report: r, dash: 0 }]);
    expect(lines.map((l) => [l.label, l.y])).toEqual([['cross-task', [0.5, null]], ['mobile', [0.25, 0.75]]]);
  });

  it('lines follow each run over iterations, the compared run dashed; missing values are gaps', () => {
    const a = report('a', [
      { k: 0, planner_reward_mean: null, metrics: { 'web/cross-task/step_success': 0.1 } },
      { k: 1, planner_reward_mean: 0.4, metrics: { 'web/cross-task/step_success': 0.3, 'web/cross-task/element_accuracy': 0.5 } },
    ]);
    const b = report('b', [{ k: 0, planner_reward_mean: null, metrics: { 'web/cross-task/step_success': 0.2 } }]);
    const runs: ChartRun[] = [{ label: 'A', report: a, dash: 0 }, { label: 'B', report: b, dash: 1 }];
    const [panel] = suitePanels(metricKeys([a, b]));
    const lines = suiteLines(panel, runs);
    expect(lines.map((l) => [l.label, l.legend, l.dash])).toEqual([['element accuracy · A', 'element accuracy', 0], ['step success · A', 'step success', 0], ['element accuracy · B', 'element accuracy', 1], ['step success · B', 'step success', 1]]);
    expect(lines[0].y).toEqual([null, 0.5]);
    expect(lines[3]).toMatchObject({ x: [0], y: [0.2] });
    expect(suiteLines(panel, runs.slice(0, 1))[1].label).toBe('step success');
    const grpo = grpoIterationLines(runs.slice(0, 1));
    expect(grpo[0]).toMatchObject({ x: [0, 1], y: [null, 0.4] });
    expect(grpo[1]).toMatchObject({ x: [1], y: [0.5] });
  });
  it('real screens: one panel, a line per style with its chance dotted in the same colour, chance drawn once and never compared', () => {
    const real = (acc: number) => ({ 'real/all/accuracy': acc, 'real/all/chance': 0.16, 'real/text/accuracy': acc, 'real/text/chance': 0.2, 'web/cross-task/step_success': 0.1 });
    const n = { 'real/text/accuracy': 130, 'real/all/accuracy': 400 };
    const a = report('a', [{ k: 0, planner_reward_mean: null, metrics: real(0.5), n }, { k: 1, planner_reward_mean: 0.1, metrics: real(0.6), n }]);
    const b = report('b', [{ k: 0, planner_reward_mean: null, metrics: real(0.4) }]);
    const panel = suitePanels(metricKeys([a, b])).find((p) => p.suite === 'real')!;
    expect(panel.id).toBe('real');
    expect(panel.lines.map((l) => [l.label, l.reference === true])).toEqual([['text', false], ['text chance', true], ['all', false], ['all chance', true]]);
    expect(panel.lines[0].colour).toBe(panel.lines[1].colour);
    const lines = suiteLines(panel, [{ label: 'A', report: a, dash: 0 }, { label: 'B', report: b, dash: 1 }]);
    expect(lines.map((l) => l.label)).toEqual(['text · A', 'text chance', 'all · A', 'all chance', 'text · B', 'all · B']);
    expect(lines[1]).toMatchObject({ dash: 2, y: [0.2, 0.2] });
    expect(lines[0].low?.[0]).toBeLessThan(0.5);
    expect(compareFinal(a, b).rows.map((r) => r.key)).toEqual(['web/cross-task/step_success', 'real/text/accuracy', 'real/all/accuracy']);
  });

  it('the comparison table holds each metric at each run\'s last iteration and the difference', () => {
    const a = report('a', [{ k: 2, planner_reward_mean: 0.4, metrics: { 'grounding/web-text/accuracy': 0.5, 'online/all/task_success': 0.25 } }]);
    const b = report('b', [{ k: 2, planner_reward_mean: 0.4, metrics: { 'grounding/web-text/accuracy': 0.75 } }]);
    const t = compareFinal(a, b);
    expect(t.ka).toBe(2);
    expect(t.rows).toEqual([
      { key: 'grounding/web-text/accuracy', a: 0.5, b: 0.75, delta: 0.25 },
      { key: 'online/all/task_success', a: 0.25, b: null, delta: null },
    ]);
  });
});

describe('training curves', () => {
  const names = ['planner-sft/loss', 'grounder-sft/loss', 'planner-grpo/loss', 'planner-grpo/reward', 'planner-grpo/kl', 'grounder-grpo/kl', 'planner-grpo/informative', 'grounder-sft/kept', 'odd/thing'];
  it('group by what they measure, losses on a log axis, fractions on 0..1, unknown series alone', () => {
    const panels = curvePanels(names);
    expect(panels.map((p) => [p.id, p.names])).toEqual([
      ['loss', ['grounder-sft/loss', 'planner-sft/loss']],
      ['grpo-loss', ['planner-grpo/loss']],
      ['reward', ['planner-grpo/reward']],
      ['kl', ['grounder-grpo/kl', 'planner-grpo/kl']],
      ['informative', ['planner-grpo/informative']],
      ['kept', ['grounder-sft/kept']],
      ['odd/thing', ['odd/thing']],
    ]);
    expect(panels[0].logY).toBe(true);
    expect(panels[1].logY).toBe(false);
    expect(panels[4].fraction).toBe(true);
  });
  it('a series keeps its colour in both runs and skips runs that lack it', () => {
    const a = report('a', [], { 'planner-sft/loss': { steps: [1, 2], values: [3, 2] }, 'grounder-sft/loss': { steps: [1], values: [5] } });
    const b = report('b', [], { 'planner-sft/loss': { steps: [1, 2, 3], values: [3, 2, 1] } });
    const [loss] = curvePanels(Object.keys(a.curves));
    const lines = curveLines(loss, [{ label: 'A', report: a, dash: 0 }, { label: 'B', report: b, dash: 1 }], loss.names);
    expect(lines.map((l) => l.label)).toEqual(['grounder-sft/loss · A', 'planner-sft/loss · A', 'planner-sft/loss · B']);
    expect(lines[1].colour).toBe(lines[2].colour);
    expect(lines[2].dash).toBe(1);
  });
});

describe('chart helpers', () => {
  it('aligns series with different x onto their union, nulls where a series has no point', () => {
    expect(alignSeries([{ x: [0, 2], y: [1, 3] }, { x: [1, 2], y: [NaN, 4] }])).toEqual([[0, 1, 2], [1, null, 3], [null, null, 4]]);
    expect(pointCount([{ x: [0, 1, 2], y: [1, null, NaN] }, { x: [0], y: [0] }])).toBe(2);
  });
  it('thins a long curve evenly, keeping both ends', () => {
    const x = Array.from({ length: 1001 }, (_, i) => i);
    const t = thin({ x, y: x }, 11);
    expect(t.x).toEqual([0, 100, 200, 300, 400, 500, 600, 700, 800, 900, 1000]);
    expect(thin({ x: [1, 2], y: [1, 2] }, 11).x).toEqual([1, 2]);
  });
  it('uses the Okabe–Ito colours, cycling past eight', () => {
    expect(new Set(PALETTE).size).toBe(8);
    expect(colourAt(8)).toBe(colourAt(0));
    expect(PALETTE).toContain('#0072B2');
  });
});

describe('xSpan', () => {
  it('spans only the x values that have points: a lone k = 0 gets a unit band, not 0..100', () => {
    expect(xSpan([{ x: [0], y: [0.4] }], true)).toEqual({ lo: 0, hi: 0, range: [-0.5, 0.5] });
    expect(xSpan([{ x: [0, 1, 2], y: [0.1, null, 0.3] }, { x: [1], y: [NaN] }], false)).toEqual({ lo: 0, hi: 2, range: [0, 2] });
    expect(xSpan([{ x: [0, 2], y: [1, 1] }], true)?.range).toEqual([-0.1, 2.1]);
    expect(xSpan([{ x: [3], y: [null] }], true)).toBeNull();
  });
});
