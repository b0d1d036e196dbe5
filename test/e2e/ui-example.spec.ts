import { readFileSync } from 'node:fs';
import { test, expect, type Page } from '@playwright/test';
import type { CoevoReport } from '../../workers/api';
import { heatPixels } from './ui-heatmap';
import { expectAccessible } from './ui-data-runs';
import { watchErrors } from './page-errors';

/**
 * The example run that ships with the app (public/example/, issue 29):
 * a fresh profile's `?demo=1` shows its charts and then every view with
 * content within 10 s, read-only and labelled, and trains nothing until
 * asked; Export from the run list and Import in a fresh profile give a run
 * with the same report, the Import button takes `npm run coevo`'s run.zip
 * (the example is one), and a damaged file is refused with the importer's
 * message, nothing stored.
 */

const ABOUT = JSON.parse(readFileSync('public/example/tiny-run.json', 'utf8')) as { runId: string; file: string };
const EXAMPLE_ZIP = 'public/example/tiny-run.zip';
const WITHIN = 10_000;

const runIds = (page: Page) => page.evaluate(() => window.coevo!.listRuns().then((runs) => runs.filter((r) => r.kind === 'coevo').map((r) => r.id)));

/** Opens `view` from its tab and waits for its content; returns how long that took. */
async function timeView(page: Page, view: string, content: () => Promise<void>): Promise<number> {
  const t0 = Date.now();
  await page.getByTestId(`tab-${view}`).click();
  await content();
  return Date.now() - t0;
}

/**
 * Opens ?demo=1 on a fresh profile and waits for the example's charts; the
 * milliseconds that took, or null when they took longer than `limitMs`.
 */
async function demoCharts(page: Page, limitMs: number): Promise<number | null> {
  const t0 = Date.now();
  await page.goto('/?demo=1');
  const demo = page.getByTestId('demo');
  const chart = page.locator('[data-testid^="suite-chart-"] canvas').first();
  try {
    await expect(demo).toHaveAttribute('data-run', ABOUT.runId, { timeout: limitMs });
    await expect(chart).toBeVisible({ timeout: Math.max(1, limitMs - (Date.now() - t0)) });
  } catch {
    return null;
  }
  return Date.now() - t0;
}

test('a fresh profile on ?demo=1 shows the example run at once, every view with content, and trains only when asked', async ({ browser }) => {
  test.setTimeout(150_000);
  // Timed on a fresh profile each time; the best of up to three, since CI runs another browser beside this one (two files at a time).
  let page: Page | null = null;
  let errors: string[] = [];
  const tries: (number | null)[] = [];
  for (let i = 0; i < 3 && !tries.some((ms) => ms !== null); i++) {
    if (page) await page.context().close();
    page = await (await browser.newContext()).newPage();
    errors = watchErrors(page);
    tries.push(await demoCharts(page, WITHIN));
  }
  console.log(`?demo=1 on a fresh profile, ms to the example's charts per try (null: over ${WITHIN} ms): ${JSON.stringify(tries)}`);
  expect(tries.some((ms) => ms !== null && ms < WITHIN)).toBe(true);
  page = page!;
  const demo = page.getByTestId('demo');
  await expect(demo).toHaveAttribute('data-state', 'done');
  await expect(page.getByTestId('demo-example')).toHaveText('Example run');
  // A finished run's tour starts on its charts.
  await expect(demo).toHaveAttribute('data-scene-view', 'metrics');
  await expect(page.getByTestId('view-metrics')).toHaveAttribute('data-ready', 'true');
  await page.screenshot({ path: 'test-results/ui/demo-example.png' });

  // The view stays put between scenes (it once was mounted anew on every tick of the demo's clock), and nothing trains by itself.
  await page.locator('[data-testid^="suite-chart-"] canvas').first().evaluate((c) => c.setAttribute('data-seen', '1'));
  await page.waitForTimeout(1500);
  await expect(page.locator('canvas[data-seen="1"]')).toHaveCount(1);
  expect(await runIds(page)).toEqual([ABOUT.runId]);
  expect((await page.evaluate((id) => window.coevo!.coevoStatus(id), ABOUT.runId)).state).toBe('done');

  // Every view of the example has content within 10 s of opening it.
  await page.getByTestId('exit-demo').click();
  await expect(page.getByTestId('example-note')).toContainText('Example run');
  await expect(page.getByTestId('example-note')).toContainText('read-only');
  const loop = page.getByTestId('view-loop');
  await expect(loop).toHaveAttribute('data-state', 'done');
  await expect(page.getByTestId('run-toggle')).toBeDisabled();
  await expectAccessible(page, 'body');
  const times: Record<string, number> = {};
  times.grpo = await timeView(page, 'grpo', async () => {
    await expect(page.getByTestId('view-grpo')).toHaveAttribute('data-ready', 'true', { timeout: WITHIN });
    await expect(page.getByTestId('grpo-goal')).toBeVisible();
  });
  times.grounder = await timeView(page, 'grounder', async () => {
    await expect(page.getByTestId('view-grounder')).toHaveAttribute('data-ready', 'true', { timeout: WITHIN });
    // A trained grounder's map is sharp: a few dozen cells carry all the heat.
    await expect.poll(() => heatPixels(page.getByTestId('grounded-screen')), { timeout: WITHIN }).toBeGreaterThan(0);
    await expect(page.getByTestId('grounded-screen').getByTestId('greedy-point')).toHaveCount(1);
  });
  times.data = await timeView(page, 'data', async () => {
    await expect(page.getByTestId('view-data')).toHaveAttribute('data-ready', 'true', { timeout: WITHIN });
    await expect(page.getByTestId('sample-card').first()).toBeVisible();
  });
  times.metrics = await timeView(page, 'metrics', async () => {
    await expect(page.getByTestId('view-metrics')).toHaveAttribute('data-ready', 'true', { timeout: WITHIN });
    await expect(page.locator('[data-testid^="suite-chart-"] canvas').first()).toBeVisible();
  });
  times.playground = await timeView(page, 'playground', async () => {
    await expect(page.getByTestId('view-playground')).toHaveAttribute('data-ready', 'true', { timeout: WITHIN });
    await expect(page.getByTestId('play-screen')).toHaveAttribute('data-drawn', 'true', { timeout: WITHIN });
  });
  times.loop = await timeView(page, 'loop', async () => {
    await expect(loop).toHaveAttribute('data-ready', 'true', { timeout: WITHIN });
  });
  console.log(`example views, ms to content: ${JSON.stringify(times)}`);
  for (const ms of Object.values(times)) expect(ms).toBeLessThan(WITHIN);

  // Demo again: the finished run stays on show; a new run trains only from the button.
  await page.getByTestId('demo-start').click();
  await expect(demo).toHaveAttribute('data-run', ABOUT.runId);
  await page.waitForTimeout(1000);
  expect(await runIds(page)).toEqual([ABOUT.runId]);
  await page.getByTestId('demo-train').click();
  await expect(demo).not.toHaveAttribute('data-run', ABOUT.runId, { timeout: 30_000 });
  const trained = await demo.getAttribute('data-run');
  await expect(demo).toHaveAttribute('data-state', 'running', { timeout: 30_000 });
  await page.evaluate((id) => window.coevo!.controlCoevo(id!, 'pause'), trained);
  expect((await runIds(page)).sort()).toEqual([ABOUT.runId, trained].sort());
  expect(errors).toEqual([]);
  await page.context().close();
});

test('Import takes npm run coevo’s run.zip, refuses a damaged file; Export, then Import in a fresh profile, gives the same report', async ({ page, browser }) => {
  test.setTimeout(120_000);
  const errors = watchErrors(page);
  // An empty lab (example=0), so that the zip comes in through the Import button.
  await page.goto('/?backend=wasm&example=0');
  await page.evaluate(() => window.coevo?.ready());
  await expect(page.getByTestId('view-loop')).toHaveAttribute('data-state', 'none');
  expect(await runIds(page)).toEqual([]);

  // A damaged file: the importer's own message, nothing stored.
  const zip = readFileSync(EXAMPLE_ZIP);
  await page.getByTestId('archive-file').setInputFiles({ name: 'half.zip', mimeType: 'application/zip', buffer: zip.subarray(0, Math.floor(zip.length / 2)) });
  await expect(page.getByTestId('archive-error')).toContainText('half.zip: This file is not a complete Coevo run export');
  await expect(page.getByTestId('archive-error')).toContainText('nothing was imported');
  expect(await runIds(page)).toEqual([]);

  // npm run coevo's run.zip (the shipped example is one) opens in the UI.
  const t0 = Date.now();
  await page.getByTestId('archive-file').setInputFiles(EXAMPLE_ZIP);
  await expect(page.getByTestId('archive-done')).toContainText('Imported');
  console.log(`import of ${zip.length} bytes through the button: ${Date.now() - t0} ms`);
  await expect(page.getByTestId('archive-error')).toHaveCount(0);
  await expect(page).toHaveURL(new RegExp(`run=${ABOUT.runId}`));
  await expect(page.getByTestId('view-loop')).toHaveAttribute('data-state', 'done');
  const before: CoevoReport = await page.evaluate((id) => window.coevo!.coevoReport(id), ABOUT.runId);

  // Export from the run list.
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('archive-export').click()]);
  expect(download.suggestedFilename()).toBe(`coevo-${ABOUT.runId}.zip`);
  const exported = readFileSync((await download.path())!);
  await expect(page.getByTestId('archive-done')).toContainText('Exported');
  await page.screenshot({ path: 'test-results/ui/run-archive.png' });

  // Import in a fresh profile: the same run, the same report.
  const fresh = await browser.newContext();
  try {
    const other = await fresh.newPage();
    await other.goto('/?backend=wasm&example=0');
    await other.evaluate(() => window.coevo?.ready());
    expect(await runIds(other)).toEqual([]);
    await other.getByTestId('archive-file').setInputFiles({ name: download.suggestedFilename(), mimeType: 'application/zip', buffer: exported });
    await expect(other.getByTestId('archive-done')).toContainText('Imported');
    await expect(other).toHaveURL(new RegExp(`run=${ABOUT.runId}`));
    const after: CoevoReport = await other.evaluate((id) => window.coevo!.coevoReport(id), ABOUT.runId);
    expect(after).toEqual(before);
    expect(after.iterations.length).toBe(2);
  } finally {
    await fresh.close();
  }
  expect(errors).toEqual([]);
});
