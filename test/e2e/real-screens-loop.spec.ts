import { test, expect } from '@playwright/test';
import type { CoevoProgress, CoevoReport } from '../../workers/api';
import { MINI } from './mini';

/**
 * The loop's evaluation grounds the held-out real-screen suite the page
 * draws (issue 30): a tiny run with no co-evolution iteration (seed data,
 * the two SFT phases, the k = 0 evaluation: the cheapest run that has an
 * evaluation) records real/<style>/{accuracy, chance} and real/all with n
 * in report.json, and the Metrics view charts them. Its grounder SFT drew
 * a quarter of its examples from real training pages the page drew (the
 * default grounderRealShare), and the Data view charts that mix.
 */
test('a tiny run records real-screen accuracy per style in its report and charts it', async ({ page }) => {
  test.setTimeout(300_000);
  await page.goto('/?backend=wasm');
  await page.waitForFunction(() => window.coevo !== undefined);
  await page.evaluate(() => window.coevo?.ready());
  const t0 = Date.now();
  const { runId } = await page.evaluate((o) => window.coevo!.startCoevo(o), { ...MINI, iterations: 0, seed: 11 });
  for (;;) {
    const p: CoevoProgress = await page.evaluate((id) => window.coevo!.coevoStatus(id), runId);
    if (p.state === 'failed') throw new Error(`run failed: ${p.error}`);
    if (p.state === 'done') break;
    expect(Date.now() - t0).toBeLessThan(240_000);
    await page.waitForTimeout(500);
  }
  console.log(`run: ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  const report: CoevoReport = await page.evaluate((id) => window.coevo!.coevoReport(id), runId);
  const it0 = report.iterations[0];
  expect(it0.real_screens_skipped).toBeUndefined();
  const real = Object.entries(it0.metrics).filter(([k]) => k.startsWith('real/'));
  console.log(JSON.stringify(Object.fromEntries(real)));
  for (const style of ['text', 'icon', 'relation', 'color', 'function', 'all']) {
    for (const metric of ['accuracy', 'chance']) {
      const key = `real/${style}/${metric}`;
      expect(Number.isFinite(it0.metrics[key]), key).toBe(true);
      expect(it0.metrics[key]).toBeGreaterThanOrEqual(0);
      expect(it0.metrics[key]).toBeLessThanOrEqual(1);
    }
  }
  // The whole held-out suite (docs/real-screens.md): 400 instructions, 130 of them in the text style.
  expect(it0.n?.['real/all/accuracy']).toBe(400);
  expect(it0.n?.['real/text/accuracy']).toBe(130);
  // The world's suites are still there beside it.
  expect(Number.isFinite(it0.metrics['grounding/all/accuracy'])).toBe(true);
  // 3 SFT steps of 4 examples, one of each 4 from a real page.
  expect(it0.grounder_examples).toEqual({ loop: 9, real: 3 });

  await page.goto(`/?backend=wasm&view=metrics&run=${runId}`);
  await expect(page.getByTestId('suite-chart-real')).toBeVisible();
  await page.goto(`/?backend=wasm&view=data&run=${runId}`);
  await expect(page.getByTestId('mix-grounder')).toBeVisible();
});
