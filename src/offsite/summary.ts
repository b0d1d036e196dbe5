/**
 * What the acceptance reads off a comparison, per emulator scale:
 * - utility: plug-in's share of full fine-tuning's gain over zero-shot, in
 *   exact match and in test loss (the loss share is steadier on few states);
 * - privacy: the gap plug-in − emulator fine-tuning, with Newcombe's interval;
 * - ScaleOT against Offsite-Tuning: plug-in − uniform-drop plug-in, likewise.
 * The intervals treat the rows as independent samples, which is
 * conservative: every row is measured on the same test states.
 */
import { rateDifference, type Interval } from '../learn/stats';
import type { OffsiteComparison, OffsiteRow, RowName, Scale } from './compare';

export interface ScaleSummary {
  scale: Scale;
  /** (plug-in − zero-shot) / (full fine-tuning − zero-shot) in exact match; NaN when full fine-tuning gained nothing. */
  gainShareExact: number;
  /** The same share in test loss (lower is better, so the signs flip consistently). */
  gainShareLoss: number;
  privacyGap: { value: number; interval: Interval };
  overUniformDrop: { value: number; interval: Interval };
}

const share = (zero: number, plug: number, full: number) => (full === zero ? NaN : (plug - zero) / (full - zero));

function difference(a: OffsiteRow, b: OffsiteRow): { value: number; interval: Interval } {
  return { value: b.exact - a.exact, interval: rateDifference(a.exact, a.n, b.exact, b.n) };
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
    const at = (name: RowName) => {
      const r = c.rows.find((x) => x.name === name && x.scale?.alpha === scale.alpha && x.scale?.beta === scale.beta);
      if (!r) throw new Error(`summarise: no ${name} row at α ${scale.alpha} β ${scale.beta}`);
      return r;
    };
    const plug = at('plug-in');
    return {
      scale,
      gainShareExact: share(zero.exact, plug.exact, full.exact),
      gainShareLoss: share(zero.loss, plug.loss, full.loss),
      privacyGap: difference(at('emulator fine-tuning'), plug),
      overUniformDrop: difference(at('offsite-tuning plug-in'), plug),
    };
  });
}

/** The summaries as Markdown lines (report.md, docs). */
export function summaryLines(s: readonly ScaleSummary[]): string[] {
  const pts = (x: number) => (100 * x).toFixed(1);
  const diff = (d: { value: number; interval: Interval }) => `${pts(d.value)} points [${pts(d.interval.low)}, ${pts(d.interval.high)}]`;
  const pc = (x: number) => (Number.isFinite(x) ? `${(100 * x).toFixed(0)}%` : 'n/a (no gain to share)');
  return s.map(
    (x) =>
      `- α ${x.scale.alpha}, β ${x.scale.beta}: plug-in reaches ${pc(x.gainShareExact)} of full fine-tuning's exact-match gain (${pc(x.gainShareLoss)} of its loss gain); plug-in − emulator fine-tuning ${diff(x.privacyGap)}; plug-in − uniform-drop plug-in ${diff(x.overUniformDrop)}`,
  );
}
