/**
 * Instructions worth typing on a screen: the oracle's next step written in
 * every referring style the screen allows (the grounder's real test), or,
 * when that step needs no point (a scroll, going back), clicks on a few
 * labelled elements on show.
 */
import { Random, hashString } from '../../learn/random';
import { printInstruction } from '../../text/grammar';
import { instructionsInEveryStyle, type NextStep } from '../../world/play';
import type { Screen } from '../../world/types';
import { writeInstruction } from '../../world/writers';

const MAX = 6;

export function suggestionsFor(screen: Screen, next: NextStep, seed: number): string[] {
  const out: string[] = [];
  if (next.kind === 'step' && next.step.targetId !== undefined) {
    for (const s of Object.values(instructionsInEveryStyle(screen, next.step, seed))) if (s) out.push(s);
  }
  if (out.length === 0) {
    const rng = new Random(seed ^ hashString(screen.screenId));
    for (const el of screen.elements.filter((e) => e.interactive && (e.text || e.icon))) {
      const w = writeInstruction(screen, el, { type: 'CLICK' }, el.text ? 'text' : 'icon', rng);
      if (w) out.push(printInstruction(w.instruction));
      if (out.length >= 3) break;
    }
  }
  return [...new Set(out)].slice(0, MAX);
}
