import type { PhaseRecord } from '../store/schema';

/**
 * A phase's compute time in seconds: the runner's active time (pauses left
 * out, summed over the sittings a resumed phase ran in), else, for phases
 * stored before it was kept, start to finish. A phase resumed the next day
 * would otherwise count the night.
 */
export function phaseSeconds(p: Pick<PhaseRecord, 'startedAt' | 'finishedAt' | 'summary'>): number {
  const active = p.summary.active_seconds;
  return typeof active === 'number' && Number.isFinite(active) ? active : Math.max(0, (p.finishedAt - p.startedAt) / 1000);
}
