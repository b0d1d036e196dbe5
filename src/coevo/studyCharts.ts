/**
 * The charts of study.md: for each headline metric, the mean over seeds per
 * iteration of each config with its 95% interval drawn as a bar at each k,
 * and the paired difference A − B with its interval against zero, so a
 * reader sees at a glance whether the ablation's line leaves the full loop's
 * band. Pure: the caller writes the SVGs.
 */
import { slug, type ChartFile } from './reportMarkdown';
import type { PairedFigure, SeedFigure, SeedStudy } from './seedStudy';
import { lineChartSvg, type ChartSeries } from './svgChart';
import { HEADLINE } from './verdict';

export interface StudyChart extends ChartFile {
  alt: string;
}

/** The metrics charted: the verdict's, and the reading probe the loop must not erode. */
const CHARTED: readonly { key: string; label: string }[] = [
  ...Object.values(HEADLINE).map(({ key, label }) => ({ key, label })),
  { key: 'reading/glyphs/top1', label: 'glyph reading (top-1)' },
];

type Figures = readonly { k: number; metrics: Record<string, SeedFigure | PairedFigure> }[];

/** Mean line, and the intervals as vertical bars (pairs of points split by gaps) in the same colour. */
function meanAndBars(name: string, its: Figures, key: string, colour: number): ChartSeries[] {
  const rows = its.filter((it) => it.metrics[key] && it.metrics[key].n > 0);
  const mean: ChartSeries = { name, x: rows.map((it) => it.k), y: rows.map((it) => it.metrics[key].mean), colour, dash: 0 };
  const x: number[] = [];
  const y: (number | null)[] = [];
  for (const it of rows) {
    const iv = it.metrics[key].interval;
    if (!iv) continue;
    x.push(it.k, it.k, it.k);
    y.push(iv.low, iv.high, null);
  }
  return x.length ? [mean, { name: `${name}: 95% interval`, x, y, colour, dash: 2 }] : [mean];
}

export function studyCharts(study: SeedStudy, chartDir = 'charts'): StudyChart[] {
  const dir = chartDir.replace(/\/+$/, '');
  const out: StudyChart[] = [];
  for (const { key, label } of CHARTED) {
    const series = study.arms.flatMap((arm, i) => meanAndBars(arm.name, arm.iterations, key, i));
    if (!series.some((s) => s.y.length > 0)) continue;
    const title = `${label}: mean over seeds ${study.seeds.join(', ')}`;
    out.push({ path: `${dir}/${slug(key)}.svg`, alt: title, svg: lineChartSvg(series, { title, xLabel: 'iteration k', integerX: true, yMin: 0, yMax: 1 }) });
    const p = study.paired;
    if (!p) continue;
    const diff = meanAndBars(`${p.a} − ${p.b}`, p.iterations, key, 2);
    if (diff[0].y.length === 0) continue;
    const ks = diff[0].x;
    const zero: ChartSeries = { name: 'no difference', x: ks, y: ks.map(() => 0), colour: 6, dash: 1 };
    const dTitle = `${label}: paired difference ${p.a} − ${p.b}`;
    out.push({ path: `${dir}/${slug(key)}-paired.svg`, alt: dTitle, svg: lineChartSvg([...diff, zero], { title: dTitle, xLabel: 'iteration k', integerX: true }) });
  }
  return out;
}
