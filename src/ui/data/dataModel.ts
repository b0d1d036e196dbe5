/**
 * What the data view shows of a run's samples, as pure functions: where a
 * sample came from, which filter decided its fate and why, the filters a
 * reader can apply, paging, and the per-iteration mix of referring styles
 * and sources. No Svelte and no store here, so the rules are unit-tested.
 */
import type { CurationNote, IterationReport, StepSample } from '../../coevo/records';
import type { BarStack } from '../charts/types';

/** A sample's style as the view names it: samples that name no element count as 'none'. */
export type StyleKey = NonNullable<StepSample['style']> | 'none';

export function styleOf(s: StepSample): StyleKey {
  return s.style ?? 'none';
}

/** "seed data, written by writer:terse" or "distilled at iteration 2 by planner@2". */
export function provenance(s: StepSample): string {
  return s.origin === 'seed' ? `seed data, written by ${s.source}` : `distilled at iteration ${s.iteration} by ${s.source}`;
}

/**
 * The note that decided a sample: the first drop (later filters never see a
 * dropped sample), or, for a kept one, the last keep. Null when no filter
 * looked at it.
 */
export function decidingNote(s: StepSample): CurationNote | null {
  const drop = s.curation.find((n) => n.decision === 'drop');
  if (drop) return drop;
  return s.curation.length ? s.curation[s.curation.length - 1] : null;
}

/** The kind of a reason: its text before the first colon ("wrong step", "too easy", "verifier pool agrees"). */
export function reasonKind(reason: string): string {
  const i = reason.indexOf(':');
  return (i < 0 ? reason : reason.slice(0, i)).trim();
}

/** "kept" or "dropped by misaligned". */
export function decisionLabel(s: StepSample): string {
  if (s.kept) return 'kept';
  const note = decidingNote(s);
  return note ? `dropped by ${note.stage}` : 'dropped';
}

export type KeptFilter = 'all' | 'kept' | 'dropped';

/** The data view's filters; null means "any". */
export interface DataFilters {
  iteration: number | null;
  source: string | null;
  kept: KeptFilter;
  style: StyleKey | null;
  /** The stage of the deciding note (verifier, too-easy, misaligned, diversity). */
  stage: string | null;
  /** The kind of the deciding note's reason (see reasonKind). */
  reason: string | null;
}

export const NO_FILTERS: DataFilters = { iteration: null, source: null, kept: 'all', style: null, stage: null, reason: null };

export function matches(s: StepSample, f: DataFilters): boolean {
  if (f.iteration !== null && s.iteration !== f.iteration) return false;
  if (f.source !== null && s.source !== f.source) return false;
  if (f.kept === 'kept' && !s.kept) return false;
  if (f.kept === 'dropped' && s.kept) return false;
  if (f.style !== null && styleOf(s) !== f.style) return false;
  const note = decidingNote(s);
  if (f.stage !== null && note?.stage !== f.stage) return false;
  if (f.reason !== null && (note === null || reasonKind(note.reason) !== f.reason)) return false;
  return true;
}

export function applyFilters(samples: readonly StepSample[], f: DataFilters): StepSample[] {
  return samples.filter((s) => matches(s, f));
}

/** The values each filter can take in these samples, sorted, so the selects offer only what exists. */
export interface Facets {
  iterations: number[];
  sources: string[];
  styles: StyleKey[];
  stages: string[];
  reasons: string[];
}

export function facets(samples: readonly StepSample[]): Facets {
  const iterations = new Set<number>();
  const sources = new Set<string>();
  const styles = new Set<StyleKey>();
  const stages = new Set<string>();
  const reasons = new Set<string>();
  for (const s of samples) {
    iterations.add(s.iteration);
    sources.add(s.source);
    styles.add(styleOf(s));
    const note = decidingNote(s);
    if (note) {
      stages.add(note.stage);
      reasons.add(reasonKind(note.reason));
    }
  }
  return {
    iterations: [...iterations].sort((a, b) => a - b),
    sources: [...sources].sort(bySourceOrder),
    styles: [...styles].sort(),
    stages: [...stages].sort(),
    reasons: [...reasons].sort(),
  };
}

/** Writers first, then planners by iteration ('planner@2' before 'planner@10'), then anything else by name. */
export function bySourceOrder(a: string, b: string): number {
  const rank = (s: string) => (s.startsWith('writer') ? 0 : s.startsWith('planner') ? 1 : 2);
  const num = (s: string) => Number(/@(\d+)/.exec(s)?.[1] ?? 0);
  return rank(a) - rank(b) || num(a) - num(b) || (a < b ? -1 : a > b ? 1 : 0);
}

export interface Page<T> {
  rows: T[];
  /** 0-based, clamped into range. */
  index: number;
  count: number;
  /** 1-based positions of the first and last row shown (0, 0 when empty). */
  from: number;
  to: number;
  total: number;
}

export function pageOf<T>(items: readonly T[], index: number, size: number): Page<T> {
  if (!(Number.isInteger(size) && size > 0)) throw new Error(`Page size must be a positive integer; got ${size}.`);
  const count = Math.max(1, Math.ceil(items.length / size));
  const i = Math.min(Math.max(0, Math.floor(index)), count - 1);
  const rows = items.slice(i * size, (i + 1) * size);
  return { rows, index: i, count, from: rows.length ? i * size + 1 : 0, to: i * size + rows.length, total: items.length };
}

/** Counts per category (rows) and iteration (columns), for a stacked bar chart. */
export interface Mix {
  iterations: number[];
  categories: string[];
  /** counts[c][i]: samples of categories[c] at iterations[i]. */
  counts: number[][];
}

export interface MixOptions {
  /** Count the dataset Dk (everything up to k) instead of what iteration k added. */
  cumulative: boolean;
  /** Only samples the curation kept (the training data); otherwise every sample written. */
  keptOnly: boolean;
}

/**
 * How the mix of one property changes per iteration. Iterations run from the
 * first to the last that has samples, with none skipped, so a gap shows as an
 * empty bar rather than vanishing.
 */
export function mixByIteration(samples: readonly StepSample[], key: (s: StepSample) => string, o: MixOptions, order?: (a: string, b: string) => number): Mix {
  const pool = o.keptOnly ? samples.filter((s) => s.kept) : samples;
  if (samples.length === 0) return { iterations: [], categories: [], counts: [] };
  const lo = Math.min(...samples.map((s) => s.iteration));
  const hi = Math.max(...samples.map((s) => s.iteration));
  const iterations = Array.from({ length: hi - lo + 1 }, (_, i) => lo + i);
  const categories = [...new Set(pool.map(key))].sort(order);
  const counts = categories.map(() => iterations.map(() => 0));
  for (const s of pool) {
    const c = categories.indexOf(key(s));
    const first = s.iteration - lo;
    const last = o.cumulative ? iterations.length - 1 : first;
    for (let i = first; i <= last; i++) counts[c][i]++;
  }
  return { iterations, categories, counts };
}

/** Kept and dropped per curation stage (every note counts), in the order samples meet the stages. */
export interface StageCount {
  stage: string;
  kept: number;
  dropped: number;
}

const STAGE_ORDER = ['verifier', 'too-easy', 'misaligned', 'diversity'];

export function stageCounts(samples: readonly StepSample[]): StageCount[] {
  const rows = new Map<string, StageCount>();
  for (const s of samples) {
    for (const n of s.curation) {
      const row = rows.get(n.stage) ?? { stage: n.stage, kept: 0, dropped: 0 };
      if (n.decision === 'keep') row.kept++;
      else row.dropped++;
      rows.set(n.stage, row);
    }
  }
  const rank = (x: string) => (STAGE_ORDER.includes(x) ? STAGE_ORDER.indexOf(x) : STAGE_ORDER.length);
  return [...rows.values()].sort((a, b) => rank(a.stage) - rank(b.stage) || (a.stage < b.stage ? -1 : 1));
}

/** The categories of the grounder-training chart, in stacking order. */
export const GROUNDER_SOURCES = ['loop data (Dk)', 'real web pages'] as const;

/**
 * What each iteration's grounder phase trained on (examples drawn, SFT and
 * GRPO steps together): the loop's data and real-DOM pages; iterations from
 * before the counts were kept are left out. `skipped` gives each iteration
 * whose run asked for pages but had none, with why.
 */
export function grounderTraining(iterations: readonly IterationReport[]): { stack: Omit<BarStack, 'colours'>; skipped: { k: number; why: string }[] } {
  const known = iterations.filter((it) => it.grounder_examples);
  return {
    stack: {
      bars: known.map((it) => String(it.k)),
      categories: [...GROUNDER_SOURCES],
      counts: [known.map((it) => it.grounder_examples!.loop), known.map((it) => it.grounder_examples!.real)],
    },
    skipped: known.flatMap((it) => (it.grounder_examples!.real_skipped ? [{ k: it.k, why: it.grounder_examples!.real_skipped }] : [])),
  };
}
