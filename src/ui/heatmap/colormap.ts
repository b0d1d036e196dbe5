/**
 * The heat map's colours: viridis, which stays ordered in lightness for every
 * common colour-vision deficiency and in greyscale. Values are the map
 * divided by its maximum (as the attention filter normalises it), so the
 * grounder's favourite cell is always the brightest; low values fade out so
 * the screen stays readable under the map.
 */

/** Viridis at 0, 0.1, …, 1 (matplotlib's table, sampled). */
const VIRIDIS: readonly (readonly [number, number, number])[] = [
  [68, 1, 84],
  [72, 36, 117],
  [65, 68, 135],
  [53, 95, 141],
  [42, 120, 142],
  [33, 145, 140],
  [34, 168, 132],
  [68, 191, 112],
  [122, 209, 81],
  [189, 223, 38],
  [253, 231, 37],
];

/** The viridis colour at v ∈ [0, 1] (clamped), linearly interpolated. */
export function viridis(v: number): [number, number, number] {
  const t = Math.min(1, Math.max(0, Number.isFinite(v) ? v : 0)) * (VIRIDIS.length - 1);
  const i = Math.min(VIRIDIS.length - 2, Math.floor(t));
  const f = t - i;
  const a = VIRIDIS[i];
  const b = VIRIDIS[i + 1];
  return [Math.round(a[0] + (b[0] - a[0]) * f), Math.round(a[1] + (b[1] - a[1]) * f), Math.round(a[2] + (b[2] - a[2]) * f)];
}

/** A CSS linear-gradient of the colormap, for the legend. */
export function viridisGradient(direction = 'to right'): string {
  return `linear-gradient(${direction}, ${VIRIDIS.map((c, i) => `rgb(${c.join(' ')}) ${(i * 100) / (VIRIDIS.length - 1)}%`).join(', ')})`;
}

/** The largest value of a map (0 for an empty or all-zero one). */
export function mapMax(heat: ArrayLike<number>): number {
  let max = 0;
  for (let i = 0; i < heat.length; i++) if (heat[i] > max) max = heat[i];
  return max;
}

/**
 * RGBA pixels of a map, one pixel per cell: colour by the max-normalised
 * value, opacity by `opacity` × its square root (faint cells let the screen
 * through; the square root keeps mid values visible).
 */
export function heatPixels(heat: ArrayLike<number>, opacity: number): Uint8ClampedArray<ArrayBuffer> {
  const max = mapMax(heat);
  const out = new Uint8ClampedArray(heat.length * 4);
  if (max <= 0) return out;
  const a = Math.min(1, Math.max(0, opacity)) * 255;
  for (let i = 0; i < heat.length; i++) {
    const v = heat[i] / max;
    const [r, g, b] = viridis(v);
    out[i * 4] = r;
    out[i * 4 + 1] = g;
    out[i * 4 + 2] = b;
    out[i * 4 + 3] = Math.round(a * Math.sqrt(v));
  }
  return out;
}
