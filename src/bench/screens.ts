/**
 * Screens rendered per second in the worker: world screens of training
 * states through the real Canvas renderer to model pixels (the path every
 * grounder batch and neural reward takes).
 */
import { Random } from '../learn/random';
import { trainingPlannerStates } from '../learn/plannerStates';
import type { Paint } from '../learn/stepCheck';
import type { Screen } from '../world/types';

export function benchScreens(seed: number, count: number): Screen[] {
  const states = trainingPlannerStates(new Random(seed).fork('bench-screens'), count);
  if (states.length === 0) throw new Error('No training states were drawn for the screens benchmark.');
  return Array.from({ length: count }, (_, i) => states[i % states.length].screen);
}

export function timeScreens(paint: Paint, screens: readonly Screen[]): { count: number; perSecond: number; msEach: number } {
  paint(screens[0]); // first use sets up the canvas and the glyph caches
  const t0 = performance.now();
  for (const s of screens) paint(s);
  const ms = performance.now() - t0;
  return { count: screens.length, perSecond: (screens.length * 1000) / ms, msEach: ms / screens.length };
}
