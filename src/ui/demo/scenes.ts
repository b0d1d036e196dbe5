/**
 * What demo mode shows when: on each phase, first the loop with the phase's
 * card, then the view where that phase's output appears with the view's card,
 * and round again while the phase lasts. A finished run is walked view by
 * view, starting on its metrics, with each view's card.
 */
import type { PhaseName } from '../../coevo/records';
import { PHASE_INFO } from '../loop/phases';
import { cardForPhase, cardForView } from '../explain/cards';
import type { ViewName } from '../url';

export interface DemoScene {
  view: ViewName;
  cardId: string;
}

/** Long enough to read a card aloud on a projector. */
export const LOOP_MS = 12_000;
export const VIEW_MS = 18_000;

/** The views a finished run is shown in, in order: first the charts, then where each result comes from. */
export const FINISHED_TOUR: readonly ViewName[] = ['metrics', 'grpo', 'grounder', 'data', 'playground'];

/** The scene `msInPhase` after the phase began; a finished run (phase null) counts from when it was shown. */
export function demoScene(phase: PhaseName | null, msInPhase: number): DemoScene {
  if (phase === null) {
    const view = FINISHED_TOUR[Math.floor(Math.max(0, msInPhase) / VIEW_MS) % FINISHED_TOUR.length];
    return { view, cardId: cardForView(view).id };
  }
  // A phase that just began may read a clock tick older than its start: that is time 0, not the end of a cycle.
  const t = Math.max(0, msInPhase) % (LOOP_MS + VIEW_MS);
  if (t < LOOP_MS) return { view: 'loop', cardId: cardForPhase(phase).id };
  const view = PHASE_INFO[phase].view;
  return { view, cardId: cardForView(view).id };
}
