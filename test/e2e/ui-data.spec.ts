import { test, expect } from '@playwright/test';
import { MINI, expectAccessible, finishedRun, openApp } from './ui-data-runs';

/**
 * The data view over a finished mini run: the grid shows samples with their
 * provenance and curation reasons, the mix charts have bars, the filters
 * narrow the grid and live in the URL, and the view is accessible.
 */
test('the data view browses a run\'s samples with provenance, reasons, filters and mix charts', async ({ page }) => {
  test.setTimeout(420_000);
  await openApp(page);
  const t0 = Date.now();
  const runId = await finishedRun(page, MINI);
  console.log(`mini run: ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  const report = await page.evaluate((id) => window.coevo!.coevoReport(id), runId);
  const written = report.datasets.at(-1)!.size;

  await openApp(page, `&view=data&run=${encodeURIComponent(runId)}`);
  const view = page.getByTestId('view-data');
  await expect(view).toHaveAttribute('data-ready', 'true');
  await expect(page.getByTestId('data-summary')).toContainText(`${written} samples written`);

  const cards = page.getByTestId('sample-card');
  expect(await cards.count()).toBeGreaterThan(0);
  await expect(cards.first().getByTestId('sample-provenance')).toContainText(/seed data, written by writer|distilled at iteration \d+ by planner/);
  await expect(cards.first().getByTestId('sample-reason')).not.toBeEmpty();

  // Every mix chart has bars for iterations 0 and 1.
  for (const id of ['mix-styles', 'mix-sources', 'mix-curation']) {
    const chart = page.getByTestId(id);
    await expect(chart).toHaveAttribute('data-bars', '2');
    expect(Number(await chart.getAttribute('data-segments'))).toBeGreaterThan(0);
  }

  // The distillation funnel of E1: the report's counts, in order, never widening; the same counts as report.json.
  const funnel = page.getByTestId('funnel-1');
  await expect(funnel).toBeVisible();
  const counts = report.funnel![0].steps.map((s) => s.count);
  await expect(funnel).toHaveAttribute('data-counts', counts.join(','));
  expect(counts[1]).toBeGreaterThan(0);
  for (let i = 3; i < counts.length; i++) expect(counts[i]).toBeLessThanOrEqual(counts[i - 1]);
  expect(counts.at(-1)).toBe(report.datasets[1].kept - report.datasets[0].kept);
  await expect(funnel.locator('rect')).toHaveCount(counts.length);

  // Distilled samples of iteration 1 name the planner that wrote them; the filter lives in the URL.
  await page.getByRole('combobox', { name: 'Iteration' }).selectOption('1');
  await expect(page).toHaveURL(/d-it=1/);
  const distilled = await cards.count();
  expect(distilled).toBeGreaterThan(0);
  for (let i = 0; i < distilled; i++) await expect(cards.nth(i).getByTestId('sample-provenance')).toContainText('distilled at iteration 1 by planner@1');

  // Dropped samples say which filter dropped them and why.
  await page.getByRole('combobox', { name: 'Iteration' }).selectOption('');
  await page.getByRole('combobox', { name: 'Outcome' }).selectOption('dropped');
  const dropped = await cards.count();
  if (dropped > 0) {
    await expect(cards.first().getByTestId('sample-decision')).toContainText(/dropped by (verifier|too-easy|misaligned|diversity)/);
    await cards.first().click();
    await expect(page.getByTestId('sample-detail')).toContainText('Curation, in order');
  } else {
    await expect(page.getByTestId('page-status')).toContainText('no samples match');
  }
  console.log(`samples: ${written} written, ${distilled} distilled at k = 1, ${dropped} dropped on the first page`);
  await page.getByRole('combobox', { name: 'Outcome' }).selectOption('all');

  // The thumbnails are drawn: a canvas with non-blank pixels.
  const inked = await page.locator('[data-testid="sample-card"] canvas').first().evaluate((c: HTMLCanvasElement) => {
    const px = c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data;
    let n = 0;
    for (let i = 0; i < px.length; i += 4) if (px[i + 3] > 0) n++;
    return n / (c.width * c.height);
  });
  expect(inked).toBeGreaterThan(0.9);

  // A sample opened in full, for the accessibility check and the screenshot.
  await cards.first().click();
  await expect(page.getByTestId('sample-detail')).toContainText('Provenance');
  await expectAccessible(page, '[data-testid="view-data"]');
  await page.screenshot({ path: 'test-results/ui/data.png', fullPage: true });
  // The projector layout: the same view at 1920×1080.
  await page.setViewportSize({ width: 1920, height: 1080 });
  await page.screenshot({ path: 'test-results/ui/data-1080p.png' });
  await page.setViewportSize({ width: 1280, height: 720 });
});
