/**
 * The iterations whose grounder φk exists yet. φ0 is trained by the seed
 * phase sft-grounder and φk (k ≥ 1) by grounder-train; in both plans the
 * phase after it is evaluate. Offering k = 3 while iteration 1 runs left the
 * view waiting on a grounder that is not there ("Asking the grounder…").
 */
import type { CoevoProgress } from '../../../workers/api';

/** 0..(the newest trained k); empty before φ0. `lastK`: the run's K; `seenK`: the newest iteration with samples (a fallback when progress is unknown). */
export function trainedIterations(lastK: number | null, seenK: number, progress: CoevoProgress | null): number[] {
  let newest: number;
  if (!progress || progress.state === 'done') newest = Math.max(lastK ?? 0, seenK);
  else newest = progress.phase === 'evaluate' ? progress.iteration : progress.iteration - 1;
  return Array.from({ length: Math.max(0, newest + 1) }, (_, k) => k);
}
