/**
 * report.md's real-screen section: the iteration grounders' click-in-box
 * accuracy on the held-out real-screen suite per referring style and over
 * all of it (realScreenMetrics.ts keys), each with its Wilson 95% interval
 * and beside the random-control chance the suite's pages give, which is the
 * bar to beat; and why an iteration has none (an engine without a page).
 */
import type { IterationReport } from './records';
import { REAL_ACCURACY, REAL_CHANCE, REAL_SUITE, realKey } from './realScreenMetrics';
import type { ChartSeries } from './svgChart';

export interface RealScreensSection {
  /** Markdown lines; empty when no iteration grounded the suite or said why not. */
  lines: string[];
  /** Accuracy per split and iteration for a chart, each followed by its chance, dotted in the same colour. */
  series: ChartSeries[];
}

export function realScreensSection(
  iterations: readonly IterationReport[],
  table: (header: readonly string[], rows: readonly (readonly string[])[]) => string,
  formatRate: (v: number | undefined, n: number | undefined) => string,
): RealScreensSection {
  const splits = [...new Set(iterations.flatMap((it) => Object.keys(it.metrics).flatMap((k) => {
    const [suite, split, metric] = k.split('/');
    return suite === REAL_SUITE && metric === REAL_ACCURACY ? [split] : [];
  })))];
  const skipped = iterations.filter((it) => it.real_screens_skipped);
  if (!splits.length && !skipped.length) return { lines: [], series: [] };
  const lines = [
    '## Real screens',
    '',
    "The iteration's grounder on the held-out real-screen suite (fixture pages drawn by the browser, docs/real-screens.md): click-in-box accuracy of the greedy point per referring style, Wilson 95% interval in brackets, beside the random-control chance (1 / the visible controls on the page, averaged over the items).",
    '',
  ];
  // `all` last, whatever order the keys came in.
  const ordered = [...splits.filter((s) => s !== 'all'), ...splits.filter((s) => s === 'all')];
  if (ordered.length) {
    const last = (split: string, metric: string) => [...iterations].reverse().find((it) => realKey(split, metric) in it.metrics);
    const rows = ordered.map((split) => {
      const at = last(split, REAL_ACCURACY);
      const n = at?.n?.[realKey(split, REAL_ACCURACY)];
      const chance = last(split, REAL_CHANCE)?.metrics[realKey(split, REAL_CHANCE)];
      return [split, n === undefined ? '—' : String(n), chance === undefined ? '—' : chance.toFixed(3), ...iterations.map((it) => formatRate(it.metrics[realKey(split, REAL_ACCURACY)], it.n?.[realKey(split, REAL_ACCURACY)]))];
    });
    lines.push(table(['style', 'n', 'chance', ...iterations.map((it) => `k=${it.k}`)], rows), '');
  }
  for (const it of skipped) lines.push(`k=${it.k}: no real-screen figures, because ${it.real_screens_skipped}.`, '');
  const ks = iterations.map((it) => it.k);
  const series: ChartSeries[] = ordered.flatMap((split, i) => [
    { name: split, x: ks, y: iterations.map((it) => it.metrics[realKey(split, REAL_ACCURACY)]), colour: i },
    { name: `${split} chance`, x: ks, y: iterations.map((it) => it.metrics[realKey(split, REAL_CHANCE)]), colour: i, dash: 2 },
  ]);
  return { lines, series };
}
