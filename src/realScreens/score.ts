/**
 * The real-screen suite's figures: click-inside-box accuracy (the
 * ScreenSpot measure, the same rule as evalGrounder.ts: the greedy point
 * counts when it lies in the target's box, edges included) per instruction
 * style, per look and overall, each with n, a 95% Wilson interval and the
 * chance levels of screen.ts. Pure numbers: the worker fills in the points.
 */
import { insideBox } from '../learn/rewards';
import { wilson, type Interval } from '../learn/stats';
import { REF_STYLES, type RefStyle } from '../world/types';
import { LOOKS, type Look, type Pattern, type RealBox } from './types';

/** One grounding of one instruction on one page. */
export interface RealGrounding {
  pageId: string;
  look: Look;
  pattern: Pattern;
  style: RefStyle;
  instruction: string;
  box: RealBox;
  point: { x: number; y: number };
  chanceControls: number;
  chanceArea: number;
}

export interface RealFigure {
  n: number;
  hits: number;
  accuracy: number;
  interval: Interval;
  /** Mean over items of 1 / visible controls on the page. */
  chanceControls: number;
  /** Mean over items of the target's share of the screen's area. */
  chanceArea: number;
}

export interface RealScreenFigures {
  pages: number;
  overall: RealFigure;
  byStyle: Partial<Record<RefStyle, RealFigure>>;
  byLook: Partial<Record<Look, RealFigure>>;
}

export function hitOf(g: Pick<RealGrounding, 'point' | 'box'>): boolean {
  return insideBox(g.point, g.box);
}

function figure(items: readonly RealGrounding[]): RealFigure {
  const n = items.length;
  const hits = items.filter(hitOf).length;
  const mean = (f: (g: RealGrounding) => number) => (n ? items.reduce((s, g) => s + f(g), 0) / n : 0);
  return { n, hits, accuracy: n ? hits / n : 0, interval: wilson(hits, n), chanceControls: mean((g) => g.chanceControls), chanceArea: mean((g) => g.chanceArea) };
}

/** Figures per key, in the order of `keys` (so tables and charts read the same every time). */
function groupBy<K extends string>(items: readonly RealGrounding[], keys: readonly K[], key: (g: RealGrounding) => K): Partial<Record<K, RealFigure>> {
  const out: Partial<Record<K, RealFigure>> = {};
  for (const k of keys) {
    const gs = items.filter((g) => key(g) === k);
    if (gs.length > 0) out[k] = figure(gs);
  }
  return out;
}

export function realScreenFigures(items: readonly RealGrounding[]): RealScreenFigures {
  return {
    pages: new Set(items.map((g) => g.pageId)).size,
    overall: figure(items),
    byStyle: groupBy(items, REF_STYLES, (g) => g.style),
    byLook: groupBy(items, LOOKS, (g) => g.look),
  };
}

const pct = (x: number) => `${(100 * x).toFixed(1)}%`;

/** A markdown table of the figures, for logs, reports and docs. */
export function figuresTable(f: RealScreenFigures): string {
  const row = (name: string, g: RealFigure) =>
    `| ${name} | ${g.n} | ${g.hits} | ${pct(g.accuracy)} | ${pct(g.interval.low)}–${pct(g.interval.high)} | ${pct(g.chanceControls)} | ${pct(g.chanceArea)} |`;
  const lines = ['| instructions | n | hits | click-in-box | 95% Wilson | chance (random control) | chance (random point) |', '|---|---|---|---|---|---|---|'];
  for (const [k, g] of Object.entries(f.byStyle)) if (g) lines.push(row(`${k} style`, g));
  for (const [k, g] of Object.entries(f.byLook)) if (g) lines.push(row(`${k} look`, g));
  lines.push(row(`all (${f.pages} pages)`, f.overall));
  return lines.join('\n');
}
