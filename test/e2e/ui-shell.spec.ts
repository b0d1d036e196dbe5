import { test, expect } from '@playwright/test';
import { openApp, MINI } from './ui-data-runs';

/**
 * The shell: Space and → drive the run on the Loop view only (elsewhere Space
 * scrolls the page and the run stays as it was); a bare link opens on the
 * newest stored run.
 */
test('on the Data view Space scrolls the page and does not start the paused run', async ({ page }) => {
  // A phone-sized window, so that even a run with no samples yet makes the page scroll.
  await page.setViewportSize({ width: 390, height: 300 });
  await openApp(page);
  const { runId } = await page.evaluate((o) => window.coevo!.startCoevo({ ...o, paused: true }), MINI);
  await openApp(page, `&run=${encodeURIComponent(runId)}&view=data`);
  await expect(page.getByTestId('view-data')).toBeVisible();
  const tall = await page.evaluate(() => document.documentElement.scrollHeight > innerHeight);
  expect(tall).toBe(true);
  await page.keyboard.press(' ');
  await page.keyboard.press('ArrowRight');
  await expect.poll(() => page.evaluate(() => scrollY)).toBeGreaterThan(0);
  await page.waitForTimeout(500);
  const p = await page.evaluate((id) => window.coevo!.coevoStatus(id), runId);
  expect(p.state).not.toBe('running');
  expect(p.phaseIndex).toBe(0);
  expect(p.done).toBe(0);
});

test('the bare URL opens on the newest stored run instead of an empty lab', async ({ page }) => {
  await openApp(page);
  await expect(page.getByTestId('view-loop')).toHaveAttribute('data-state', 'none');
  const older = await page.evaluate((o) => window.coevo!.startCoevo({ ...o, paused: true }), MINI);
  const newer = await page.evaluate((o) => window.coevo!.startCoevo({ ...o, seed: 9, paused: true }), MINI);
  expect(older.runId).not.toBe(newer.runId);
  await openApp(page);
  await expect(page).toHaveURL(new RegExp(`run=${newer.runId}`));
  await expect(page.getByTestId('view-loop')).toHaveAttribute('data-ready', 'true');
  await expect(page.getByTestId('view-loop')).not.toHaveAttribute('data-state', 'none');
});

test('an explain card links to the view it describes', async ({ page }) => {
  await openApp(page, '&explain=1');
  const card = page.getByTestId('explain-card');
  await expect(card).toHaveAttribute('data-card', 'view:loop');
  await expect(page.getByTestId('explain-open')).toHaveCount(0);
  await page.getByTestId('explain-next').click();
  await expect(card).toHaveAttribute('data-card', 'phase:seed-data');
  await page.getByTestId('explain-open').click();
  await expect(page).toHaveURL(/view=data/);
  await expect(page.getByTestId('tab-data')).toHaveAttribute('aria-current', 'page');
});
