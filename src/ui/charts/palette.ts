/**
 * Okabe–Ito colours, readable with every common colour-vision deficiency,
 * ordered so that neighbours differ most; yellow comes last because thin
 * yellow lines vanish on white. Past eight series, dashes tell lines apart.
 */
export const PALETTE = ['#0072B2', '#D55E00', '#009E73', '#CC79A7', '#E69F00', '#56B4E9', '#000000', '#F0E442'] as const;

/** uPlot dash patterns: solid, dashed, dotted, dash-dot. */
export const DASHES: readonly (readonly number[])[] = [[], [8, 4], [2, 3], [8, 3, 2, 3]];

export function colourAt(i: number): string {
  return PALETTE[((i % PALETTE.length) + PALETTE.length) % PALETTE.length];
}

/** A stable colour per name among `names` (the same category keeps its colour across charts of one view). */
export function colourMap(names: readonly string[]): Record<string, string> {
  return Object.fromEntries(names.map((n, i) => [n, colourAt(i)]));
}
