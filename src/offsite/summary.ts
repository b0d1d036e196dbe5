/**
 * What the issue's acceptance reads off a comparison, per emulator scale:
 * - utility: plug-in's share of full fine-tuning's gain over zero-shot, in
 *   exact match and in test loss (the loss share is steadier on few states);
 * - privacy: the gap plug-in − emulator fine-tuning, with Newcombe's interval;
 * - ScaleOT against Offsite-Tuning: plug-in − uniform-drop plug-in, likewise.
 * Every row is measured on the same test items, so where the rows keep each
 * item's hit the intervals are Newcombe's for paired data; reports written
 * before they kept them get the independent samples' interval, which is wider.
 */
import { pairedRateDifference, rateDifference, type Interval } from '../learn/stats';
import type { OffsiteComparison, OffsiteRow, RowName, Scale } from './compare';

export interface ScaleSummary {
  scale: Scale;
  /** (plug-in − zero-shot) / (full fine-tuning − zero-shot) in exact match; NaN when full fine-tuning gained nothing or lost. */
  gainShareExact: number;
  /** The same share in test loss (lower is better, so the signs flip consistently). */
  gainShareLoss: number;
  privacyGap: Difference;
  /** Null where the comparison has no uniform-drop rows (α = 0: nothing dropped). */
  overUniformDrop: Difference | null;
}

/** b − a in rate, with a 95% interval; paired when both rows kept their items' hits. */
export interface Difference {
  value: number;
  interval: Interval;
  paired: boolean;
}

/** (plug − zero) / (full − zero), higher = better; none when full fine-tuning did not improve on zero-shot (a share of a loss is no share). */
const share = (zero: number, plug: number, full: number, higherIsBetter: boolean) => {
  const gain = higherIsBetter ? full - zero : zero - full;
  return gain > 0 ? (higherIsBetter ? plug - zero : zero - plug) / gain : NaN;
};

function difference(a: OffsiteRow, b: OffsiteRow): Difference {
  const paired = !!a.hit && !!b.hit && a.hit.length === b.hit.length;
  const interval = paired ? pairedRateDifference(a.hit as boolean[], b.hit as boolean[]) : rateDifference(a.exact, a.n, b.exact, b.n);
  return { value: b.exact - a.exact, interval, paired };
}

export function summarise(c: OffsiteComparison): ScaleSummary[] {
  const once = (name: RowName) => {
    const r = c.rows.find((x) => x.name === name && !x.scale);
    if (!r) throw new Error(`summarise: no ${name} row`);
    return r;
  };
  const zero = once('zero-shot');
  const full = once('full fine-tuning');
  return c.settings.scales.map((scale) => {
    const find = (name: RowName) => c.rows.find((x) => x.name === name && x.scale?.alpha === scale.alpha && x.scale?.beta === scale.beta);
    const at = (name: RowName) => {
      const r = find(name);
      if (!r) throw new Error(`summarise: no ${name} row at α ${scale.alpha} β ${scale.beta}`);
      return r;
    };
    const plug = at('plug-in');
    const uniform = find('offsite-tuning plug-in');
    return {
      scale,
      gainShareExact: share(zero.exact, plug.exact, full.exact, true),
      gainShareLoss: share(zero.loss, plug.loss, full.loss, false),
      privacyGap: difference(at('emulator fine-tuning'), plug),
      overUniformDrop: uniform ? difference(uniform, plug) : null,
    };
  });
}

/** The summaries as Markdown lines (report.md, docs). */
export function summaryLines(s: readonly ScaleSummary[], metric = 'exact-match'): string[] {
  const pts = (x: number) => (100 * x).toFixed(1);
  const diff = (d: Difference) => `${pts(d.value)} points [${pts(d.interval.low)}, ${pts(d.interval.high)}]${d.paired ? ' (paired)' : ''}`;
  const pc = (x: number) => (Number.isFinite(x) ? `${(100 * x).toFixed(0)}%` : 'n/a (full fine-tuning gained nothing)');
  return s.map(
    (x) =>
      `- α ${x.scale.alpha}, β ${x.scale.beta}: plug-in reaches ${pc(x.gainShareExact)} of full fine-tuning's ${metric} gain (${pc(x.gainShareLoss)} of its loss gain); plug-in − emulator fine-tuning ${diff(x.privacyGap)}; plug-in − uniform-drop plug-in ${x.overUniformDrop ? diff(x.overUniformDrop) : 'n/a (nothing dropped)'}`,
  );
}
