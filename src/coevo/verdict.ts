/**
 * The verdict a report opens with: one sentence per half of the loop and
 * one for the two together, worded from its figures and the 95% interval of
 * the change, so that a reader need not read seventeen charts to know
 * whether co-evolution did anything.
 * A change counts only when its interval excludes 0; otherwise the sentence
 * says "no measurable change", whatever the point estimate. Pure.
 */
import { rateDifference, sign, wilsonOfRate, type Interval } from '../learn/stats';
import type { CoevoReport } from './records';

/**
 * The headline figure of each half: the planner's web step success, the
 * grounder's held-out grounding accuracy; and of the two together (`pair`),
 * online task success, where every step needs both.
 */
export const HEADLINE = {
  planner: { key: 'web/all/step_success', label: 'web step success', unit: 'steps', who: 'Planner' },
  grounder: { key: 'grounding/all/accuracy', label: 'held-out grounding accuracy', unit: 'queries', who: 'Grounder' },
  pair: { key: 'online/all/task_success', label: 'online task success', unit: 'episodes', who: 'Both agents' },
} as const;

/** A headline: one half of the loop, or `pair` for both agents at once. */
export type Half = keyof typeof HEADLINE;
export type Direction = 'improved' | 'got worse' | 'no measurable change' | 'not measured';

export interface HalfVerdict {
  half: Half;
  direction: Direction;
  sentence: string;
}

const points = (x: number): string => `${x >= 0 ? '+' : '−'}${Math.abs(100 * x).toFixed(1)}`;
const pointInterval = (i: Interval): string => `[${points(i.low)}, ${points(i.high)}]`;
const fraction = (x: number): string => x.toFixed(3);

/** improved / got worse / no measurable change, from where the interval of a difference lies. */
export function direction(interval: Interval | null): Direction {
  if (!interval) return 'no measurable change';
  const s = sign(interval);
  return s === 'above' ? 'improved' : s === 'below' ? 'got worse' : 'no measurable change';
}

/** "+6.1 points, 95% interval [+2.3, +9.8]", or the change and why it has no interval. */
export function describeChange(diff: number, interval: Interval | null, why: string): string {
  return interval ? `${points(diff)} points, 95% interval ${pointInterval(interval)}` : `${points(diff)} points, no interval (${why})`;
}

export const capital = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);

/**
 * One run, k = 0 against its last evaluation, each figure a rate over n
 * items with Newcombe's interval of the difference (the items are the same
 * at every k, so this treats paired data as unpaired: a conservative width).
 */
export function runVerdict(report: Pick<CoevoReport, 'iterations'>): HalfVerdict[] {
  const its = [...report.iterations].sort((a, b) => a.k - b.k);
  return (Object.keys(HEADLINE) as Half[]).map((half) => {
    const { key, label, unit, who } = HEADLINE[half];
    const measured = its.filter((it) => Number.isFinite(it.metrics[key]));
    if (measured.length < 2) return { half, direction: 'not measured', sentence: `${who}: ${label} is not measured at two iterations yet, so there is no change to judge.` };
    const a = measured[0];
    const b = measured[measured.length - 1];
    const [va, vb] = [a.metrics[key], b.metrics[key]];
    const [na, nb] = [a.n?.[key], b.n?.[key]];
    const interval = na && nb ? rateDifference(va, na, vb, nb) : null;
    const d = direction(interval);
    const nText = na && nb ? (na === nb ? ` (n = ${na} ${unit} each)` : ` (n = ${na} and ${nb} ${unit})`) : '';
    const cite = (v: number, n: number | undefined) => {
      if (!n) return fraction(v);
      const i = wilsonOfRate(v, n);
      return `${fraction(v)} [${fraction(i.low)}, ${fraction(i.high)}]`;
    };
    return {
      half,
      direction: d,
      sentence: `${who}: ${d}. ${capital(label)} went from ${cite(va, na)} at k=${a.k} to ${cite(vb, nb)} at k=${b.k}: ${describeChange(vb - va, interval, 'this run did not record n')}${nText}.`,
    };
  });
}

/**
 * Two runs (e.g. the full loop against its coevo = false ablation), each
 * half at the last k both evaluated: A − B with Newcombe's interval. One
 * seed each, so this says whether the two runs differ beyond their
 * evaluation noise, not whether the configs do: a seed study
 * (seedStudy.ts) answers that.
 */
export function versusVerdict(a: Pick<CoevoReport, 'iterations'>, b: Pick<CoevoReport, 'iterations'>, names = { a: 'A', b: 'B' }): HalfVerdict[] {
  return (Object.keys(HEADLINE) as Half[]).map((half) => {
    const { key, label, unit, who } = HEADLINE[half];
    const bAt = new Map(b.iterations.filter((it) => Number.isFinite(it.metrics[key])).map((it) => [it.k, it]));
    const common = a.iterations.filter((it) => Number.isFinite(it.metrics[key]) && bAt.has(it.k)).sort((x, y) => x.k - y.k);
    const ia = common[common.length - 1];
    if (!ia) return { half, direction: 'not measured', sentence: `${who} against ${names.b}: ${label} is not measured at a common k.` };
    const ib = bAt.get(ia.k)!;
    const [va, vb, na, nb] = [ia.metrics[key], ib.metrics[key], ia.n?.[key], ib.n?.[key]];
    const interval = na && nb ? rateDifference(vb, nb, va, na) : null;
    const d = direction(interval);
    const verb = d === 'improved' ? `${names.a} is above ${names.b}` : d === 'got worse' ? `${names.a} is below ${names.b}` : `no measurable difference between ${names.a} and ${names.b}`;
    const nText = na && nb ? ` (n = ${na} and ${nb} ${unit})` : '';
    return {
      half,
      direction: d,
      sentence: `${who}: ${verb}. ${capital(label)} at k=${ia.k}: ${fraction(va)} against ${fraction(vb)}, ${describeChange(va - vb, interval, 'a run did not record n')}${nText}; one seed each.`,
    };
  });
}
