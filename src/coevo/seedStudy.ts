/**
 * Several seeds of one config, and optionally the same seeds of a second
 * config: per iteration and metric the mean over seeds with a Student-t 95%
 * interval, and the paired difference A − B seed by seed (same seed, so the
 * same suites and the same seed data) with its t-interval. With one seed
 * there is no spread to build an interval from, and the study says so
 * instead of inventing one. Pure: it reads reports, it runs nothing.
 */
import { meanInterval, type MeanInterval } from '../learn/stats';
import type { CoevoReport } from './records';
import { capital, describeChange, direction, HEADLINE, type Direction, type Half } from './verdict';

/** One finished run of the study. */
export interface SeedRun {
  seed: number;
  report: Pick<CoevoReport, 'runId' | 'iterations'>;
}

/** A metric over seeds: each seed's value, in seed order, and their mean with its interval. */
export interface SeedFigure extends MeanInterval {
  seeds: number[];
  values: number[];
}

/** One config over its seeds. */
export interface ArmSummary {
  name: string;
  /** The config overrides that make it, e.g. ['coevo=false']; empty for the config as given. */
  set: string[];
  runs: { seed: number; runId: string }[];
  /** Per k, per metric key: only seeds that measured the metric at that k count. */
  iterations: { k: number; metrics: Record<string, SeedFigure> }[];
}

export interface PairedFigure extends SeedFigure {
  /** Why there is no interval, when there is none. */
  note?: string;
}

export interface PairedSummary {
  a: string;
  b: string;
  /** Per k, per metric key, the per-seed differences A − B over the seeds both measured. */
  iterations: { k: number; metrics: Record<string, PairedFigure> }[];
}

export interface StudyVerdict {
  half: Half;
  /** 'over k' (k = 0 → K in arm A) or 'against B' (A − B at k = K). */
  comparison: 'over k' | 'against B';
  direction: Direction;
  sentence: string;
}

export interface SeedStudy {
  version: 1;
  preset: string;
  iterations: number;
  seeds: number[];
  arms: ArmSummary[];
  paired?: PairedSummary;
  verdict: StudyVerdict[];
}

export const TOO_FEW_SEEDS = 'one seed: a t-interval needs at least two';

const figure = (pairs: readonly { seed: number; value: number }[]): SeedFigure => {
  const sorted = [...pairs].sort((x, y) => x.seed - y.seed);
  return { seeds: sorted.map((p) => p.seed), values: sorted.map((p) => p.value), ...meanInterval(sorted.map((p) => p.value)) };
};

function metricOf(run: SeedRun, k: number, key: string): number | undefined {
  const v = run.report.iterations.find((it) => it.k === k)?.metrics[key];
  return Number.isFinite(v) ? v : undefined;
}

function checkSeeds(runs: readonly SeedRun[], what: string): void {
  const seen = new Set<number>();
  for (const r of runs) {
    if (seen.has(r.seed)) throw new Error(`${what}: seed ${r.seed} appears twice; each seed is one run.`);
    seen.add(r.seed);
  }
}

const ksOf = (runs: readonly SeedRun[]): number[] => [...new Set(runs.flatMap((r) => r.report.iterations.map((it) => it.k)))].sort((a, b) => a - b);
const keysAt = (runs: readonly SeedRun[], k: number): string[] => [...new Set(runs.flatMap((r) => Object.keys(r.report.iterations.find((it) => it.k === k)?.metrics ?? {})))].sort();

/** Mean and t-interval over seeds, per k and metric. */
export function summariseArm(name: string, set: readonly string[], runs: readonly SeedRun[]): ArmSummary {
  checkSeeds(runs, `arm ${name}`);
  return {
    name,
    set: [...set],
    runs: [...runs].sort((a, b) => a.seed - b.seed).map((r) => ({ seed: r.seed, runId: r.report.runId })),
    iterations: ksOf(runs).map((k) => ({
      k,
      metrics: Object.fromEntries(
        keysAt(runs, k).map((key) => [key, figure(runs.flatMap((r) => (metricOf(r, k, key) === undefined ? [] : [{ seed: r.seed, value: metricOf(r, k, key)! }])))]),
      ),
    })),
  };
}

function paired(pairs: readonly { seed: number; value: number }[]): PairedFigure {
  const f = figure(pairs);
  if (f.n === 0) return { ...f, note: 'no seed measured it in both configs' };
  return f.n < 2 ? { ...f, note: TOO_FEW_SEEDS } : f;
}

/** A − B per seed both ran, per k and metric; seeds that only one config finished are left out. */
export function pairRuns(aName: string, a: readonly SeedRun[], bName: string, b: readonly SeedRun[]): PairedSummary {
  checkSeeds(a, `arm ${aName}`);
  checkSeeds(b, `arm ${bName}`);
  const bBySeed = new Map(b.map((r) => [r.seed, r]));
  const both = a.filter((r) => bBySeed.has(r.seed));
  const ks = ksOf(both).filter((k) => ksOf(b).includes(k));
  return {
    a: aName,
    b: bName,
    iterations: ks.map((k) => ({
      k,
      metrics: Object.fromEntries(
        [...new Set([...keysAt(both, k), ...keysAt(b, k)])].sort().map((key) => {
          const pairs = both.flatMap((r) => {
            const x = metricOf(r, k, key);
            const y = metricOf(bBySeed.get(r.seed)!, k, key);
            return x === undefined || y === undefined ? [] : [{ seed: r.seed, value: x - y }];
          });
          return [key, paired(pairs)];
        }),
      ),
    })),
  };
}

/** Per seed, the change of a metric from the first k to the last k every seed reached. */
export function changeOverK(runs: readonly SeedRun[], key: string): { from: number; to: number; change: PairedFigure } | null {
  const common = ksOf(runs).filter((k) => runs.every((r) => metricOf(r, k, key) !== undefined));
  if (common.length < 2) return null;
  const from = common[0];
  const to = common[common.length - 1];
  return { from, to, change: paired(runs.map((r) => ({ seed: r.seed, value: metricOf(r, to, key)! - metricOf(r, from, key)! }))) };
}

const seedsText = (f: SeedFigure): string => `${f.n} seed${f.n === 1 ? '' : 's'}`;

/**
 * One sentence per headline (verdict.ts HEADLINE: each half, and the two
 * together) over k (arm A, mean of the per-seed changes) and, with a
 * second arm, one per headline against it at the last k.
 */
export function studyVerdict(a: { name: string; runs: readonly SeedRun[] }, b?: { name: string; runs: readonly SeedRun[]; paired: PairedSummary }): StudyVerdict[] {
  const out: StudyVerdict[] = [];
  for (const half of Object.keys(HEADLINE) as Half[]) {
    const { key, label, who } = HEADLINE[half];
    const over = changeOverK(a.runs, key);
    if (!over) out.push({ half, comparison: 'over k', direction: 'not measured', sentence: `${who}: ${label} is not measured at two iterations in every seed of ${a.name}.` });
    else {
      const c = over.change;
      const d = direction(c.interval);
      out.push({
        half,
        comparison: 'over k',
        direction: d,
        sentence: `${who}: ${d}. ${capital(label)} k=${over.from} → k=${over.to} in ${a.name}, mean change over ${seedsText(c)}: ${describeChange(c.mean, c.interval, c.note ?? '')}.`,
      });
    }
    if (!b) continue;
    const last = b.paired.iterations[b.paired.iterations.length - 1];
    const f = last?.metrics[key];
    if (!last || !f || f.n === 0) {
      out.push({ half, comparison: 'against B', direction: 'not measured', sentence: `${who} against ${b.name}: ${label} is not measured at a common k in both.` });
      continue;
    }
    const d = direction(f.interval);
    const verb = d === 'improved' ? `${a.name} is above ${b.name}` : d === 'got worse' ? `${a.name} is below ${b.name}` : `no measurable difference between ${a.name} and ${b.name}`;
    out.push({
      half,
      comparison: 'against B',
      direction: d,
      sentence: `${who}: ${verb}. ${capital(label)} at k=${last.k}, ${a.name} − ${b.name} paired by seed over ${seedsText(f)}: ${describeChange(f.mean, f.interval, f.note ?? '')}.`,
    });
  }
  return out;
}

/** The whole study from finished runs: arm A, and arm B with its pairing when given. */
export function buildStudy(o: {
  preset: string;
  iterations: number;
  seeds: readonly number[];
  a: { name: string; set: readonly string[]; runs: readonly SeedRun[] };
  b?: { name: string; set: readonly string[]; runs: readonly SeedRun[] };
}): SeedStudy {
  const arms = [summariseArm(o.a.name, o.a.set, o.a.runs)];
  let pairedSummary: PairedSummary | undefined;
  if (o.b) {
    arms.push(summariseArm(o.b.name, o.b.set, o.b.runs));
    pairedSummary = pairRuns(o.a.name, o.a.runs, o.b.name, o.b.runs);
  }
  return {
    version: 1,
    preset: o.preset,
    iterations: o.iterations,
    seeds: [...o.seeds],
    arms,
    ...(pairedSummary ? { paired: pairedSummary } : {}),
    verdict: studyVerdict(o.a, o.b && pairedSummary ? { ...o.b, paired: pairedSummary } : undefined),
  };
}

