/**
 * study.md of a seed study (seedStudy.ts): the verdict, then per config the
 * mean over seeds with its 95% t-interval per iteration, then the paired
 * differences. Pure: the caller writes the file.
 */
import type { PairedFigure, SeedFigure, SeedStudy } from './seedStudy';
import { markdownTable } from './markdownTable';
import { splitMetricKey } from './reportMarkdown';

const DASH = '—';
const signed = (x: number): string => `${x >= 0 ? '+' : '−'}${Math.abs(x).toFixed(3)}`;

/** `0.188 [0.130, 0.246] (3)`: mean, interval, seeds; one seed has a value and no interval. */
export function formatSeedFigure(f: SeedFigure | undefined, diff = false): string {
  if (!f || f.n === 0) return DASH;
  const v = diff ? signed : (x: number) => x.toFixed(3);
  const range = f.interval ? ` [${v(f.interval.low)}, ${v(f.interval.high)}]` : '';
  return `${v(f.mean)}${range} (${f.n})`;
}

const table = (header: readonly string[], rows: readonly (readonly string[])[]): string => markdownTable(header, rows, (i) => i > 0);

/** One table per suite: rows `split/metric`, a column per k. */
function suiteTables(iterations: readonly { k: number; metrics: Record<string, SeedFigure | PairedFigure> }[], diff: boolean): string[] {
  const keys = [...new Set(iterations.flatMap((it) => Object.keys(it.metrics)))];
  const suites = [...new Set(keys.map((k) => splitMetricKey(k).suite))];
  const out: string[] = [];
  for (const suite of suites) {
    const mine = keys.filter((k) => splitMetricKey(k).suite === suite);
    const rows = mine.map((key) => {
      const { split, metric } = splitMetricKey(key);
      return [split ? `${split}/${metric}` : metric, ...iterations.map((it) => formatSeedFigure(it.metrics[key], diff))];
    });
    out.push(`#### ${suite}`, '', table(['metric', ...iterations.map((it) => `k=${it.k}`)], rows), '');
  }
  return out;
}

/** `charts`: images to show after the verdict (studyCharts.ts), paths relative to study.md. */
export function studyMarkdown(study: SeedStudy, charts: readonly { path: string; alt: string }[] = []): string {
  const md: string[] = [];
  md.push(`# Seed study: preset ${study.preset}, K = ${study.iterations}, seeds ${study.seeds.join(', ')}`, '');
  md.push('## Verdict', '');
  for (const v of study.verdict) md.push(`- ${v.sentence}`);
  md.push(
    '',
    'A change or difference counts only when its 95% interval excludes 0. Intervals are Student-t over seeds (n − 1 degrees of freedom); with one seed there is no interval. Differences between configs are paired: each seed against the same seed.',
    '',
  );
  if (charts.length) {
    md.push('## Charts', '', 'Means over seeds per iteration; the bars are 95% intervals.', '');
    for (const c of charts) md.push(`![${c.alt.replace(/[[\]]/g, '')}](${c.path})`, '');
  }
  md.push('## Configs', '');
  md.push(
    table(
      ['config', 'overrides', 'runs (seed: run id)'],
      study.arms.map((a) => [a.name, a.set.length ? a.set.join(' ') : 'none', a.runs.map((r) => `${r.seed}: ${r.runId}`).join(', ') || DASH]),
    ),
    '',
  );
  for (const arm of study.arms) {
    md.push(`## ${arm.name}: mean over seeds per iteration`, '', 'Each cell: mean [95% interval] (seeds).', '');
    md.push(...(arm.iterations.length ? suiteTables(arm.iterations, false) : ['No evaluation finished.', '']));
  }
  if (study.paired) {
    const p = study.paired;
    md.push(`## Paired: ${p.a} − ${p.b}`, '', `Each cell: mean of the per-seed differences ${p.a} − ${p.b} [95% interval] (seeds both ran).`, '');
    md.push(...(p.iterations.length ? suiteTables(p.iterations, true) : ['No iteration evaluated in both configs.', '']));
  }
  return md.join('\n');
}
