import type { XYSeries } from './align';

/** One line of a LineChart. */
export interface ChartLine extends XYSeries {
  /** The line's full name (for the chart's text summary). */
  label: string;
  /** Its name in the legend, when several lines share one entry (the same metric of two runs); default: label. */
  legend?: string;
  colour: string;
  /** Index into DASHES (0 = solid); a compared run is drawn dashed. */
  dash?: number;
  /** Mark every point: for per-iteration series, which have only a few. */
  points?: boolean;
  /** An interval per point (e.g. Wilson 95%), drawn as error bars; index-aligned with x, null where there is none. */
  low?: (number | null)[];
  high?: (number | null)[];
}

/** Counts per category (rows) and bar (columns), for StackedBars. */
export interface BarStack {
  /** The bars' labels along x, e.g. iteration numbers. */
  bars: string[];
  categories: string[];
  /** counts[c][b]: height of category c in bar b. */
  counts: number[][];
  colours: Record<string, string>;
}
