import { test, expect } from '@playwright/test';
import { expectAccessible, openApp } from './ui-data-runs';
import { heatPixels, screenshotPng } from './ui-heatmap';

/**
 * The Playground (view=playground) without a run, on WASM: the models are
 * the base models that ship for the tiny preset, and the page says so. Typing an
 * instruction over a world screen draws the grounder's heat map; a
 * screenshot dropped on the page (and one chosen with the file input) is
 * shown and grounded; the agents take a step in the world; no serious
 * accessibility violations.
 */

test('typing over a screen draws a heat map; a dropped screenshot is shown and grounded; the agents step', async ({ page }) => {
  test.setTimeout(120_000);
  await openApp(page, '&view=playground&pg=ask');
  const view = page.getByTestId('view-playground');
  await expect(view).toHaveAttribute('data-ready', 'true');
  await expect(page.getByTestId('base-note')).toContainText('base models of the tiny preset that ship with the app');
  await expect(page.getByTestId('untrained-note')).toHaveCount(0);

  // (b) An instruction typed over the task's screen.
  const ask = page.getByTestId('ask-screen');
  await page.getByTestId('ask-instruction').fill('click the blue button at the top');
  await expect(view.getByRole('status').filter({ hasText: 'base grounder (tiny preset, pretrained' })).toBeVisible();
  await expect.poll(() => heatPixels(ask)).toBeGreaterThan(50);
  await expect(ask.getByTestId('greedy-point')).toHaveCount(1);
  await expectAccessible(page, '[data-testid="view-playground"]');

  // (c) A screenshot dropped on the page, then one chosen with the file input.
  await page.getByTestId('pg-mode-upload').click();
  const png = await screenshotPng(page);
  await page.getByTestId('drop-zone').evaluate((zone, bytes) => {
    const file = new File([new Uint8Array(bytes)], 'dialog.png', { type: 'image/png' });
    const dt = new DataTransfer();
    dt.items.add(file);
    zone.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
  }, [...png]);
  await expect(page.getByTestId('screenshot-info')).toContainText('dialog.png');
  await expect(page.getByTestId('screenshot-info')).toContainText('a PNG of 480×300 px');
  // Native scale (text of 14 px → 8 px, the world's): 274×171, cut into 2 × 2 overlapping web screens (src/ownScreen/tiles.ts).
  await expect(page.getByTestId('screenshot-info')).toContainText('Scaled ×0.57 to 274×171 and cut into 4 overlapping web screens of 200×128');
  const shot = page.getByTestId('ask-screen');
  await expect(shot).toHaveAttribute('data-drawn', 'true');
  await expect.poll(() => heatPixels(shot)).toBeGreaterThan(50);
  // The screenshot itself is shown at its own size: its red button's pixels are there.
  const red = await page.getByTestId('image-answer').evaluate((el) => {
    const c = el.querySelector<HTMLCanvasElement>('canvas')!;
    const d = c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data;
    let n = 0;
    for (let i = 0; i < d.length; i += 4) if (d[i] > 150 && d[i + 1] < 90 && d[i + 2] < 90) n++;
    return n;
  });
  expect(red).toBeGreaterThan(100);
  await page.getByTestId('ask-instruction').fill('click Cancel');
  await expect(page.getByTestId('ask-screen').getByTestId('greedy-point')).toHaveCount(1);
  await page.screenshot({ path: 'test-results/ui/playground-upload.png', fullPage: true });

  await page.getByTestId('screenshot-file').setInputFiles({ name: 'chosen.png', mimeType: 'image/png', buffer: png });
  await expect(page.getByTestId('screenshot-info')).toContainText('chosen.png');
  await expect.poll(() => heatPixels(page.getByTestId('ask-screen'))).toBeGreaterThan(50);
  await page.getByTestId('screenshot-file').setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') });
  await expect(page.getByRole('alert')).toContainText('“notes.txt” is a text file, not an image');
  await expectAccessible(page, '[data-testid="view-playground"]');

  // (a) The agents: one step with the oracle's instruction, grounded and executed.
  await page.getByTestId('pg-mode-agents').click();
  await page.getByLabel('Instructions from').selectOption('oracle');
  // The task's first steps may need no point (a scroll): step until the grounder is asked.
  for (let i = 0; i < 4 && (await heatPixels(page.getByTestId('play-screen'))) === 0; i++) {
    await page.getByTestId('play-step').click();
    await expect(page.getByTestId('play-history').getByRole('listitem')).toHaveCount(i + 1);
    await expect(page.getByTestId('play-card')).toContainText('World did');
  }
  await expect.poll(() => heatPixels(page.getByTestId('play-screen'))).toBeGreaterThan(50);
  await expect(page.getByTestId('play-screen').getByTestId('truth-box')).toHaveCount(1);
  await expect(page.getByTestId('play-next')).toHaveAttribute('data-drawn', 'true');
  await expectAccessible(page, '[data-testid="view-playground"]');
  await page.screenshot({ path: 'test-results/ui/playground.png', fullPage: true });
  await page.setViewportSize({ width: 1920, height: 1080 });
  await page.screenshot({ path: 'test-results/ui/playground-1080p.png' });
  // A phone: the screens shrink to the width, nothing scrolls sideways.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: 'test-results/ui/playground-390.png', fullPage: true });
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
  await page.setViewportSize({ width: 1280, height: 720 });

  // The base planner writes the instruction itself.
  await page.getByTestId('play-reset').click();
  await expect(page.getByLabel('Instructions from')).toContainText('the base planner');
  await page.getByLabel('Instructions from').selectOption('model');
  await page.getByTestId('play-step').click();
  await expect(page.getByTestId('play-card')).toContainText('Planner wrote');
  await page.getByTestId('pg-mode-ask').click();
  await page.screenshot({ path: 'test-results/ui/playground-ask.png', fullPage: true });
});
