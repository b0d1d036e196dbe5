/**
 * uPlot wants every series on one shared x array. Curves from different
 * sources (two runs, or series logged at different steps) are merged onto
 * the union of their x values, with null where a series has no point; the
 * chart then spans those gaps.
 */

export interface XYSeries {
  x: readonly number[];
  /** null or non-finite values are missing points. */
  y: readonly (number | null | undefined)[];
}

export type Aligned = [number[], ...(number | null)[][]];

export function alignSeries(series: readonly XYSeries[]): Aligned {
  const xs = [...new Set(series.flatMap((s) => s.x))].sort((a, b) => a - b);
  const at = new Map(xs.map((x, i) => [x, i]));
  const ys = series.map((s) => {
    const out: (number | null)[] = xs.map(() => null);
    s.x.forEach((x, i) => {
      const v = s.y[i];
      out[at.get(x)!] = typeof v === 'number' && Number.isFinite(v) ? v : null;
    });
    return out;
  });
  return [xs, ...ys];
}

/** How many finite points the series hold in all (what a chart actually draws). */
export function pointCount(series: readonly XYSeries[]): number {
  return series.reduce((n, s) => n + s.y.filter((v) => typeof v === 'number' && Number.isFinite(v)).length, 0);
}

/**
 * Keeps at most `max` evenly spaced points of a long curve (always the first
 * and the last), so a chart of thousands of steps stays light.
 */
export function thin<T extends XYSeries>(s: T, max: number): XYSeries {
  if (s.x.length <= max || max < 2) return s;
  const idx = Array.from({ length: max }, (_, i) => Math.round((i * (s.x.length - 1)) / (max - 1)));
  return { x: idx.map((i) => s.x[i]), y: idx.map((i) => s.y[i]) };
}

/**
 * The x range a chart shows: the x values that have a point, nothing more.
 * uPlot's own fit rounds a lone point out to a wide span (k = 0 drawn on
 * 0..100), so the range is computed here. One x gets a unit-wide band around
 * it; `pad` adds 5% either side so end points are not cut in half. null: no points.
 */
export function xSpan(series: readonly XYSeries[], pad: boolean): { lo: number; hi: number; range: [number, number] } | null {
  let lo = Infinity;
  let hi = -Infinity;
  for (const s of series)
    s.x.forEach((x, i) => {
      const v = s.y[i];
      if (typeof v !== 'number' || !Number.isFinite(v)) return;
      lo = Math.min(lo, x);
      hi = Math.max(hi, x);
    });
  if (lo > hi) return null;
  if (lo === hi) return { lo, hi, range: [lo - 0.5, hi + 0.5] };
  const p = pad ? 0.05 * (hi - lo) : 0;
  return { lo, hi, range: [lo - p, hi + p] };
}
