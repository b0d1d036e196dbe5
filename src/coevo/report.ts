/**
 * The report of a run (report.json, and what the UI shows), built from what
 * the store holds, so that a finished, resumed or imported run reports the
 * same way. Phase records carry their headline numbers in `summary`; the
 * key conventions below are the contract between the engine, which writes
 * them, and this report, which reads them.
 */
import type { PhaseRecord, RunRecord, MetricRecord } from '../store/schema';
import { phaseSeconds } from './phaseTime';
import { filtersOff, funnelCounts, funnelFromSummary, funnelSteps, type DistillFunnel, type FunnelKey } from './funnel';
import type { CoevoReport, IterationReport, StepSample, SuiteMetrics } from './records';
import { REAL_SKIPPED } from './realScreenMetrics';
import { grounderExamplesFromSummary } from './grounderExamples';

/** Prefix of an evaluate phase's summary keys: `metric:web/cross-domain/step_success` = 0.42. */
export const METRIC_PREFIX = 'metric:';
/** Prefix of a metric's n beside it: `n:web/cross-domain/step_success` = 19 (runs before it have none). */
export const COUNT_PREFIX = 'n:';
/** Planner GRPO phase summary: mean plan reward of its sampled instructions. */
export const REWARD_MEAN = 'reward_mean';
/** Planner GRPO phase summary: share of groups whose rewards were not all equal. */
export const INFORMATIVE_RATIO = 'informative_ratio';

/**
 * The summary an evaluate phase commits for its suite metrics and, where
 * given, each one's n; refuses keys not shaped suite/split/metric, values
 * outside [0, 1] and counts that are not whole numbers ≥ 1 of a metric given.
 */
export function evaluateSummary(metrics: SuiteMetrics, counts: Record<string, number> = {}): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [key, value] of Object.entries(metrics)) {
    if (!/^[^/\s]+\/[^/\s]+\/[^/\s]+$/.test(key)) throw new Error(`Metric key "${key}" is not of the form suite/split/metric.`);
    if (!(value >= 0 && value <= 1)) throw new Error(`Metric ${key} = ${value} is not a fraction in [0, 1].`);
    out[METRIC_PREFIX + key] = value;
  }
  for (const [key, n] of Object.entries(counts)) {
    if (!(key in metrics)) throw new Error(`Count for ${key}, which is not a metric of this evaluation.`);
    if (!(Number.isInteger(n) && n >= 1)) throw new Error(`Count of ${key} = ${n} is not a whole number ≥ 1.`);
    out[COUNT_PREFIX + key] = n;
  }
  return out;
}

/** Each metric's n as an evaluate phase's summary holds it (empty for runs from before counts were kept). */
export function countsFromSummary(summary: PhaseRecord['summary']): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [key, value] of Object.entries(summary)) {
    if (key.startsWith(COUNT_PREFIX) && typeof value === 'number') out[key.slice(COUNT_PREFIX.length)] = value;
  }
  return out;
}

/** The suite metrics an evaluate phase's summary holds. */
export function metricsFromSummary(summary: PhaseRecord['summary']): SuiteMetrics {
  const out: SuiteMetrics = {};
  for (const [key, value] of Object.entries(summary)) {
    if (key.startsWith(METRIC_PREFIX) && typeof value === 'number') out[key.slice(METRIC_PREFIX.length)] = value;
  }
  return out;
}

/** The summary a planner GRPO phase commits (its own extra keys may sit beside these). */
export function grpoSummary(s: { rewardMean: number; informativeRatio: number }): Record<string, number> {
  return { [REWARD_MEAN]: s.rewardMean, [INFORMATIVE_RATIO]: s.informativeRatio };
}

/** What the report reads: the Store has these. */
export interface ReportSource {
  getRun(id: string): Promise<RunRecord | undefined>;
  listPhases(runId: string): Promise<PhaseRecord[]>;
  getSamples(runId: string): Promise<StepSample[]>;
  getMetrics(runId: string): Promise<MetricRecord[]>;
}

/** Stages in the order a sample meets them; unknown ones follow by name. */
const STAGE_ORDER = ['verifier', 'too-easy', 'misaligned', 'diversity'];

/**
 * The report of one run. Datasets: for each iteration k from 0 to the last
 * one with samples or an evaluation, `kept` = |Dk| (kept samples with
 * iteration ≤ k), `size` = every sample recorded up to k (kept and
 * dropped), and bySource / byStyle break Dk down (style null counts as
 * 'none').
 */
export async function buildReport(store: ReportSource, runId: string, device: { backend: string; adapter: string }): Promise<CoevoReport> {
  const run = await store.getRun(runId);
  if (!run) throw new Error(`No run with id ${runId}, so there is nothing to report.`);
  const [phases, samples, metrics] = await Promise.all([store.listPhases(runId), store.getSamples(runId), store.getMetrics(runId)]);
  phases.sort((a, b) => a.index - b.index);

  const lastOf = (name: PhaseRecord['phase']) => {
    const byIteration = new Map<number, PhaseRecord>();
    for (const p of phases) if (p.phase === name) byIteration.set(p.iteration, p); // a later index wins
    return byIteration;
  };
  const evaluations = lastOf('evaluate');
  const grpo = lastOf('planner-grpo');
  const grounderPhases = new Map([...lastOf('sft-grounder'), ...lastOf('grounder-train')]);
  const numberIn = (p: PhaseRecord | undefined, key: string) => (typeof p?.summary[key] === 'number' ? (p.summary[key] as number) : null);

  const iterations: IterationReport[] = [...evaluations.keys()]
    .sort((a, b) => a - b)
    .map((k) => {
      const summary = evaluations.get(k)!.summary;
      const n = countsFromSummary(summary);
      const realSkipped = summary[REAL_SKIPPED];
      const trained = grounderPhases.get(k);
      const examples = trained ? grounderExamplesFromSummary(trained.summary) : null;
      return {
        k,
        planner_reward_mean: k === 0 ? null : numberIn(grpo.get(k), REWARD_MEAN),
        metrics: metricsFromSummary(summary),
        ...(Object.keys(n).length ? { n } : {}),
        ...(examples ? { grounder_examples: examples } : {}),
        ...(typeof realSkipped === 'string' ? { real_screens_skipped: realSkipped } : {}),
      };
    });

  const informative = [...grpo.entries()]
    .sort(([a], [b]) => a - b)
    .flatMap(([iteration, p]) => {
      const value = numberIn(p, INFORMATIVE_RATIO);
      return value === null ? [] : [{ iteration, value }];
    });

  const lastIteration = Math.max(-1, ...samples.map((s) => s.iteration), ...evaluations.keys());
  const datasets: CoevoReport['datasets'] = [];
  for (let k = 0; k <= lastIteration; k++) {
    const upTo = samples.filter((s) => s.iteration <= k);
    const kept = upTo.filter((s) => s.kept);
    datasets.push({ iteration: k, size: upTo.length, kept: kept.length, bySource: tally(kept.map((s) => s.source)), byStyle: tally(kept.map((s) => s.style ?? 'none')) });
  }

  const config: Record<string, unknown> = typeof run.config.json === 'string' ? (JSON.parse(run.config.json) as Record<string, unknown>) : { ...run.config };
  return {
    version: 1,
    runId,
    // A co-evolution run keeps its whole (nested) config as JSON beside flat copies of its fields.
    config,
    device: { ...device },
    timings: phases.map((p) => ({ iteration: p.iteration, phase: p.phase, seconds: phaseSeconds(p) })),
    iterations,
    datasets,
    curation: curationCounts(samples),
    funnel: distillFunnels(lastOf('distill'), samples, filtersOff(config)),
    style_mix: styleMix(samples),
    informative_group_ratio: informative,
    curves: Object.fromEntries([...metrics].sort((a, b) => (a.name < b.name ? -1 : 1)).map((m) => [m.name, { steps: [...m.steps], values: [...m.values] }])),
  };
}

function tally(keys: string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const k of [...keys].sort()) out[k] = (out[k] ?? 0) + 1;
  return out;
}

/** Kept and dropped per (iteration, stage), from every sample's curation notes. */
function curationCounts(samples: readonly StepSample[]): CoevoReport['curation'] {
  const counts = new Map<string, { iteration: number; stage: string; kept: number; dropped: number }>();
  for (const s of samples) {
    for (const note of s.curation) {
      const key = `${s.iteration}\u0000${note.stage}`;
      const row = counts.get(key) ?? { iteration: s.iteration, stage: note.stage, kept: 0, dropped: 0 };
      if (note.decision === 'keep') row.kept++;
      else row.dropped++;
      counts.set(key, row);
    }
  }
  const rank = (stage: string) => (STAGE_ORDER.includes(stage) ? STAGE_ORDER.indexOf(stage) : STAGE_ORDER.length);
  return [...counts.values()].sort((a, b) => a.iteration - b.iteration || rank(a.stage) - rank(b.stage) || (a.stage < b.stage ? -1 : a.stage > b.stage ? 1 : 0));
}

/**
 * The funnel of each finished distill phase: its stored counts, or for a
 * run from before they were stored, counts from its samples' notes and the
 * states it recorded.
 */
function distillFunnels(phases: ReadonlyMap<number, PhaseRecord>, samples: readonly StepSample[], off: ReadonlySet<FunnelKey>): DistillFunnel[] {
  return [...phases.entries()]
    .sort(([a], [b]) => a - b)
    .map(([iteration, p]) => {
      const stored = funnelFromSummary(p.summary);
      const states = typeof p.summary.states === 'number' ? p.summary.states : 0;
      const counts = stored ?? funnelCounts(samples.filter((s) => s.iteration === iteration && s.origin === 'distilled'), states);
      const skipped = typeof p.summary.skipped === 'string' ? p.summary.skipped : undefined;
      return { iteration, steps: funnelSteps(counts, off), ...(skipped ? { skipped } : {}) };
    });
}

/** The referring styles πk wrote in its distilled instructions (every sampled one, and the kept ones), per iteration k ≥ 1; null style counts as 'none'. */
function styleMix(samples: readonly StepSample[]): NonNullable<CoevoReport['style_mix']> {
  const distilled = samples.filter((s) => s.origin === 'distilled');
  return [...new Set(distilled.map((s) => s.iteration))]
    .sort((a, b) => a - b)
    .map((iteration) => {
      const mine = distilled.filter((s) => s.iteration === iteration);
      return { iteration, sampled: tally(mine.map((s) => s.style ?? 'none')), kept: tally(mine.filter((s) => s.kept).map((s) => s.style ?? 'none')) };
    });
}
