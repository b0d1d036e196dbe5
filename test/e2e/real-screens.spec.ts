import { test, expect } from '@playwright/test';
import { mkdirSync, writeFileSync } from 'node:fs';
import { figuresChartSvg } from '../../src/realScreens/chart';
import { openApp } from './ui-data-runs';
import { watchErrors } from './page-errors';
import { FILLS } from '../../src/realScreens/looks';
import { screenOfPage } from '../../src/realScreens/screen';
import { figuresTable, hitOf } from '../../src/realScreens/score';
import { SUITE_PAGES } from '../../src/realScreens/pages';
import type { RealBox } from '../../src/realScreens/types';
import { resolveRef } from '../../src/world/verifier';
import { REF_STYLES } from '../../src/world/types';

/**
 * The real-screen suite in the real app (issue 30): the held-out fixture
 * pages are laid out and drawn by Chromium itself (DOM boxes, SVG
 * foreignObject pixels), the boxes and pixels agree, every instruction
 * singles out its control by the world's own verifier with the measured
 * boxes, distractor text lies outside its control; then the shipped tiny
 * base grounder grounds every instruction in the worker (WASM) and the
 * figures per instruction style are recomputed here from its clicks.
 */

const inside = (b: RealBox, w: number, h: number) => b.x >= -0.01 && b.y >= -0.01 && b.x + b.w <= w + 0.01 && b.y + b.h <= h + 0.01;
const overlaps = (a: RealBox, b: RealBox) => a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;

test('the held-out real pages render with DOM boxes that match their pixels and instructions that resolve', async ({ page }) => {
  test.setTimeout(180_000);
  const errors = watchErrors(page);
  await openApp(page);
  const rendered = await page.evaluate((n) => window.coevo!.renderRealScreens('held-out', n), SUITE_PAGES);
  expect(rendered).toHaveLength(SUITE_PAGES);
  let colourChecks = 0;
  for (const { page: p, rendered: r } of rendered) {
    const where = p.id;
    expect(r.rgba.length).toBe(p.width * p.height * 4);
    // Not a blank image: many distinct colours.
    const colours = new Set<number>();
    for (let i = 0; i < r.rgba.length; i += 4) colours.add((r.rgba[i] << 16) | (r.rgba[i + 1] << 8) | r.rgba[i + 2]);
    expect(colours.size, where).toBeGreaterThan(8);
    const screen = screenOfPage(p, r.boxes);
    for (const ins of p.instructions) {
      const box = r.boxes[ins.targetId];
      const target = p.elements.find((e) => e.id === ins.targetId);
      expect(target?.interactive, `${where}: ${ins.text}`).toBe(true);
      expect(box.w * box.h, `${where}: ${ins.text}`).toBeGreaterThan(4);
      expect(inside(box, p.width, p.height), `${where}: ${ins.text} ${JSON.stringify(box)}`).toBe(true);
      expect(resolveRef(screen, ins.instruction.ref!), `${where}: ${ins.text}`).toEqual({ kind: 'element', id: ins.targetId });
      // The DOM box and the pixels agree: a coloured button's border, mid-height, has its fill colour.
      if (target?.color) {
        const x = Math.floor(box.x) + 1;
        const y = Math.floor(box.y + box.h / 2);
        const at = (y * p.width + x) * 4;
        const want = FILLS[target.color];
        const rgb = [1, 3, 5].map((k) => parseInt(want.slice(k, k + 2), 16));
        for (let c = 0; c < 3; c++) expect(Math.abs(r.rgba[at + c] - rgb[c]), `${where}: ${target.color} at ${x},${y}`).toBeLessThan(48);
        colourChecks++;
      }
    }
    for (const d of p.elements.filter((e) => e.distractorOf !== undefined)) {
      const db = r.boxes[d.id];
      expect(db.w * db.h, `${where}/${d.id}`).toBeGreaterThan(0);
      expect(overlaps(db, r.boxes[d.distractorOf!]), `${where}: "${d.text}" overlaps its control`).toBe(false);
    }
  }
  expect(colourChecks).toBeGreaterThanOrEqual(10);
  expect(errors).toEqual([]);
});

test('the shipped tiny base grounder on the held-out real pages: click-in-box per instruction style, with n, Wilson interval and chance', async ({ page }) => {
  test.setTimeout(600_000);
  await openApp(page);
  const answer = await page.evaluate(() => window.coevo!.evaluateRealScreens());
  expect(answer.model.untrained).toBe(false);
  expect(answer.model.label).toContain('base grounder');
  expect(answer.pages).toBe(SUITE_PAGES);
  // Figures recomputed from the grounder's own clicks.
  let total = 0;
  for (const style of REF_STYLES) {
    const items = answer.groundings.filter((g) => g.style === style);
    const f = answer.byStyle[style];
    if (items.length === 0) {
      expect(f).toBeUndefined();
      continue;
    }
    expect(f?.n).toBe(items.length);
    expect(f?.hits).toBe(items.filter(hitOf).length);
    total += items.length;
  }
  expect(answer.overall.n).toBe(total);
  for (const s of ['text', 'icon', 'relation'] as const) expect(answer.byStyle[s]?.n ?? 0).toBeGreaterThanOrEqual(40);
  for (const g of answer.groundings) expect(g.point.x >= 0 && g.point.x <= 200 && g.point.y >= 0 && g.point.y <= 128, JSON.stringify(g.point)).toBe(true);
  // The grounder answered the pages, not one fixed spot.
  expect(new Set(answer.groundings.map((g) => `${Math.round(g.point.x)},${Math.round(g.point.y)}`)).size).toBeGreaterThan(20);
  const table = figuresTable(answer);
  console.log(`real-screen suite, ${answer.model.label}:\n${table}`);
  // The figures and their chart, for docs/real-screens.md.
  mkdirSync('test-results/real-screens', { recursive: true });
  const { groundings, ...figures } = answer;
  writeFileSync('test-results/real-screens/figures.json', JSON.stringify({ figures, groundings }, null, 1));
  writeFileSync('test-results/real-screens/figures.md', table + '\n');
  writeFileSync('test-results/real-screens/chart.svg', figuresChartSvg(answer, 'Shipped tiny base grounder on the held-out real-screen suite'));
});
