/**
 * What the metrics view charts, as pure functions of reports: which panels
 * the suite metrics (keys `suite/split/metric`, METHOD.md §6) fall into,
 * which training curves go together, and the lines of each panel for one run
 * or for two runs overlaid (the compared run dashed, in the same colours).
 */
import type { CoevoReport, IterationReport } from '../../coevo/records';
import { wilsonOfRate } from '../../learn/stats';
import type { ChartLine } from '../charts/types';
import { colourAt } from '../charts/palette';

export interface MetricKey {
  suite: string;
  split: string;
  metric: string;
}

export function parseMetricKey(key: string): MetricKey | null {
  const parts = key.split('/');
  if (parts.length !== 3 || parts.some((p) => p === '')) return null;
  return { suite: parts[0], split: parts[1], metric: parts[2] };
}

/** Suites, splits and metrics in the order METHOD.md §6 lists them; unknown ones follow by name. */
const SUITES = ['web', 'mobile', 'planner', 'grounding', 'online', 'styles', 'reading', 'real'];
const SPLITS = [
  'cross-task', 'cross-site', 'cross-domain', 'high', 'low', 'web-text', 'web-icon', 'mobile-text', 'mobile-icon',
  'text', 'icon', 'position', 'relation', 'color', 'function', 'all', 'web', 'mobile', 'cells', 'glyphs',
];
const METRICS = [
  'element_accuracy', 'operation_f1', 'step_success', 'task_success', 'exact', 'type_accuracy', 'value_f1', 'parse_sampled', 'prompts_cut',
  'grounding_accuracy', 'step_accuracy', 'accuracy', 'role_accuracy', 'letter_f1', 'top1',
];

/**
 * Suites charted a panel per metric with a line per split: the planner's
 * own figures differ in kind (a match rate, an F1, a share of cut prompts),
 * and what matters is how each one compares across splits.
 */
const PER_METRIC_SUITES = new Set(['planner']);

const SUITE_TITLES: Record<string, string> = {
  web: 'Web tasks (as Mind2Web)',
  mobile: 'Mobile tasks (as AndroidControl)',
  grounding: 'Grounding queries (as ScreenSpot)',
  online: 'Online task success',
  styles: 'Reading probe: grounding by referring style',
  reading: 'Reading probe: what the grounder reads',
  planner: 'Planner alone',
  real: 'Real screens: click-in-box per style (dotted: chance)',
};

const METRIC_TITLES: Record<string, string> = {
  exact: 'action type and target',
  type_accuracy: 'action type',
  value_f1: 'value (token F1)',
  parse_sampled: 'sampled instructions that parse',
  prompts_cut: 'prompts cut to fit',
};

const SPLIT_TITLES: Record<string, string> = {
  high: 'high level (goal only)',
  low: 'low level (goal + step instruction)',
  cells: 'per cell',
  glyphs: 'glyph reader (character at each glyph position)',
};

function rankIn(list: readonly string[], x: string): number {
  const i = list.indexOf(x);
  return i < 0 ? list.length : i;
}

function ordered(list: readonly string[], xs: Iterable<string>): string[] {
  return [...new Set(xs)].sort((a, b) => rankIn(list, a) - rankIn(list, b) || (a < b ? -1 : a > b ? 1 : 0));
}

export function humanise(name: string): string {
  return name.replace(/_/g, ' ');
}

/**
 * Suites whose `chance` metric is a reference level, not a result: drawn
 * dotted in its split's colour beside that split's accuracy, once however
 * many runs are overlaid (it is the suite's, the same for every run).
 */
const REFERENCE_METRIC: Record<string, { metric: string; reference: string }> = { real: { metric: 'accuracy', reference: 'chance' } };
const REFERENCE_DASH = 2;

/** One chart of suite metrics: its lines are metric keys. */
export interface SuitePanel {
  id: string;
  suite: string;
  title: string;
  lines: { key: string; label: string; colour: string; reference?: boolean }[];
}

/**
 * Panels for the metric keys present. A suite with several metrics per split
 * gets a panel per split (lines = metrics, each metric the same colour in
 * every split); a suite with one metric (grounding accuracy, online task
 * success) gets one panel whose lines are its splits; the planner's figures
 * get a panel per metric (lines = splits, each split the same colour in
 * every panel).
 */
export function suitePanels(keys: Iterable<string>): SuitePanel[] {
  const parsed = [...new Set(keys)].map((k) => ({ key: k, m: parseMetricKey(k) })).filter((p): p is { key: string; m: MetricKey } => p.m !== null);
  const panels: SuitePanel[] = [];
  for (const suite of ordered(SUITES, parsed.map((p) => p.m.suite))) {
    const mine = parsed.filter((p) => p.m.suite === suite);
    const metrics = ordered(METRICS, mine.map((p) => p.m.metric));
    const splits = ordered(SPLITS, mine.map((p) => p.m.split));
    const title = SUITE_TITLES[suite] ?? suite;
    const ref = REFERENCE_METRIC[suite];
    if (ref) {
      const has = (key: string) => mine.some((p) => p.key === key);
      const lines = splits.flatMap((split, i) => [
        { key: `${suite}/${split}/${ref.metric}`, label: split, colour: colourAt(i) },
        { key: `${suite}/${split}/${ref.reference}`, label: `${split} ${ref.reference}`, colour: colourAt(i), reference: true },
      ]).filter((l) => has(l.key));
      panels.push({ id: suite, suite, title, lines });
      continue;
    }
    if (PER_METRIC_SUITES.has(suite)) {
      for (const metric of metrics) {
        const lines = splits
          .map((split, i) => ({ key: `${suite}/${split}/${metric}`, label: split, colour: colourAt(i) }))
          .filter((l) => mine.some((p) => p.key === l.key));
        panels.push({ id: `${suite}/${metric}`, suite, title: `${title}: ${METRIC_TITLES[metric] ?? humanise(metric)}`, lines });
      }
      continue;
    }
    if (metrics.length === 1) {
      const lines = splits.map((split, i) => ({ key: `${suite}/${split}/${metrics[0]}`, label: split, colour: colourAt(i) }));
      panels.push({ id: suite, suite, title: `${title}: ${humanise(metrics[0])}`, lines });
      continue;
    }
    for (const split of splits) {
      const lines = metrics
        .map((metric, i) => ({ key: `${suite}/${split}/${metric}`, label: humanise(metric), colour: colourAt(i) }))
        .filter((l) => mine.some((p) => p.key === l.key));
      panels.push({ id: `${suite}/${split}`, suite, title: `${title}: ${SPLIT_TITLES[split] ?? split}`, lines });
    }
  }
  return panels;
}

/** Every metric key any of the reports holds at any iteration. */
export function metricKeys(reports: readonly CoevoReport[]): string[] {
  return [...new Set(reports.flatMap((r) => r.iterations.flatMap((it) => Object.keys(it.metrics))))];
}

/** A run as a chart source: its report, its name in legends, and its dash (0 = solid). */
export interface ChartRun {
  label: string;
  report: CoevoReport;
  dash: number;
}

function runSuffix(runs: readonly ChartRun[], r: ChartRun): string {
  return runs.length > 1 ? ` · ${r.label}` : '';
}

/** The Wilson 95% interval of a metric at one iteration, when the run recorded its n. */
export function metricInterval(it: IterationReport, key: string): { low: number; high: number } | null {
  const v = it.metrics[key];
  const n = it.n?.[key];
  return Number.isFinite(v) && n ? wilsonOfRate(v, n) : null;
}

/** A suite panel's lines for each run: x = iteration k, y = the metric (missing iterations are gaps), with Wilson error bars where n is known. */
export function suiteLines(panel: SuitePanel, runs: readonly ChartRun[]): ChartLine[] {
  return runs.flatMap((r, j) =>
    panel.lines.flatMap((l): ChartLine[] => {
      if (l.reference) {
        if (j > 0) return [];
        return [{ label: l.label, colour: l.colour, dash: REFERENCE_DASH, x: r.report.iterations.map((it) => it.k), y: r.report.iterations.map((it) => it.metrics[l.key] ?? null) }];
      }
      const intervals = r.report.iterations.map((it) => metricInterval(it, l.key));
      return [{
        label: l.label + runSuffix(runs, r),
        legend: l.label,
        colour: l.colour,
        dash: r.dash,
        points: true,
        x: r.report.iterations.map((it) => it.k),
        y: r.report.iterations.map((it) => it.metrics[l.key] ?? null),
        ...(intervals.some((i) => i !== null) ? { low: intervals.map((i) => i?.low ?? null), high: intervals.map((i) => i?.high ?? null) } : {}),
      }];
    }),
  );
}

/** The styles of the co-evolution signature, in REF_STYLES order first, then any other by name. */
export function signatureStyles(report: CoevoReport, order: readonly string[]): string[] {
  const fromMix = (report.style_mix ?? []).flatMap((m) => Object.keys(m.sampled));
  const fromProbe = metricKeys([report]).flatMap((k) => {
    const m = parseMetricKey(k);
    return m && m.suite === 'styles' && m.split !== 'all' ? [m.split] : [];
  });
  return ordered(order, [...fromMix, ...fromProbe]);
}

/** Per-iteration GRPO numbers: the planner's mean plan reward and the informative-group ratio. */
export function grpoIterationLines(runs: readonly ChartRun[]): ChartLine[] {
  return runs.flatMap((r) => [
    {
      label: 'planner reward (mean)' + runSuffix(runs, r),
      legend: 'planner reward (mean)',
      colour: colourAt(0),
      dash: r.dash,
      points: true,
      x: r.report.iterations.map((it) => it.k),
      y: r.report.iterations.map((it) => it.planner_reward_mean),
    },
    {
      label: 'informative groups' + runSuffix(runs, r),
      legend: 'informative groups',
      colour: colourAt(1),
      dash: r.dash,
      points: true,
      x: r.report.informative_group_ratio.map((p) => p.iteration),
      y: r.report.informative_group_ratio.map((p) => p.value),
    },
  ]);
}

/** One chart of training curves (series that measure the same thing, e.g. every loss). */
export interface CurvePanel {
  id: string;
  title: string;
  yLabel: string;
  logY: boolean;
  /** Fractions share a fixed 0..1 axis. */
  fraction: boolean;
  names: string[];
}

/** Curves grouped by what they measure: the last part of the series name ('planner-grpo/kl' → kl). */
const CURVE_KINDS: { kind: string; title: string; yLabel: string; logY: boolean; fraction: boolean }[] = [
  { kind: 'loss', title: 'Supervised training loss', yLabel: 'loss (log)', logY: true, fraction: false },
  { kind: 'reward', title: 'Mean reward per batch', yLabel: 'reward', logY: false, fraction: false },
  { kind: 'kl', title: 'KL to the reference policy', yLabel: 'KL', logY: false, fraction: false },
  { kind: 'informative', title: 'Informative-group ratio per batch', yLabel: 'share of groups', logY: false, fraction: true },
  { kind: 'kept', title: 'Attention filter: share of samples kept', yLabel: 'share kept', logY: false, fraction: true },
];

export function curvePanels(names: Iterable<string>): CurvePanel[] {
  const all = [...new Set(names)].sort();
  const kindOf = (n: string) => n.slice(n.lastIndexOf('/') + 1);
  const panels: CurvePanel[] = [];
  // A GRPO loss is a surrogate objective that goes negative: it gets its own linear chart, apart from the cross-entropy losses.
  const grpoLoss = (n: string) => kindOf(n) === 'loss' && n.includes('grpo');
  for (const k of CURVE_KINDS) {
    const mine = all.filter((n) => kindOf(n) === k.kind && !grpoLoss(n));
    if (mine.length) panels.push({ id: k.kind, title: k.title, yLabel: k.yLabel, logY: k.logY, fraction: k.fraction, names: mine });
    if (k.kind === 'loss' && all.some(grpoLoss)) {
      panels.push({ id: 'grpo-loss', title: 'GRPO objective (surrogate loss)', yLabel: 'loss', logY: false, fraction: false, names: all.filter(grpoLoss) });
    }
  }
  const known = new Set(CURVE_KINDS.map((k) => k.kind));
  for (const n of all.filter((x) => !known.has(kindOf(x)))) {
    panels.push({ id: n, title: n, yLabel: kindOf(n), logY: false, fraction: false, names: [n] });
  }
  return panels;
}

/** A curve panel's lines for each run; each series keeps one colour across runs (by its place among every curve name). */
export function curveLines(panel: CurvePanel, runs: readonly ChartRun[], allNames: readonly string[]): ChartLine[] {
  return runs.flatMap((r) =>
    panel.names.flatMap((name) => {
      const c = r.report.curves[name];
      if (!c) return [];
      return [{ label: name + runSuffix(runs, r), legend: name, colour: colourAt(allNames.indexOf(name)), dash: r.dash, x: c.steps, y: c.values }];
    }),
  );
}

/** One row of the comparison table: a metric at each run's last evaluated iteration. */
export interface CompareRow {
  key: string;
  a: number | null;
  b: number | null;
  /** b − a, when both exist. */
  delta: number | null;
}

export function compareFinal(a: CoevoReport, b: CoevoReport): { ka: number | null; kb: number | null; rows: CompareRow[] } {
  const lastA = a.iterations.at(-1);
  const lastB = b.iterations.at(-1);
  // Chance levels are the suite's, not a run's: nothing to compare.
  const keys = suitePanels(metricKeys([a, b])).flatMap((p) => p.lines.filter((l) => !l.reference).map((l) => l.key));
  const rows = keys.map((key) => {
    const va = lastA?.metrics[key] ?? null;
    const vb = lastB?.metrics[key] ?? null;
    return { key, a: va, b: vb, delta: va !== null && vb !== null ? vb - va : null };
  });
  return { ka: lastA?.k ?? null, kb: lastB?.k ?? null, rows };
}
