/**
 * How a stored offsite comparison reads to a person (the Offsite view): a
 * record still marked running is going on only while the worker that runs
 * it holds its lock; otherwise the page that ran it was reloaded or closed,
 * and the run stopped where its record says. No tfjs, no DOM.
 */
import type { OffsiteRecord } from '../store/schema';

export const offsiteLockName = (id: string): string => `coevo-offsite:${id}`;

export type OffsiteRecordStatus = 'running here' | 'running elsewhere' | 'stopped' | 'done' | 'failed';

/**
 * `runningHere`: this page's worker reports a comparison running (only the newest record can be it);
 * `heldLocks`: the Web Lock names held now in this origin.
 */
export function recordStatus(r: OffsiteRecord, newest: boolean, runningHere: boolean, heldLocks: ReadonlySet<string>): OffsiteRecordStatus {
  if (r.state !== 'running') return r.state;
  if (newest && runningHere) return 'running here';
  return heldLocks.has(offsiteLockName(r.id)) ? 'running elsewhere' : 'stopped';
}

/** One line for the history list: when, which agent and preset, and where it ended. */
export function recordLine(r: OffsiteRecord, status: OffsiteRecordStatus, locale?: string): string {
  const when = new Date(r.createdAt).toLocaleString(locale, { dateStyle: 'short', timeStyle: 'short' });
  const head = `${when} · ${r.options.agent}, ${r.options.preset}${r.options.lora ? `, LoRA rank ${r.options.lora.rank}` : ''}${r.options.privateSet === 'own-screenshots' ? ', your screenshots' : ''}`;
  switch (status) {
    case 'done':
      return `${head} · done in ${Math.round(r.report?.info.wallSeconds ?? 0)} s`;
    case 'failed':
      return `${head} · failed: ${r.error ?? 'no message'}`;
    case 'stopped':
      return `${head} · stopped at ${r.phase || 'its start'} (${r.done} of ${r.total} steps): the page was reloaded or closed`;
    case 'running elsewhere':
      return `${head} · running in another tab`;
    case 'running here':
      return `${head} · running`;
  }
}
