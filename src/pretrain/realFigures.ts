/**
 * The base manifest's rows for the held-out real-screen suite (issue 30):
 * click-in-box per instruction style, per look and over all pages, each
 * with n, its Wilson 95% interval and the random-control chance (the one to
 * beat: 1 / the visible controls on the page, as the reading probe counts).
 */
import type { RealFigure, RealScreenFigures } from '../realScreens/score';
import type { BaseFigure } from './baseTypes';

/** The prefix every real-screen row's name starts with, so readers can tell them from the world's probe. */
export const REAL_FIGURE_PREFIX = 'real screens: click-in-box';

function row(name: string, f: RealFigure): BaseFigure {
  return { model: 'grounder', name: `${REAL_FIGURE_PREFIX}, ${name}`, value: f.accuracy, chance: f.chanceControls, n: f.n, low: f.interval.low, high: f.interval.high };
}

export function realSuiteFigures(f: RealScreenFigures): BaseFigure[] {
  return [
    ...Object.entries(f.byStyle).map(([style, g]) => row(`${style} style`, g as RealFigure)),
    ...Object.entries(f.byLook).map(([look, g]) => row(`${look} look`, g as RealFigure)),
    row(`all (${f.pages} page${f.pages === 1 ? '' : 's'})`, f.overall),
  ];
}
