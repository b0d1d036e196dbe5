import { describe, expect, it } from 'vitest';
import type { CoevoReport } from '../../src/coevo/records';
import { reportMarkdown, splitMetricKey } from '../../src/coevo/reportMarkdown';
import { lineChartSvg, niceTicks } from '../../src/coevo/svgChart';

/**
 * Checks that `svg` is one well-formed XML element tree: tags nest and close,
 * attributes are quoted, text and attributes hold no raw `<` or stray `&`.
 * Returns the element names in document order.
 */
function wellFormed(svg: string): string[] {
  const token = /<(\/?)([A-Za-z][\w:-]*)((?:\s+[\w:-]+="[^"<]*")*)\s*(\/?)>|([^<]+)|(<)/g;
  const entity = /&(?!(?:amp|lt|gt|quot|apos|#\d+);)/;
  const stack: string[] = [];
  const names: string[] = [];
  let roots = 0;
  let m: RegExpExecArray | null;
  while ((m = token.exec(svg.trim()))) {
    const [, close, name, attrs, selfClose, text, stray] = m;
    if (stray) throw new Error(`stray < at ${m.index}`);
    if (text !== undefined) {
      if (stack.length === 0 && text.trim()) throw new Error(`text outside the root: ${text}`);
      if (entity.test(text)) throw new Error(`raw & in text: ${text}`);
      continue;
    }
    if (attrs && entity.test(attrs)) throw new Error(`raw & in attributes of <${name}>`);
    if (close) {
      if (stack.pop() !== name) throw new Error(`</${name}> closes nothing open`);
      continue;
    }
    if (stack.length === 0) roots++;
    names.push(name);
    if (!selfClose) stack.push(name);
  }
  if (stack.length) throw new Error(`unclosed <${stack.join('>, <')}>`);
  if (roots !== 1 || names[0] !== 'svg') throw new Error(`expected one <svg> root, got ${roots} roots starting with ${names[0]}`);
  return names;
}

const attr = (el: string, name: string): number => Number(new RegExp(`\\s${name}="([^"]*)"`).exec(el)![1]);
const elements = (svg: string, name: string): string[] => svg.match(new RegExp(`<${name}\\s[^>]*>`, 'g')) ?? [];
/** The plot area of the default layout (MARGIN in svgChart.ts; width 640, plot height 240). */
const PLOT = { left: 56, right: 624, top: 30, bottom: 270 };

function insidePlot(svg: string): void {
  for (const c of elements(svg, 'circle')) {
    expect(attr(c, 'cx')).toBeGreaterThanOrEqual(PLOT.left);
    expect(attr(c, 'cx')).toBeLessThanOrEqual(PLOT.right);
    expect(attr(c, 'cy')).toBeGreaterThanOrEqual(PLOT.top);
    expect(attr(c, 'cy')).toBeLessThanOrEqual(PLOT.bottom);
  }
  for (const p of elements(svg, 'path')) {
    const nums = (/\sd="([^"]*)"/.exec(p)![1].match(/-?[\d.]+/g) ?? []).map(Number);
    for (let i = 0; i < nums.length; i += 2) {
      expect(nums[i]).toBeGreaterThanOrEqual(PLOT.left);
      expect(nums[i]).toBeLessThanOrEqual(PLOT.right);
      expect(nums[i + 1]).toBeGreaterThanOrEqual(PLOT.top);
      expect(nums[i + 1]).toBeLessThanOrEqual(PLOT.bottom);
    }
  }
}

describe('lineChartSvg', () => {
  it('draws a line per series with a legend, inside the plot', () => {
    const svg = lineChartSvg(
      [
        { name: 'a', x: [0, 1, 2], y: [0.1, 0.5, 0.9] },
        { name: 'b', x: [0, 1, 2], y: [0.3, 0.2, 0.4] },
      ],
      { title: 'two lines', xLabel: 'k', yLabel: 'fraction', yMin: 0, yMax: 1, integerX: true },
    );
    wellFormed(svg);
    expect(elements(svg, 'path')).toHaveLength(2);
    expect(svg).toContain('>a</text>');
    expect(svg).toContain('>b</text>');
    insidePlot(svg);
    // Integer x ticks only, for iteration numbers.
    const xLabels = [...svg.matchAll(/y="285" text-anchor="middle">([^<]*)</g)].map((m) => m[1]);
    expect(xLabels).toEqual(['0', '1', '2']);
  });

  it('shows a single point as a marker, centred', () => {
    const svg = lineChartSvg([{ name: 'one', x: [3], y: [0.42] }], { title: 'one point', integerX: true });
    wellFormed(svg);
    expect(elements(svg, 'path')).toHaveLength(0);
    const circles = elements(svg, 'circle');
    expect(circles).toHaveLength(1);
    expect(attr(circles[0], 'cx')).toBeCloseTo((PLOT.left + PLOT.right) / 2, 0);
    insidePlot(svg);
    expect(svg).not.toMatch(/NaN|Infinity/);
  });

  it('handles constant values without dividing by zero', () => {
    const svg = lineChartSvg([{ name: 'flat', x: [0, 1, 2, 3], y: [2, 2, 2, 2] }], { title: 'flat' });
    wellFormed(svg);
    expect(svg).not.toMatch(/NaN|Infinity/);
    const ys = elements(svg, 'circle').map((c) => attr(c, 'cy'));
    expect(ys).toHaveLength(4);
    expect(new Set(ys).size).toBe(1);
    insidePlot(svg);
  });

  it('skips NaN and missing values, breaking the line there', () => {
    const svg = lineChartSvg([{ name: 'gappy', x: [0, 1, 2, 3, 4, 5, 6], y: [1, 2, NaN, 4, 5, null, 7] }], { title: 'gaps' });
    wellFormed(svg);
    expect(svg).not.toMatch(/NaN|Infinity/);
    // Runs [0,1], [3,4] and the lone point 6.
    expect(elements(svg, 'path')).toHaveLength(2);
    expect(elements(svg, 'circle')).toHaveLength(5);
    insidePlot(svg);
  });

  it('says "no data" when nothing is finite, and escapes names', () => {
    const svg = lineChartSvg([{ name: 'a <b> & "c"', x: [0, 1], y: [NaN, undefined] }], { title: 'R&D <empty>' });
    wellFormed(svg);
    expect(svg).toContain('no data');
    expect(svg).toContain('a &lt;b&gt; &amp; &quot;c&quot;');
    expect(svg).toContain('<title>R&amp;D &lt;empty&gt;</title>');
    expect(wellFormed(lineChartSvg([], { title: 'nothing' }))[0]).toBe('svg');
  });

  it('thins long series and draws losses on a log scale', () => {
    const n = 5000;
    const x = Array.from({ length: n }, (_, i) => i);
    const y = x.map((i) => 10 * Math.exp(-i / 500) + 0.01);
    const svg = lineChartSvg([{ name: 'loss', x, y }], { title: 'loss', yScale: 'log', maxPoints: 300, yLabel: 'loss' });
    wellFormed(svg);
    const d = /\sd="([^"]*)"/.exec(elements(svg, 'path')[0])![1];
    expect(d.match(/[ML]/g)).toHaveLength(300);
    expect(elements(svg, 'circle')).toHaveLength(0);
    expect(svg).toContain('loss (log scale)');
    const yLabels = [...svg.matchAll(/text-anchor="end" dominant-baseline="middle">([^<]*)</g)].map((m) => m[1]);
    expect(yLabels).toEqual(['0.01', '0.1', '1', '10', '100']);
    insidePlot(svg);
  });

  it('picks 1-2-5 ticks', () => {
    expect(niceTicks(0, 1)).toEqual([0, 0.2, 0.4, 0.6, 0.8, 1]);
    expect(niceTicks(-0.03, 0.07)).toEqual([-0.02, 0, 0.02, 0.04, 0.06]);
    expect(niceTicks(0, 3, 6, true)).toEqual([0, 1, 2, 3]);
    expect(niceTicks(2, 2)).toEqual([2]);
  });
});

const REPORT: CoevoReport = {
  version: 1,
  runId: 'run-42',
  config: { preset: 'tiny', seed: 1, iterations: 2, coevo: true, grpo: { beta: 0.01, epsilon: 0.2 }, rewardPool: { priors: [1, 1, 2] }, note: 'a|b' },
  device: { backend: 'wasm', adapter: 'WASM (4 threads, SIMD)' },
  timings: [
    { iteration: 0, phase: 'seed-data', seconds: 3.25 },
    { iteration: 0, phase: 'sft-planner', seconds: 10 },
    { iteration: 1, phase: 'planner-grpo', seconds: 20.5 },
    { iteration: 2, phase: 'planner-grpo', seconds: 21.5 },
  ],
  iterations: [
    {
      k: 0,
      planner_reward_mean: null,
      metrics: {
        'web/cross-domain/step_success': 0.125,
        'web/cross-domain/element_accuracy': 0.25,
        'web/cross-task/step_success': 0.2,
        'grounding/mobile-icon/accuracy': 0.5,
        'online/all/task_success': 0.0625,
      },
    },
    {
      k: 1,
      planner_reward_mean: 0.4,
      metrics: {
        'web/cross-domain/step_success': 0.1875,
        'web/cross-domain/element_accuracy': 0.3125,
        'web/cross-task/step_success': 0.3,
        'grounding/mobile-icon/accuracy': 0.5625,
      },
    },
    {
      k: 2,
      planner_reward_mean: 0.55,
      metrics: {
        'web/cross-domain/step_success': 0.375,
        'web/cross-domain/element_accuracy': 0.4375,
        'web/cross-task/step_success': 0.35,
        'grounding/mobile-icon/accuracy': 0.6875,
        'online/all/task_success': 0.1875,
      },
    },
  ],
  datasets: [
    { iteration: 0, size: 400, kept: 320, bySource: { 'writer:terse': 200, 'writer:verbose': 200 }, byStyle: { text: 250, icon: 150 } },
    { iteration: 1, size: 520, kept: 410, bySource: { 'writer:terse': 200, 'writer:verbose': 200, 'planner@1': 120 }, byStyle: { text: 300, icon: 220 } },
  ],
  curation: [
    { iteration: 1, stage: 'too-easy', kept: 90, dropped: 30 },
    { iteration: 1, stage: 'misaligned', kept: 80, dropped: 10 },
  ],
  informative_group_ratio: [
    { iteration: 1, value: 0.625 },
    { iteration: 2, value: 0.5 },
  ],
  curves: {
    'grounder-sft/loss': { steps: [0, 1, 2, 3, 4], values: [5, 2, 0.5, 0.2, 0.1] },
    'planner-grpo/reward': { steps: [0, 1, 2], values: [0.2, 0.3, 0.45] },
  },
};

/** The rows of the Markdown table that follows `heading` (a line that starts the table's context). */
function tableAfter(md: string, heading: string): string[] {
  const lines = md.split('\n');
  let i = lines.findIndex((l) => l.startsWith(heading));
  expect(i, `no line starting with ${heading}`).toBeGreaterThanOrEqual(0);
  while (!lines[i].startsWith('|')) i++;
  const rows: string[] = [];
  while (i < lines.length && lines[i].startsWith('|')) rows.push(lines[i++]);
  return rows;
}

describe('reportMarkdown', () => {
  const { markdown: md, charts } = reportMarkdown(REPORT, { wallSeconds: 75.04 });

  it('heads the report with the run, preset, seed, device and wall time', () => {
    expect(md.split('\n')[0]).toBe('# Co-evolution run run-42');
    expect(md).toContain('preset **tiny** · seed 1 · K = 2 · wasm on WASM (4 threads, SIMD) · wall time 75.0 s');
  });

  it('tabulates the config with nested settings as dotted keys', () => {
    const rows = tableAfter(md, '## Config');
    expect(rows).toContain('| grpo.beta | 0.01 |');
    expect(rows).toContain('| rewardPool.priors | [1,1,2] |');
    expect(rows).toContain('| coevo | true |');
    expect(rows).toContain('| note | a\\|b |');
    expect(tableAfter(md, '## Device')).toEqual(['| backend | adapter |', '| --- | --- |', '| wasm | WASM (4 threads, SIMD) |']);
  });

  it('tabulates timings with a total and per-phase sums', () => {
    const rows = tableAfter(md, '## Timings');
    expect(rows).toContain('| 0 | seed-data | 3.3 |');
    expect(rows).toContain('| all | total | 55.3 |');
    expect(tableAfter(md, 'Per phase')).toContain('| planner-grpo | 42.0 |');
  });

  it('tabulates metrics per suite and split: rows are metrics, columns are k, with the change from first to last', () => {
    const rows = tableAfter(md, 'Split **cross-domain**');
    expect(rows[0]).toBe('| metric | n | k=0 | k=1 | k=2 | Δ k=2 − k=0 |');
    expect(rows[1]).toBe('| --- | ---: | ---: | ---: | ---: | ---: |');
    expect(rows).toContain('| step_success | — | 0.125 | 0.188 | 0.375 | +0.250 |');
    expect(rows).toContain('| element_accuracy | — | 0.250 | 0.313 | 0.438 | +0.188 |');
    expect(tableAfter(md, 'Split **cross-task**')).toContain('| step_success | — | 0.200 | 0.300 | 0.350 | +0.150 |');
    expect(tableAfter(md, 'Split **mobile-icon**')).toContain('| accuracy | — | 0.500 | 0.563 | 0.688 | +0.188 |');
    // A metric missing at k = 1 shows as a dash, not as 0.
    expect(tableAfter(md, 'Split **all**')).toContain('| task_success | — | 0.063 | — | 0.188 | +0.125 |');
    expect(md.indexOf('### web')).toBeLessThan(md.indexOf('### grounding'));
  });

  it('tabulates planner reward and informative groups per k', () => {
    const rows = tableAfter(md, '## Planner');
    expect(rows).toContain('| planner reward (mean) | — | 0.400 | 0.550 |');
    expect(rows).toContain('| informative groups (share) | — | 0.625 | 0.500 |');
  });

  it('tabulates dataset sizes, provenance and curation', () => {
    expect(tableAfter(md, '## Datasets')).toContain('| 1 | 520 | 410 |');
    const bySource = tableAfter(md, 'By source');
    expect(bySource[0]).toBe('| source | D0 | D1 |');
    expect(bySource).toContain('| planner@1 | 0 | 120 |');
    expect(bySource).toContain('| writer:terse | 200 | 200 |');
    expect(tableAfter(md, 'By referring style')).toContain('| icon | 150 | 220 |');
    const curation = tableAfter(md, '## Curation');
    expect(curation).toContain('| 1 | too-easy | 90 | 30 | 0.250 |');
    expect(curation).toContain('| 1 | misaligned | 80 | 10 | 0.111 |');
  });

  it('summarises the training curves', () => {
    const rows = tableAfter(md, '## Training curves');
    expect(rows).toContain('| grounder-sft/loss | 5 | 5 | 0.1 | 0.1 | 5 |');
    expect(rows).toContain('| planner-grpo/reward | 3 | 0.2 | 0.45 | 0.2 | 0.45 |');
  });

  it('makes well-formed SVG charts, each linked from the Markdown', () => {
    expect(charts.map((c) => c.path)).toEqual([
      'charts/planner.svg',
      'charts/metrics-web.svg',
      'charts/metrics-grounding.svg',
      'charts/metrics-online.svg',
      'charts/curve-grounder-sft-loss.svg',
      'charts/curve-planner-grpo-reward.svg',
    ]);
    for (const c of charts) {
      wellFormed(c.svg);
      expect(c.svg).not.toMatch(/NaN|Infinity/);
      expect(md).toMatch(new RegExp(`!\\[[^\\]]+\\]\\(${c.path.replace(/[.]/g, '\\.')}\\)`));
    }
    const web = charts.find((c) => c.path === 'charts/metrics-web.svg')!.svg;
    // One line per web metric, named split/metric in the legend.
    expect(elements(web, 'path')).toHaveLength(3);
    for (const name of ['cross-domain/step_success', 'cross-domain/element_accuracy', 'cross-task/step_success']) expect(web).toContain(`>${name}</text>`);
    // The loss falls 50× and gets a log axis; the reward does not.
    expect(charts[4].svg).toContain('(log scale)');
    expect(charts[5].svg).not.toContain('(log scale)');
  });

  it('copes with an empty report', () => {
    const empty: CoevoReport = { ...REPORT, config: {}, timings: [], iterations: [], datasets: [], curation: [], informative_group_ratio: [], curves: {} };
    const r = reportMarkdown(empty);
    expect(r.charts).toEqual([]);
    for (const s of ['No config recorded.', 'No phase finished.', 'No iteration finished.', 'No metrics recorded.', 'No dataset recorded.', 'No curation recorded.', 'No training curves recorded.']) expect(r.markdown).toContain(s);
  });

  it('tabulates the planner\'s own figures per split and charts each figure with a line per split', () => {
    const splits = ['cross-task', 'cross-site', 'cross-domain', 'mobile'];
    const figures = ['exact', 'type_accuracy', 'value_f1', 'parse_sampled', 'prompts_cut'];
    const at = (k: number) => Object.fromEntries(splits.flatMap((split, i) => figures.map((m, j) => [`planner/${split}/${m}`, (k + i + j) / 16])));
    const withPlanner: CoevoReport = {
      ...REPORT,
      iterations: REPORT.iterations.map((it) => ({ ...it, metrics: { ...it.metrics, ...at(it.k) } })),
    };
    const r = reportMarkdown(withPlanner);
    const section = r.markdown.slice(r.markdown.indexOf('### planner'));
    // planner/cross-site/exact is (k + 1 + 0) / 16 at k = 0, 1, 2.
    expect(tableAfter(section, 'Split **cross-site**')).toContain('| exact | — | 0.063 | 0.125 | 0.188 | +0.125 |');
    expect(tableAfter(section, 'Split **mobile**')).toContain('| prompts_cut | — | 0.438 | 0.500 | 0.563 | +0.125 |');
    const planner = r.charts.filter((c) => c.path.startsWith('charts/metrics-planner'));
    expect(planner.map((c) => c.path)).toEqual(figures.map((m) => `charts/metrics-planner-${m.replace('_', '-')}.svg`));
    for (const c of planner) {
      wellFormed(c.svg);
      expect(elements(c.svg, 'path')).toHaveLength(splits.length);
      for (const split of splits) expect(c.svg).toContain(`>${split}</text>`);
      expect(r.markdown).toContain(`(${c.path})`);
    }
    // A split keeps its colour from chart to chart.
    const strokes = (svg: string) => elements(svg, 'path').map((p) => /\sstroke="([^"]*)"/.exec(p)![1]);
    expect(new Set(strokes(planner[0].svg)).size).toBe(splits.length);
    for (const c of planner) expect(strokes(c.svg)).toEqual(strokes(planner[0].svg));
    // The other suites' charts are as before.
    expect(r.charts.map((c) => c.path)).toEqual(expect.arrayContaining(['charts/metrics-web.svg', 'charts/metrics-grounding.svg']));
  });

  it('gives the real-screen suite a section of its own: accuracy per style with Wilson intervals and n, chance beside it, why an iteration has none, and a chart', () => {
    const real = (acc: number) => ({ 'real/text/accuracy': acc, 'real/text/chance': 0.161, 'real/all/accuracy': acc / 2, 'real/all/chance': 0.164 });
    const n = { 'real/text/accuracy': 130, 'real/text/chance': 130, 'real/all/accuracy': 400, 'real/all/chance': 400 };
    const r: CoevoReport = {
      ...REPORT,
      iterations: [
        { k: 0, planner_reward_mean: null, metrics: {}, real_screens_skipped: 'no page gave this engine the real-screen suite' },
        { k: 1, planner_reward_mean: 0.4, metrics: real(0.6), n },
      ],
    };
    const out = reportMarkdown(r);
    const section = out.markdown.slice(out.markdown.indexOf('## Real screens'), out.markdown.indexOf('## Datasets'));
    expect(section).toContain('| style | n | chance | k=0 | k=1 |');
    expect(section).toMatch(/\| text \| 130 \| 0\.161 \| — \| 0\.600 \[0\.51–0\.68\] \|/);
    expect(section).toMatch(/\| all \| 400 \| 0\.164 \| — \| 0\.300 \[0\.26–0\.35\] \|/);
    expect(section).toContain('k=0: no real-screen figures, because no page gave this engine the real-screen suite.');
    expect(out.charts.some((c) => c.path === 'charts/metrics-real.svg')).toBe(true);
    // Not also among the world's suites.
    expect(out.markdown).not.toContain('### real');
    // A report without any has no such section.
    expect(reportMarkdown(REPORT).markdown).not.toContain('## Real screens');
  });

  it('splits metric keys into suite, split and metric', () => {
    expect(splitMetricKey('web/cross-domain/step_success')).toEqual({ suite: 'web', split: 'cross-domain', metric: 'step_success' });
    expect(splitMetricKey('online/task_success')).toEqual({ suite: 'online', split: '', metric: 'task_success' });
  });
});
