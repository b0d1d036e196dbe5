/**
 * A comparison's rows as a Markdown table (report.md, docs, the command's
 * output). Plain text from numbers, with no tfjs behind it, so that the
 * Node script of npm run offsite can print it.
 */
import type { OffsiteComparison } from './compare';

/** The rows as a Markdown table (report.md, docs); the grounder's rate is click-in-box accuracy and its loss the SFT loss. */
export function comparisonTable(c: OffsiteComparison, metric = 'exact match', lossUnit = 'nats/token'): string {
  const pct = (x: number) => (100 * x).toFixed(1);
  const lines = [`| row | emulator (α, β) | ${metric} | 95% interval | n | loss (${lossUnit}) |`, '|---|---|---|---|---|---|'];
  for (const r of c.rows) {
    const scale = r.scale ? `${r.scale.alpha}, ${r.scale.beta}` : '—';
    lines.push(`| ${r.name} | ${scale} | ${pct(r.exact)}% | ${pct(r.interval.low)}–${pct(r.interval.high)}% | ${r.n} | ${r.loss.toFixed(3)} |`);
  }
  return lines.join('\n');
}
