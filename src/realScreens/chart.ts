/**
 * The real-screen figures as a bar chart (a standalone SVG, like the
 * report's charts in svgChart.ts): one bar per instruction style and per
 * look, its 95% Wilson interval as a whisker, and the random-control
 * chance as a dashed tick, so "how far above chance" reads at a glance.
 */
import { escapeXml } from '../coevo/svgChart';
import type { RealFigure, RealScreenFigures } from './score';

export function figuresChartSvg(f: RealScreenFigures, title: string): string {
  const bars: { name: string; g: RealFigure; group: number }[] = [
    ...Object.entries(f.byStyle).map(([k, g]) => ({ name: k, g: g as RealFigure, group: 0 })),
    ...Object.entries(f.byLook).map(([k, g]) => ({ name: k, g: g as RealFigure, group: 1 })),
    { name: 'all', g: f.overall, group: 2 },
  ];
  const left = 44, top = 30, plotH = 180, barW = 26, gap = 12, groupGap = 22;
  const xs: number[] = [];
  let x = left + gap;
  bars.forEach((b, i) => {
    if (i > 0 && b.group !== bars[i - 1].group) x += groupGap;
    xs.push(x);
    x += barW + gap;
  });
  const width = Math.max(x + 10, 420);
  const height = top + plotH + 72;
  const y = (v: number) => top + plotH * (1 - v);
  const fills = ['#3f6fb5', '#6a9a4a', '#555555'];
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="11">`,
    `<rect width="${width}" height="${height}" fill="#ffffff"/>`,
    `<text x="${left}" y="18" font-size="13" font-weight="bold">${escapeXml(title)}</text>`,
  ];
  for (const t of [0, 0.25, 0.5, 0.75, 1]) {
    parts.push(`<line x1="${left}" x2="${width - 10}" y1="${y(t)}" y2="${y(t)}" stroke="#dddddd"/>`);
    parts.push(`<text x="${left - 6}" y="${y(t) + 4}" text-anchor="end">${Math.round(t * 100)}%</text>`);
  }
  bars.forEach((b, i) => {
    const bx = xs[i];
    const mid = bx + barW / 2;
    parts.push(`<rect x="${bx}" y="${y(b.g.accuracy)}" width="${barW}" height="${plotH * b.g.accuracy}" fill="${fills[b.group]}"/>`);
    parts.push(`<line x1="${mid}" x2="${mid}" y1="${y(b.g.interval.low)}" y2="${y(b.g.interval.high)}" stroke="#000000"/>`);
    for (const v of [b.g.interval.low, b.g.interval.high]) parts.push(`<line x1="${mid - 4}" x2="${mid + 4}" y1="${y(v)}" y2="${y(v)}" stroke="#000000"/>`);
    parts.push(`<line x1="${bx - 3}" x2="${bx + barW + 3}" y1="${y(b.g.chanceControls)}" y2="${y(b.g.chanceControls)}" stroke="#d32f2f" stroke-width="2" stroke-dasharray="3 2"/>`);
    parts.push(`<text x="${mid}" y="${top + plotH + 14}" text-anchor="middle">${escapeXml(b.name)}</text>`);
    parts.push(`<text x="${mid}" y="${top + plotH + 27}" text-anchor="middle" fill="#666666">n=${b.g.n}</text>`);
  });
  parts.push(`<text x="${left}" y="${height - 22}" fill="#666666">bars: click-in-box; whiskers: 95% Wilson interval;</text>`);
  parts.push(`<text x="${left}" y="${height - 8}" fill="#666666">red dashes: chance (random control); blue: styles, green: looks</text>`);
  parts.push('</svg>');
  return parts.join('\n');
}
