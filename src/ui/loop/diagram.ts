/** Which parts of the loop diagram are lit, done or highlighted, from a run's progress. */
import { phasePlan } from '../../coevo/machine';
import type { PhaseName } from '../../coevo/records';
import type { CoevoProgress } from '../../../workers/api';

export type PartState = 'lit' | 'done' | 'todo';

/** K of a run, from its plan's length: four seed phases, then four per iteration. */
export function iterationsOf(p: Pick<CoevoProgress, 'phaseCount'>): number {
  return Math.max(0, Math.round((p.phaseCount - 4) / 4));
}

/**
 * State of each phase node for the iteration on show: the seed phases are
 * done once iteration 0 is past them; a loop phase is done when it already ran
 * in the current iteration (the diagram draws one iteration at a time).
 */
export function phaseStates(p: CoevoProgress | null): Record<PhaseName, PartState> {
  const out: Record<PhaseName, PartState> = {
    'seed-data': 'todo', 'sft-planner': 'todo', 'sft-grounder': 'todo', 'planner-grpo': 'todo', distill: 'todo', 'grounder-train': 'todo', evaluate: 'todo',
  };
  if (!p) return out;
  const plan = phasePlan({ iterations: iterationsOf(p) });
  const current = plan[p.phaseIndex];
  if (!current || p.phase === null) {
    for (const k of Object.keys(out) as PhaseName[]) out[k] = 'done';
    return out;
  }
  for (let i = 0; i < p.phaseIndex; i++) {
    const c = plan[i];
    if (c.iteration === 0 && c.phase !== 'evaluate') out[c.phase] = 'done';
    else if (c.iteration === current.iteration) out[c.phase] = 'done';
  }
  out[current.phase] = 'lit';
  return out;
}

/** "Iteration 2 of 3", with iteration 0 named for what it is. */
export function iterationText(p: CoevoProgress | null): string {
  if (!p) return 'No run yet';
  const iterations = iterationsOf(p);
  if (p.phase === null) return `Finished all ${iterations} iteration${iterations === 1 ? '' : 's'}`;
  return p.iteration === 0 ? `Iteration 0 of ${iterations}: the seed` : `Iteration ${p.iteration} of ${iterations}`;
}
