/**
 * The distillation funnel of one iteration: how many of πk's instructions
 * survive each check of distill.ts, in the order it runs them, so a reader
 * sees which filter is the bottleneck. Counted from the samples' curation
 * notes (every sampled instruction is stored, kept or dropped), so a run
 * stored before the funnel existed gets one too. The verifier stage's rule
 * checks are told apart by the reasons below, which distill.ts writes from
 * these same constants. Pure: no engine.
 */
import type { StepSample } from './records';

/** distill.ts's reasons for drops at the verifier stage before the pool is asked, and for repeats. */
export const REASON = {
  noTargetStep: 'the step has no target element: nothing for the grounder to learn',
  unparsed: 'does not parse as an instruction',
  wrongStepPrefix: 'wrong step: ',
  noRef: 'names no target element',
  duplicatePrefix: 'duplicate: ',
} as const;

export type FunnelKey = 'states' | 'sampled' | 'parsed' | 'right-step' | 'new' | 'verified' | 'not-too-easy' | 'aligned' | 'kept';

/** The funnel's steps in order; each count is what passed it (and every step before). */
export const FUNNEL_STEPS: readonly { key: FunnelKey; label: string }[] = [
  { key: 'states', label: 'states sampled' },
  { key: 'sampled', label: 'instructions sampled' },
  { key: 'parsed', label: 'parsed' },
  { key: 'right-step', label: 'right type/value, names a target' },
  { key: 'new', label: 'not a repeat' },
  { key: 'verified', label: 'verified by the pool' },
  { key: 'not-too-easy', label: 'not too easy' },
  { key: 'aligned', label: 'not misaligned' },
  { key: 'kept', label: 'kept by diversity' },
];

/** Summary keys the distill phase stores its funnel under: `funnel:parsed` = 412. */
export const FUNNEL_PREFIX = 'funnel:';

export interface FunnelStep {
  key: FunnelKey;
  label: string;
  count: number;
  /** The filter was switched off in the run's config, so it let everything through. */
  off?: boolean;
}

export interface DistillFunnel {
  iteration: number;
  steps: FunnelStep[];
  /** Why nothing was distilled, when the phase says so (coevo = false). */
  skipped?: string;
}

/** The funnel step a sample's first drop failed; null when it was kept. */
export function failedStep(sample: Pick<StepSample, 'kept' | 'curation'>): Exclude<FunnelKey, 'states' | 'sampled'> | null {
  const drop = sample.curation.find((n) => n.decision === 'drop');
  if (!drop) return sample.kept ? null : 'kept';
  switch (drop.stage) {
    case 'verifier':
      if (drop.reason === REASON.unparsed) return 'parsed';
      if (drop.reason === REASON.noRef || drop.reason === REASON.noTargetStep || drop.reason.startsWith(REASON.wrongStepPrefix)) return 'right-step';
      return 'verified';
    case 'too-easy':
      return 'not-too-easy';
    case 'misaligned':
      return 'aligned';
    case 'diversity':
      return drop.reason.startsWith(REASON.duplicatePrefix) ? 'new' : 'kept';
  }
}

/** Survivors of each step, from one iteration's distilled samples and the number of states they were sampled on. */
export function funnelCounts(samples: readonly Pick<StepSample, 'kept' | 'curation'>[], states: number): Record<FunnelKey, number> {
  const failedAt = new Map<FunnelKey, number>();
  for (const s of samples) {
    const at = failedStep(s);
    if (at) failedAt.set(at, (failedAt.get(at) ?? 0) + 1);
  }
  const out = { states, sampled: samples.length } as Record<FunnelKey, number>;
  let left = samples.length;
  for (const { key } of FUNNEL_STEPS.slice(2)) {
    left -= failedAt.get(key) ?? 0;
    out[key] = left;
  }
  return out;
}

/** The distill phase's summary entries for a funnel. */
export function funnelSummary(counts: Record<FunnelKey, number>): Record<string, number> {
  return Object.fromEntries(FUNNEL_STEPS.map(({ key }) => [FUNNEL_PREFIX + key, counts[key]]));
}

/** A funnel stored in a phase summary, when every step is there; else null (a run from before it was stored). */
export function funnelFromSummary(summary: Record<string, number | string>): Record<FunnelKey, number> | null {
  const out = {} as Record<FunnelKey, number>;
  for (const { key } of FUNNEL_STEPS) {
    const v = summary[FUNNEL_PREFIX + key];
    if (typeof v !== 'number') return null;
    out[key] = v;
  }
  return out;
}

/** Which filters a config switched off: the curation block of a co-evolution config, read leniently (a report's config is plain JSON). */
export function filtersOff(config: Record<string, unknown>): Set<FunnelKey> {
  const c = config.curation;
  const off = new Set<FunnelKey>();
  if (c === null || typeof c !== 'object') return off;
  const cur = c as Record<string, unknown>;
  if (cur.tooEasy === false) off.add('not-too-easy');
  if (cur.misaligned === false) off.add('aligned');
  if (cur.diversity === false) off.add('kept');
  return off;
}

/** Counts as funnel steps with their labels. */
export function funnelSteps(counts: Record<FunnelKey, number>, off: ReadonlySet<FunnelKey> = new Set()): FunnelStep[] {
  return FUNNEL_STEPS.map(({ key, label }) => ({ key, label, count: counts[key], ...(off.has(key) ? { off: true } : {}) }));
}
