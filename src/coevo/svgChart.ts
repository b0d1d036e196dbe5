/**
 * A small line chart as a standalone SVG document, for report.md: it has to
 * render in any Markdown viewer without scripts, so it is plain SVG with a
 * white background, its own axes, and a legend under the plot.
 */

export interface ChartSeries {
  name: string;
  x: readonly number[];
  /** Non-finite or missing values are gaps: the line breaks there. */
  y: readonly (number | null | undefined)[];
  /** Palette index and dash index, to make related series look related (default: by position). */
  colour?: number;
  dash?: number;
}

export interface ChartOptions {
  title: string;
  xLabel?: string;
  yLabel?: string;
  /** Width of the whole picture in pixels (default 640). */
  width?: number;
  /** Height of the plot area in pixels; the legend adds to it (default 240). */
  plotHeight?: number;
  /** The y range always includes these (e.g. 0 and 1 for fractions). */
  yMin?: number;
  yMax?: number;
  /** 'log' draws log10(y) and skips values ≤ 0; for losses that fall over decades. */
  yScale?: 'linear' | 'log';
  /** Only integer x ticks (iteration numbers). */
  integerX?: boolean;
  /** Longer series are thinned to this many evenly spaced points (default 400). */
  maxPoints?: number;
}

/** Okabe–Ito colours (readable with colour-blindness), then dash patterns once they run out. */
const COLOURS = ['#0072b2', '#d55e00', '#009e73', '#cc79a7', '#e69f00', '#56b4e9', '#000000'];
const DASHES = ['', '6 3', '2 3', '8 3 2 3'];

function look(s: ChartSeries, i: number): { colour: string; dash: string } {
  const c = s.colour ?? i % COLOURS.length;
  const d = s.dash ?? Math.floor(i / COLOURS.length);
  return { colour: COLOURS[c % COLOURS.length], dash: DASHES[d % DASHES.length] };
}

const MARGIN = { left: 56, right: 16, top: 30, bottom: 40 };
const LEGEND_ROW = 16;
const LEGEND_COLUMN = 280;
const CHAR_WIDTH = 6.2; // average glyph width of 11 px sans-serif, for truncating legend names

export function escapeXml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

const px = (v: number): string => String(Math.round(v * 10) / 10);

/** Evenly spaced "nice" tick values (1, 2 or 5 × 10^n apart) covering [lo, hi]. */
export function niceTicks(lo: number, hi: number, target = 5, integer = false): number[] {
  if (!(hi > lo)) return [lo];
  const raw = (hi - lo) / target;
  const mag = 10 ** Math.floor(Math.log10(raw));
  let step = [1, 2, 5, 10].map((m) => m * mag).find((s) => s >= raw) ?? 10 * mag;
  if (integer) step = Math.max(1, Math.round(step));
  const ticks: number[] = [];
  // Multiples of the step, rounded, so that 3 × 0.2 reads 0.6 and not 0.6000000000000001.
  for (let i = Math.ceil(lo / step - 1e-9); i * step <= hi + step * 1e-9; i++) ticks.push(Number((i * step).toPrecision(12)));
  return ticks;
}

function formatTick(v: number, step: number): string {
  if (Math.abs(v) >= 1e4) return `${+(v / 1000).toPrecision(4)}k`;
  const decimals = step > 0 ? Math.max(0, Math.min(6, -Math.floor(Math.log10(step) + 1e-9))) : 2;
  return v.toFixed(decimals);
}

/** Indices of at most `max` evenly spaced points, always including the first and the last. */
function thin(n: number, max: number): number[] {
  if (n <= max || max < 2) return Array.from({ length: n }, (_, i) => i);
  const out: number[] = [];
  for (let j = 0; j < max; j++) out.push(Math.round((j * (n - 1)) / (max - 1)));
  return out;
}

interface Extent {
  lo: number;
  hi: number;
}

function widen(e: Extent, fixedLo: number | undefined, fixedHi: number | undefined): Extent {
  let { lo, hi } = e;
  if (fixedLo !== undefined) lo = Math.min(lo, fixedLo);
  if (fixedHi !== undefined) hi = Math.max(hi, fixedHi);
  if (hi === lo) {
    const pad = Math.abs(lo) * 0.1 || 0.5;
    lo -= pad;
    hi += pad;
  }
  return { lo, hi };
}

/** One series' points in data space, split into runs at gaps (non-finite values). */
function runsOf(s: ChartSeries, log: boolean, maxPoints: number): [number, number][][] {
  const n = Math.min(s.x.length, s.y.length);
  const runs: [number, number][][] = [];
  let run: [number, number][] = [];
  for (const i of thin(n, maxPoints)) {
    const x = s.x[i];
    const raw = s.y[i];
    const y = raw === null || raw === undefined ? NaN : log ? (raw > 0 ? Math.log10(raw) : NaN) : raw;
    if (Number.isFinite(x) && Number.isFinite(y)) run.push([x, y]);
    else if (run.length) {
      runs.push(run);
      run = [];
    }
  }
  if (run.length) runs.push(run);
  return runs;
}

/** Renders the series as one SVG document (a string starting with `<svg`). */
export function lineChartSvg(series: readonly ChartSeries[], options: ChartOptions): string {
  const width = options.width ?? 640;
  const plotH = options.plotHeight ?? 240;
  const log = options.yScale === 'log';
  const maxPoints = options.maxPoints ?? 400;
  const plotW = width - MARGIN.left - MARGIN.right;
  const columns = Math.max(1, Math.floor(plotW / LEGEND_COLUMN));
  const legendRows = Math.ceil(series.length / columns);
  const height = MARGIN.top + plotH + MARGIN.bottom + legendRows * LEGEND_ROW + (legendRows ? 6 : 0);

  const allRuns = series.map((s) => runsOf(s, log, maxPoints));
  const points = allRuns.flat(2);
  const parts: string[] = [];
  parts.push(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="11">`,
    `<title>${escapeXml(options.title)}</title>`,
    `<rect x="0" y="0" width="${width}" height="${height}" fill="#ffffff"/>`,
    `<text x="${px(width / 2)}" y="18" text-anchor="middle" font-size="13" font-weight="bold">${escapeXml(options.title)}</text>`,
  );

  const left = MARGIN.left;
  const top = MARGIN.top;
  const bottom = top + plotH;
  const right = left + plotW;
  parts.push(`<rect x="${left}" y="${top}" width="${plotW}" height="${plotH}" fill="none" stroke="#888888"/>`);

  if (points.length === 0) {
    parts.push(`<text x="${px(left + plotW / 2)}" y="${px(top + plotH / 2)}" text-anchor="middle" fill="#666666">no data</text>`);
  } else {
    const xs = points.map((p) => p[0]);
    const ys = points.map((p) => p[1]);
    const fixLo = options.yMin === undefined ? undefined : log ? (options.yMin > 0 ? Math.log10(options.yMin) : undefined) : options.yMin;
    const fixHi = options.yMax === undefined ? undefined : log ? (options.yMax > 0 ? Math.log10(options.yMax) : undefined) : options.yMax;
    const x0 = Math.min(...xs);
    const x1 = Math.max(...xs);
    // Iterations get a margin so that markers at the first and last k do not sit on the frame.
    const xe = options.integerX ? (x0 === x1 ? { lo: x0 - 0.5, hi: x1 + 0.5 } : { lo: x0 - 0.15 * Math.min(1, x1 - x0), hi: x1 + 0.15 * Math.min(1, x1 - x0) }) : widen({ lo: x0, hi: x1 }, undefined, undefined);
    const ye = widen({ lo: Math.min(...ys), hi: Math.max(...ys) }, fixLo, fixHi);
    if (!log) {
      // Out to the nearest ticks, so the lines do not touch the frame.
      const t = niceTicks(ye.lo, ye.hi);
      const step = t.length > 1 ? t[1] - t[0] : 0;
      if (step > 0) {
        ye.lo = Math.floor(ye.lo / step + 1e-9) * step;
        ye.hi = Math.ceil(ye.hi / step - 1e-9) * step;
      }
    } else {
      // Whole decades, so that every tick is a power of ten inside the plot.
      ye.lo = Math.floor(ye.lo);
      ye.hi = Math.max(Math.ceil(ye.hi), ye.lo + 1);
    }
    const sx = (x: number): number => left + ((x - xe.lo) / (xe.hi - xe.lo)) * plotW;
    const sy = (y: number): number => bottom - ((y - ye.lo) / (ye.hi - ye.lo)) * plotH;

    const yTicks = log ? niceTicks(ye.lo, ye.hi, 5, true) : niceTicks(ye.lo, ye.hi);
    const yStep = yTicks.length > 1 ? yTicks[1] - yTicks[0] : Math.abs(ye.hi - ye.lo);
    for (const t of yTicks) {
      const y = px(sy(t));
      const label = log ? formatTick(10 ** t, 10 ** Math.min(t, 0)) : formatTick(t, yStep);
      parts.push(`<line x1="${left}" y1="${y}" x2="${right}" y2="${y}" stroke="#e4e4e4"/>`);
      parts.push(`<text x="${left - 4}" y="${y}" text-anchor="end" dominant-baseline="middle">${label}</text>`);
    }
    const xTicks = niceTicks(xe.lo, xe.hi, 6, options.integerX ?? false).filter((t) => !options.integerX || Number.isInteger(t));
    const xStep = xTicks.length > 1 ? xTicks[1] - xTicks[0] : 1;
    for (const t of xTicks) {
      const x = px(sx(t));
      parts.push(`<line x1="${x}" y1="${bottom}" x2="${x}" y2="${bottom + 4}" stroke="#888888"/>`);
      parts.push(`<text x="${x}" y="${bottom + 15}" text-anchor="middle">${formatTick(t, xStep)}</text>`);
    }

    allRuns.forEach((runs, i) => {
      const { colour, dash } = look(series[i], i);
      const dashAttr = dash ? ` stroke-dasharray="${dash}"` : '';
      const count = runs.reduce((n, r) => n + r.length, 0);
      for (const run of runs) {
        if (run.length > 1) {
          const d = run.map(([x, y], j) => `${j ? 'L' : 'M'}${px(sx(x))} ${px(sy(y))}`).join('');
          parts.push(`<path d="${d}" fill="none" stroke="${colour}" stroke-width="1.8"${dashAttr}/>`);
        }
        // Few points get markers, and a lone point (between gaps) needs one to be seen at all.
        if (count <= 30 || run.length === 1) {
          for (const [x, y] of run) parts.push(`<circle cx="${px(sx(x))}" cy="${px(sy(y))}" r="2.8" fill="${colour}"/>`);
        }
      }
    });
  }

  if (options.xLabel) parts.push(`<text x="${px(left + plotW / 2)}" y="${bottom + 32}" text-anchor="middle" fill="#444444">${escapeXml(options.xLabel)}</text>`);
  if (options.yLabel) {
    const label = options.yLabel + (log ? ' (log scale)' : '');
    parts.push(`<text transform="translate(14 ${px(top + plotH / 2)}) rotate(-90)" text-anchor="middle" fill="#444444">${escapeXml(label)}</text>`);
  }

  const maxChars = Math.floor((LEGEND_COLUMN - 30) / CHAR_WIDTH);
  series.forEach((s, i) => {
    const { colour, dash } = look(s, i);
    const x = left + (i % columns) * LEGEND_COLUMN;
    const y = bottom + MARGIN.bottom + 6 + Math.floor(i / columns) * LEGEND_ROW;
    const name = s.name.length > maxChars ? `${s.name.slice(0, maxChars - 1)}…` : s.name;
    parts.push(`<line x1="${x}" y1="${y}" x2="${x + 20}" y2="${y}" stroke="${colour}" stroke-width="2"${dash ? ` stroke-dasharray="${dash}"` : ''}/>`);
    parts.push(`<text x="${x + 25}" y="${y}" dominant-baseline="middle">${escapeXml(name)}</text>`);
  });

  parts.push('</svg>');
  return parts.join('\n') + '\n';
}
