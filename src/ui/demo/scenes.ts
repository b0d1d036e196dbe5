/**
 * What demo mode shows when: on each phase, first the loop with the phase's
 * card, then the view where that phase's output appears with the view's card,
 * and round again while the phase lasts. A finished run rests on its metrics.
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

export function demoScene(phase: PhaseName | null, msInPhase: number): DemoScene {
  if (phase === null) return { view: 'metrics', cardId: cardForView('metrics').id };
  // A phase that just began may read a clock tick older than its start: that is time 0, not the end of a cycle.
  const t = Math.max(0, msInPhase) % (LOOP_MS + VIEW_MS);
  if (t < LOOP_MS) return { view: 'loop', cardId: cardForPhase(phase).id };
  const view = PHASE_INFO[phase].view;
  return { view, cardId: cardForView(view).id };
}
