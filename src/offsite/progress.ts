/**
 * The progress a running comparison reports, kept from its phase and step
 * callbacks: the phase's own steps, and the whole run's training steps for
 * one bar and an ETA. Evaluations count no steps, so the pace (elapsed over
 * steps done) carries their time too.
 */
import { IDLE_OFFSITE, type OffsiteProgress } from './jobTypes';

export interface OffsiteTracker {
  /** A phase starts, so the one before has ended; '' ends the last one. */
  onPhase(phase: string): void;
  onProgress(phase: string, step: number, steps: number): void;
  progress(): OffsiteProgress;
}

export function offsiteTracker(total: number, now: () => number): OffsiteTracker {
  const start = now();
  let doneBefore = 0; // training steps of the phases finished
  let p: OffsiteProgress = { ...IDLE_OFFSITE, state: 'running', total };
  return {
    onPhase(phase) {
      doneBefore += p.step;
      const finished = p.phase === '' ? p.finished : [...p.finished, { phase: p.phase, atMs: now() - start }];
      p = { ...p, phase, step: 0, steps: 0, done: doneBefore, finished };
    },
    onProgress(phase, step, steps) {
      p = { ...p, phase, step, steps, done: doneBefore + step };
    },
    progress() {
      const elapsedMs = now() - start;
      const etaMs = p.done > 0 ? (elapsedMs / p.done) * Math.max(0, p.total - p.done) : null;
      return { ...p, elapsedMs, etaMs };
    },
  };
}
