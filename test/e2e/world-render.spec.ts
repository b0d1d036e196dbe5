/**
 * The world renderer in a real browser: fixtures render in a Web Worker on
 * OffscreenCanvas, identically every time, with real content, and every
 * text's pixels land (legibly) inside its own element's box.
 */
import { expect, test, type Page } from '@playwright/test';
import { FIXTURES } from '../../src/world/render/fixtures';
import { sampleScreens } from '../../src/world/catalog';

async function open(page: Page): Promise<void> {
  await page.goto('/render.html');
  await page.waitForFunction(() => window.coevoRender !== undefined);
  const ready = await page.evaluate(() => window.coevoRender!.ready);
  expect(ready.fontsInWindow).toBe(12);
  expect(ready.fontsInWorker).toBe(12);
  expect(ready.inWorker).toBe(true);
}

test.describe('world renderer', () => {
  test.beforeEach(async ({ page }) => open(page));

  test('fixtures render in a worker, are not blank, and keep text inside boxes', async ({ page }) => {
    const fixtures = await page.evaluate(() => window.coevoRender!.renderFixtures());
    expect(fixtures.map((f) => f.name)).toEqual(Object.keys(FIXTURES));
    for (const f of fixtures) {
      expect(f.inWorker, f.name).toBe(true);
      expect(Buffer.from(f.png, 'base64').subarray(1, 4).toString('latin1'), f.name).toBe('PNG');
      expect(f.distinctColors, f.name).toBeGreaterThan(200);
      expect(f.textElements, f.name).toBeGreaterThan(10);
      expect(f.textFailures, f.name).toEqual([]);
      expect(f.textPixelsInsideBoxes, f.name).toBe(true);
    }
  });

  test('the same screen renders to the same pixels; another theme does not', async ({ page }) => {
    const s = FIXTURES['web-mail'];
    const dark = { ...s, theme: { ...s.theme, mode: 'dark' as const } };
    const [a, b, c] = await page.evaluate((list) => window.coevoRender!.renderScreens(list, 1), [s, s, dark]);
    expect(a.hash).toBe(b.hash);
    expect(a.png).toBe(b.png);
    expect(c.hash).not.toBe(a.hash);
    const again = await page.evaluate(() => window.coevoRender!.renderFixtures());
    const first = await page.evaluate(() => window.coevoRender!.renderFixtures());
    expect(again.map((f) => f.hash)).toEqual(first.map((f) => f.hash));
  });

  test('scale multiplies the output size', async ({ page }) => {
    const s = FIXTURES['mobile-settings'];
    const [r] = await page.evaluate((list) => window.coevoRender!.renderScreens(list, 2), [s]);
    const png = Buffer.from(r.png, 'base64');
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([s.width * 2, s.height * 2]);
  });

  test('measures its render rate inside the worker', async ({ page }) => {
    const rate = await page.evaluate(() => window.coevoRender!.measureRenderRate(200));
    expect(rate.inWorker).toBe(true);
    expect(rate.screens).toBe(200);
    expect(rate.screensPerSecond).toBeGreaterThan(20);
  });
});

test.describe('world screens from real tasks', () => {
  test('render identically twice, are not blank, and keep every text legible inside its box', async ({ page }) => {
    await open(page);
    const sampled = sampleScreens(11, 16);
    const named = sampled.map((s, i) => ({ name: `${i}:${s.task.appId}/${s.screen.screenId}`, screen: s.screen }));
    const first = await page.evaluate((n) => window.coevoRender!.checkScreens(n), named);
    const again = await page.evaluate((list) => window.coevoRender!.renderScreens(list, 1), sampled.map((s) => s.screen));
    expect(new Set(sampled.map((s) => s.screen.platform))).toEqual(new Set(['web', 'mobile']));
    first.forEach((r, i) => {
      expect(r.inWorker, r.name).toBe(true);
      expect(r.hash, r.name).toBe(again[i].hash);
      expect(r.distinctColors, r.name).toBeGreaterThan(30);
      expect(r.textElements, r.name).toBeGreaterThan(2);
      expect(r.textFailures, r.name).toEqual([]);
    });
  });
});
