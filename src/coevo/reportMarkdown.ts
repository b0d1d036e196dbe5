/**
 * report.md of a co-evolution run: the numbers of report.json as tables a
 * person can read, and its metrics and training curves as SVG charts the
 * Markdown links to. Pure: the caller writes the files.
 */
import { wilsonOfRate } from '../learn/stats';
import type { CoevoReport, IterationReport } from './records';
import { lineChartSvg, type ChartSeries } from './svgChart';
import { markdownCell as cell, markdownTable } from './markdownTable';
import { runVerdict } from './verdict';
import { REAL_SUITE } from './realScreenMetrics';
import { realScreensSection } from './realScreensMarkdown';

/** One chart: `path` is relative to the directory report.md lives in. */
export interface ChartFile {
  path: string;
  svg: string;
}

export interface RenderedReport {
  markdown: string;
  charts: ChartFile[];
}

export interface ReportMarkdownOptions {
  /** Directory for the charts, relative to report.md (default 'charts'). */
  chartDir?: string;
  /** Wall time of the whole command, when known. */
  wallSeconds?: number;
}

const DASH = '—';

/**
 * Suites charted one metric per chart, a line per split: the planner's own
 * figures differ in kind (a match rate, an F1, a share of cut prompts), so
 * all of them in one chart would be a tangle of twenty lines.
 */
const CHART_PER_METRIC = new Set(['planner']);

export const formatFraction = (v: number | null | undefined): string => (v === null || v === undefined || !Number.isFinite(v) ? DASH : v.toFixed(3));
/** `0.188 [0.13–0.26]`: the value and its Wilson 95% interval over n items, or the value alone when n is unknown. */
export function formatRate(v: number | null | undefined, n: number | undefined): string {
  if (v === null || v === undefined || !Number.isFinite(v) || !n) return formatFraction(v);
  const i = wilsonOfRate(v, n);
  return `${v.toFixed(3)} [${i.low.toFixed(2)}–${i.high.toFixed(2)}]`;
}

/** The n of a metric over the iterations: one number when all agree, else each k's ('—' where unknown). */
function countsCell(iterations: readonly IterationReport[], key: string): string {
  const ns = iterations.filter((it) => key in it.metrics).map((it) => it.n?.[key]);
  if (ns.every((n) => n === undefined)) return DASH;
  const distinct = unique(ns);
  return distinct.length === 1 ? String(distinct[0]) : ns.map((n) => (n === undefined ? DASH : String(n))).join('/');
}

const formatSeconds = (v: number): string => (Number.isFinite(v) ? v.toFixed(1) : DASH);
const formatValue = (v: number): string => (Number.isFinite(v) ? String(+v.toPrecision(4)) : DASH);

function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  // Numbers right-aligned, so that their digits line up; text left.
  const numeric = (i: number): boolean => rows.length > 0 && rows.every((r) => /^([+-]?\d+(\.\d+)?( \[\d+(\.\d+)?–\d+(\.\d+)?\])?|\d+%|\d+ \(\d+%\)|—|[\d—]+(\/[\d—]+)+)$/.test(r[i] ?? ''));
  return markdownTable(header, rows, (i) => i > 0 && numeric(i));
}

/** Nested config objects as dotted keys, so each setting is one row. */
function flattenConfig(value: unknown, prefix: string, out: [string, unknown][]): void {
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const entries = Object.entries(value);
    if (entries.length === 0 && prefix) out.push([prefix, {}]);
    for (const [k, v] of entries) flattenConfig(v, prefix ? `${prefix}.${k}` : k, out);
  } else out.push([prefix, value]);
}

/** `suite/split/metric`; a two-part key has no split. */
export function splitMetricKey(key: string): { suite: string; split: string; metric: string } {
  const parts = key.split('/');
  if (parts.length === 1) return { suite: key, split: '', metric: key };
  const metric = parts[parts.length - 1];
  return { suite: parts[0], split: parts.slice(1, -1).join('/'), metric };
}

export function slug(s: string): string {
  return s.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '') || 'chart';
}

function uniqueName(base: string, taken: Set<string>): string {
  let name = base;
  for (let n = 2; taken.has(name); n++) name = `${base}-${n}`;
  taken.add(name);
  return name;
}

/** Insertion-ordered unique values. */
const unique = <T>(xs: readonly T[]): T[] => [...new Set(xs)];

/** Min and max without spreading: curves can be longer than the argument limit. */
function extent(v: readonly number[]): { min: number; max: number } {
  let min = Infinity;
  let max = -Infinity;
  for (const x of v) {
    if (x < min) min = x;
    if (x > max) max = x;
  }
  return { min, max };
}

export function reportMarkdown(report: CoevoReport, options: ReportMarkdownOptions = {}): RenderedReport {
  const chartDir = (options.chartDir ?? 'charts').replace(/\/+$/, '');
  const charts: ChartFile[] = [];
  const names = new Set<string>();
  const addChart = (base: string, alt: string, series: ChartSeries[], chart: Parameters<typeof lineChartSvg>[1]): string => {
    const path = `${chartDir}/${uniqueName(slug(base), names)}.svg`;
    charts.push({ path, svg: lineChartSvg(series, chart) });
    return `![${alt.replace(/[[\]]/g, '')}](${path})`;
  };

  const iterations = [...report.iterations].sort((a, b) => a.k - b.k);
  const ks = iterations.map((it) => it.k);
  const kHeader = ks.map((k) => `k=${k}`);
  const first = iterations[0];
  const last = iterations[iterations.length - 1];
  const showDelta = iterations.length > 1;
  const md: string[] = [];

  md.push(`# Co-evolution run ${report.runId}`, '');
  const cfg = report.config;
  const summary = [`preset **${cell(cfg.preset ?? DASH)}**`, `seed ${cell(cfg.seed ?? DASH)}`, `K = ${cell(cfg.iterations ?? (last ? last.k : DASH))}`];
  summary.push(`${report.device.backend} on ${report.device.adapter}`);
  if (options.wallSeconds !== undefined) summary.push(`wall time ${formatSeconds(options.wallSeconds)} s`);
  md.push(summary.join(' · '), '');

  md.push('## Verdict', '');
  for (const v of runVerdict(report)) md.push(`- ${v.sentence}`);
  md.push('', 'Each half from k = 0 to the last evaluation; a change counts only when its 95% interval (Newcombe, from the two Wilson intervals) excludes 0.', '');

  md.push('## Config', '');
  const flat: [string, unknown][] = [];
  flattenConfig(cfg, '', flat);
  md.push(flat.length ? table(['setting', 'value'], flat.map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v) ?? String(v)])) : 'No config recorded.', '');

  md.push('## Device', '', table(['backend', 'adapter'], [[report.device.backend, report.device.adapter]]), '');

  md.push('## Timings', '');
  if (report.timings.length) {
    const total = report.timings.reduce((s, t) => s + t.seconds, 0);
    const rows = report.timings.map((t) => [String(t.iteration), t.phase, formatSeconds(t.seconds)]);
    rows.push(['all', 'total', formatSeconds(total)]);
    md.push(table(['iteration', 'phase', 'seconds'], rows), '');
    const byPhase = unique(report.timings.map((t) => t.phase)).map((p) => [p, formatSeconds(report.timings.filter((t) => t.phase === p).reduce((s, t) => s + t.seconds, 0))]);
    md.push('Per phase, over all iterations:', '', table(['phase', 'seconds'], byPhase), '');
  } else md.push('No phase finished.', '');

  md.push('## Planner', '');
  if (iterations.length) {
    const ratio = new Map(report.informative_group_ratio.map((r) => [r.iteration, r.value]));
    const rows = [
      ['planner reward (mean)', ...iterations.map((it) => formatFraction(it.planner_reward_mean))],
      ['informative groups (share)', ...ks.map((k) => formatFraction(ratio.get(k)))],
    ];
    md.push(table(['', ...kHeader], rows), '');
    md.push(
      addChart(
        'planner',
        'Planner reward and informative groups per iteration',
        [
          { name: 'planner reward (mean)', x: ks, y: iterations.map((it) => it.planner_reward_mean) },
          { name: 'informative groups (share)', x: ks, y: ks.map((k) => ratio.get(k)) },
        ],
        { title: 'Planner per iteration', xLabel: 'iteration k', yLabel: 'value', yMin: 0, yMax: 1, integerX: true },
      ),
      '',
    );
    md.push('Informative groups: planner GRPO groups whose rewards were not all equal (the others teach nothing).', '');
  } else md.push('No iteration finished.', '');

  md.push(
    '## Metrics per iteration',
    '',
    'Fractions in [0, 1] on held-out data; k = 0 is π₀ and φ₀ after the seed phases. In brackets the Wilson 95% interval over n items (steps, tasks, queries, cells or episodes; for an F1 or other mean of values in [0, 1] the same interval is a conservative bound); n is the same items at every k. Steps of one task are not independent, so the intervals of step figures are somewhat too narrow.',
    '',
  );
  const keys = unique(iterations.flatMap((it) => Object.keys(it.metrics))).map((key) => ({ key, ...splitMetricKey(key) }));
  if (!keys.length) md.push('No metrics recorded.', '');
  // The real-screen suite has a section of its own (below), with its chance beside it.
  for (const suite of unique(keys.map((k) => k.suite)).filter((s) => s !== REAL_SUITE)) {
    md.push(`### ${suite}`, '');
    const inSuite = keys.filter((k) => k.suite === suite);
    for (const split of unique(inSuite.map((k) => k.split))) {
      const rows = inSuite
        .filter((k) => k.split === split)
        .map(({ key, metric }) => {
          const row = [metric, countsCell(iterations, key), ...iterations.map((it) => formatRate(it.metrics[key], it.n?.[key]))];
          if (showDelta) {
            const a = first.metrics[key];
            const b = last.metrics[key];
            row.push(Number.isFinite(a) && Number.isFinite(b) ? `${b - a >= 0 ? '+' : ''}${(b - a).toFixed(3)}` : DASH);
          }
          return row;
        });
      const header = ['metric', 'n', ...kHeader, ...(showDelta ? [`Δ k=${last.k} − k=${first.k}`] : [])];
      md.push(split ? `Split **${split}**:` : 'Metrics:', '', table(header, rows), '');
    }
    const metricNames = unique(inSuite.map((k) => k.metric));
    const splitNames = unique(inSuite.map((k) => k.split));
    if (CHART_PER_METRIC.has(suite)) {
      for (const metric of metricNames) {
        // Each split keeps its colour from chart to chart.
        const series = inSuite
          .filter((k) => k.metric === metric)
          .map(({ key, split }) => ({ name: split || metric, x: ks, y: iterations.map((it) => it.metrics[key]), colour: splitNames.indexOf(split) }));
        const chart = { title: `${suite}/${metric} per iteration`, xLabel: 'iteration k', yLabel: 'fraction', yMin: 0, yMax: 1, integerX: true };
        md.push(addChart(`metrics-${suite}-${metric}`, `${suite} ${metric} per iteration, a line per split`, series, chart), '');
      }
      continue;
    }
    // Colour by metric and dash by split, so a suite's many lines can be told apart and matched.
    const styled = metricNames.length <= 7 && splitNames.length <= 4;
    const series = inSuite.map(({ key, split, metric }) => ({
      name: split ? `${split}/${metric}` : metric,
      x: ks,
      y: iterations.map((it) => it.metrics[key]),
      ...(styled ? { colour: metricNames.indexOf(metric), dash: splitNames.indexOf(split) } : {}),
    }));
    md.push(addChart(`metrics-${suite}`, `${suite} metrics per iteration`, series, { title: `${suite} per iteration`, xLabel: 'iteration k', yLabel: 'fraction', yMin: 0, yMax: 1, integerX: true }), '');
  }

  const real = realScreensSection(iterations, table, formatRate);
  if (real.lines.length) {
    md.push(...real.lines);
    if (real.series.length) {
      const chart = { title: 'real screens: click-in-box per style (dotted: chance)', xLabel: 'iteration k', yLabel: 'fraction', yMin: 0, yMax: 1, integerX: true };
      md.push(addChart('metrics-real', 'real-screen accuracy per style per iteration, chance dotted', real.series, chart), '');
    }
  }

  md.push('## Datasets', '', 'D_k after each iteration: every sample keeps its provenance.', '');
  const datasets = [...report.datasets].sort((a, b) => a.iteration - b.iteration);
  if (datasets.length) {
    const dHeader = datasets.map((d) => `D${d.iteration}`);
    md.push(table(['iteration', 'size', 'kept'], datasets.map((d) => [String(d.iteration), String(d.size), String(d.kept)])), '');
    const countTable = (label: string, pick: (d: (typeof datasets)[number]) => Record<string, number>): string => {
      const names = unique(datasets.flatMap((d) => Object.keys(pick(d))));
      return names.length ? table([label, ...dHeader], names.map((n) => [n, ...datasets.map((d) => String(pick(d)[n] ?? 0))])) : `No ${label} counts recorded.`;
    };
    md.push('By source (writer or model that wrote the instruction):', '', countTable('source', (d) => d.bySource), '');
    md.push('By referring style:', '', countTable('style', (d) => d.byStyle), '');
  } else md.push('No dataset recorded.', '');

  md.push('## Curation', '');
  if (report.curation.length) {
    const rows = [...report.curation]
      .sort((a, b) => a.iteration - b.iteration)
      .map((c) => {
        const all = c.kept + c.dropped;
        return [String(c.iteration), c.stage, String(c.kept), String(c.dropped), all ? formatFraction(c.dropped / all) : DASH];
      });
    md.push(table(['iteration', 'stage', 'kept', 'dropped', 'dropped share'], rows), '');
  } else md.push('No curation recorded.', '');

  md.push('## Distillation funnel', '', 'What survived each check of distillation, in the order they run: the filter whose row loses the most is the bottleneck.', '');
  const funnels = [...(report.funnel ?? [])].sort((a, b) => a.iteration - b.iteration);
  if (funnels.length) {
    const steps = funnels[0].steps;
    const rows = steps.map((step, j) => [
      step.off ? `${step.label} (off)` : step.label,
      ...funnels.map((f) => {
        const here = f.steps[j]?.count;
        const sampled = f.steps[1]?.count;
        // Share of the instructions sampled, from the second row on (the first counts states).
        return here === undefined ? DASH : j >= 1 && sampled ? `${here} (${((100 * here) / sampled).toFixed(0)}%)` : String(here);
      }),
    ]);
    md.push(table(['check', ...funnels.map((f) => `E${f.iteration}`)], rows), '');
    for (const f of funnels) if (f.skipped) md.push(`E${f.iteration}: ${f.skipped}.`, '');
  } else md.push(report.funnel ? 'No distillation phase finished.' : 'This report predates the funnel.', '');

  md.push('## Co-evolution signature', '', "The referring styles of the planner's distilled instructions per iteration, beside the grounder's accuracy on each style (reading probe, Wilson 95% interval).", '');
  const mix = [...(report.style_mix ?? [])].sort((a, b) => a.iteration - b.iteration);
  const styleKeys = unique(keys.filter((k) => k.suite === 'styles' && k.split !== 'all').map((k) => k.split));
  const styles = unique([...styleKeys, ...mix.flatMap((m) => Object.keys(m.sampled))]);
  if (styles.length && (mix.length || iterations.length)) {
    const byK = new Map(mix.map((m) => [m.iteration, m]));
    const share = (k: number, style: string): string => {
      const m = byK.get(k);
      const total = m ? Object.values(m.sampled).reduce((a, x) => a + x, 0) : 0;
      return m && total ? `${((100 * (m.sampled[style] ?? 0)) / total).toFixed(0)}%` : DASH;
    };
    const header = ['style', ...iterations.flatMap((it) => [`planner k=${it.k}`, `grounder k=${it.k}`])];
    const rows = styles.map((style) => [style, ...iterations.flatMap((it) => [share(it.k, style), formatRate(it.metrics[`styles/${style}/accuracy`], it.n?.[`styles/${style}/accuracy`])])]);
    md.push(table(header, rows), '', 'Planner: share of its sampled instructions of each style (k = 0 has no distillation). Grounder: accuracy on the probe items of that style.', '');
  } else md.push('No style mix or per-style accuracy recorded.', '');

  md.push('## Training curves', '', 'x = global step of the phase.', '');
  const curves = Object.entries(report.curves);
  if (curves.length) {
    const rows = curves.map(([name, c]) => {
      const v = c.values.filter(Number.isFinite);
      if (!v.length) return [name, String(c.values.length), DASH, DASH, DASH, DASH];
      const { min, max } = extent(v);
      return [name, String(c.values.length), formatValue(v[0]), formatValue(v[v.length - 1]), formatValue(min), formatValue(max)];
    });
    md.push(table(['curve', 'points', 'first', 'last', 'min', 'max'], rows), '');
    for (const [name, c] of curves) {
      const { min, max } = extent(c.values.filter(Number.isFinite));
      // Losses that fall over decades are unreadable on a linear axis.
      const log = /loss$/i.test(name) && min > 0 && max / min >= 20;
      md.push(addChart(`curve-${name}`, name, [{ name, x: c.steps, y: c.values }], { title: name, xLabel: 'step', yLabel: name.split('/').pop() ?? name, yScale: log ? 'log' : 'linear' }), '');
    }
  } else md.push('No training curves recorded.', '');

  return { markdown: md.join('\n'), charts };
}
