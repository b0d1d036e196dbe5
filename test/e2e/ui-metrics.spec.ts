import { test, expect } from '@playwright/test';
import { MINI, expectAccessible, finishedRun, openApp } from './ui-data-runs';

/**
 * The metrics view over a finished mini run, compared with its coevo = false
 * ablation: a chart per suite and split with a point per iteration and run,
 * training curves with points, the comparison table, the compared run in
 * the URL, and no serious accessibility violations.
 */
test('the metrics view charts every suite and training curve, and overlays a second run', async ({ page }) => {
  test.setTimeout(480_000);
  await openApp(page);
  const full = await finishedRun(page, MINI);
  const ablation = await finishedRun(page, { ...MINI, config: { ...MINI.config, coevo: false }, name: 'Ablation: coevo off' });
  const report = await page.evaluate((id) => window.coevo!.coevoReport(id), full);
  const keys = Object.keys(report.iterations[0].metrics);
  const suites = new Set(keys.map((k) => k.split('/')[0]));
  console.log(`metrics: ${keys.length} keys over suites ${[...suites].join(', ')}; curves: ${Object.keys(report.curves).join(', ')}`);

  await openApp(page, `&view=metrics&run=${encodeURIComponent(full)}`);
  await expect(page.getByTestId('view-metrics')).toHaveAttribute('data-ready', 'true');

  // One chart per web and mobile split, one each for grounding and online; every line has a point per iteration (k = 0, 1).
  const suiteCharts = page.locator('[data-testid^="suite-chart-"]');
  await expect(suiteCharts.first()).toBeVisible();
  const ids = await suiteCharts.evaluateAll((els) => els.map((e) => e.getAttribute('data-testid')));
  for (const s of suites) expect(ids.some((id) => id?.startsWith(`suite-chart-${s}`))).toBe(true);
  const web = page.getByTestId('suite-chart-web-cross-task');
  const webLines = Number(await web.getAttribute('data-lines'));
  expect(webLines).toBeGreaterThan(1);
  expect(Number(await web.getAttribute('data-points'))).toBe(webLines * report.iterations.length);
  await expect(web.locator('canvas')).toHaveCount(1);
  await expect(web).toHaveAttribute('data-x-span', `0..${report.iterations.length - 1}`);

  // Wilson error bars where n was recorded (every point of this run), the verdict, and the co-evolution signature.
  expect(Number(await web.getAttribute('data-error-bars'))).toBe(webLines * report.iterations.length);
  await expect(page.getByTestId('verdict').locator('li')).toHaveCount(3);
  await expect(page.getByTestId('verdict')).toContainText(/Planner: (improved|got worse|no measurable change)\. Web step success went from/);
  await expect(page.getByTestId('verdict')).toContainText(/Grounder: (improved|got worse|no measurable change)\. Held-out grounding accuracy/);
  await expect(page.getByTestId('verdict')).toContainText(/Both agents: (improved|got worse|no measurable change)\. Online task success went from/);
  expect(Number(await page.getByTestId('signature-mix').getAttribute('data-bars'))).toBe(report.iterations.length);
  expect(Number(await page.getByTestId('signature-mix').getAttribute('data-segments'))).toBe(new Set(Object.keys(report.style_mix![0]?.sampled ?? {})).size);
  expect(Number(await page.getByTestId('signature-accuracy').getAttribute('data-points'))).toBeGreaterThan(0);

  // Training curves: losses, GRPO reward and KL, each with points.
  for (const id of ['curve-chart-loss', 'curve-chart-reward', 'curve-chart-kl', 'grpo-iterations']) {
    expect(Number(await page.getByTestId(id).getAttribute('data-points'))).toBeGreaterThan(0);
  }

  // Compare with the ablation: every line doubles (dashed), the table appears, the choice is in the URL.
  await page.getByTestId('compare-run').selectOption(ablation);
  await expect(page).toHaveURL(new RegExp(`vs=${ablation}`));
  await expect(web).toHaveAttribute('data-lines', String(2 * webLines));
  await expect(page.getByTestId('compare-table')).toContainText('grounding/');
  await expect(page.getByText('B (dashed): Ablation: coevo off')).toBeVisible();
  // The verdict adds A against B for each headline.
  await expect(page.getByTestId('verdict').locator('li')).toHaveCount(6);
  await expect(page.getByTestId('verdict')).toContainText(/Grounder: (A is above B|A is below B|no measurable difference between A and B)\. .*one seed each/);

  await expectAccessible(page, '[data-testid="view-metrics"]');
  await page.screenshot({ path: 'test-results/ui/metrics.png', fullPage: true });
  // The projector layout: the same view at 1920×1080.
  await page.setViewportSize({ width: 1920, height: 1080 });
  await page.screenshot({ path: 'test-results/ui/metrics-1080p.png' });
  await page.setViewportSize({ width: 1280, height: 720 });

  // The comparison survives a reload.
  await page.reload();
  await expect(page.getByTestId('view-metrics')).toHaveAttribute('data-ready', 'true');
  await expect(page.getByTestId('suite-chart-web-cross-task')).toHaveAttribute('data-lines', String(2 * webLines));
});

test('with only iteration 0 evaluated, the x axis spans k = 0 alone (not 0..100)', async ({ page }) => {
  test.setTimeout(240_000);
  await openApp(page);
  const runId = await finishedRun(page, { ...MINI, iterations: 0 });
  await openApp(page, `&view=metrics&run=${encodeURIComponent(runId)}`);
  const web = page.getByTestId('suite-chart-web-cross-task');
  await expect(web).toHaveAttribute('data-x-span', '0..0');
  await page.setViewportSize({ width: 390, height: 800 });
  await page.screenshot({ path: 'test-results/ui/metrics-k0-390.png', fullPage: true });
  // A phone: the view fits the width, nothing scrolls sideways.
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
});
