import { test, expect } from '@playwright/test';
import { expectAccessible, finishedRun, MINI, openApp } from './ui-data-runs';
import { heatPixels } from './ui-heatmap';

/**
 * The Grounder view (view=grounder) on a real mini run (MINI: one
 * iteration, every phase on a handful of items, on WASM): a stored sample's
 * screen with the grounder's heat map, the true box, the greedy point and
 * the sampled points with their dense rewards, the attention filter's
 * verdict; switching to the previous grounder changes the map; φ0 has no
 * previous one; no serious accessibility violations.
 */

test('shows a stored sample with the heat map, box and points of the current and the previous grounder', async ({ page }) => {
  test.setTimeout(420_000);
  await openApp(page, '&view=grounder');
  await expect(page.getByTestId('grounder-empty')).toContainText('No run yet');

  const runId = await finishedRun(page, MINI);
  await openApp(page, `&view=grounder&run=${encodeURIComponent(runId)}`);
  const view = page.getByTestId('view-grounder');
  await expect(view).toHaveAttribute('data-ready', 'true');
  await expect(page.getByText('Heat map of φ1, the grounder after iteration 1.')).toBeVisible();

  const screen = page.getByTestId('grounded-screen');
  await expect(screen).toHaveAttribute('data-drawn', 'true');
  await expect.poll(() => heatPixels(screen)).toBeGreaterThan(50);
  await expect(screen.getByTestId('truth-box')).toHaveCount(1);
  await expect(screen.getByTestId('greedy-point')).toHaveCount(1);
  await expect(screen.getByTestId('sample-point')).toHaveCount(8);
  // Greedy + 8 samples, each with a dense reward R in [1, 5].
  const rewards = await page.getByTestId('point-table').locator('tbody td.total').allTextContents();
  expect(rewards).toHaveLength(9);
  for (const r of rewards.map(Number)) {
    expect(r).toBeGreaterThanOrEqual(1);
    expect(r).toBeLessThanOrEqual(5);
  }
  await expect(page.getByTestId('attention-verdict')).toContainText(/kept|dropped/);
  await expectAccessible(page, '[data-testid="view-grounder"]');
  await page.screenshot({ path: 'test-results/ui/grounder.png', fullPage: true });
  await page.setViewportSize({ width: 1920, height: 1080 });
  await page.screenshot({ path: 'test-results/ui/grounder-1080p.png' });
  await page.setViewportSize({ width: 1280, height: 720 });

  // The previous grounder, φ0, looks elsewhere (another map); the choice is kept in the URL.
  const before = await screen.evaluate((el) => el.querySelector<HTMLCanvasElement>('canvas[data-testid="heatmap"]')!.toDataURL());
  await page.getByTestId('grounder-previous').click();
  await expect(page.getByText('Heat map of φ0, the grounder after iteration 0.')).toBeVisible();
  await expect.poll(() => screen.evaluate((el) => el.querySelector<HTMLCanvasElement>('canvas[data-testid="heatmap"]')!.toDataURL())).not.toBe(before);
  expect(new URL(page.url()).searchParams.get('grounder')).toBe('previous');

  // Iteration 0: φ0 is current and has no previous generation.
  await page.getByTestId('grounder-current').click();
  await page.getByTestId('grounder-iteration').selectOption('0');
  await expect(page.getByText('Heat map of φ0, the grounder after iteration 0.')).toBeVisible();
  await expect(page.getByTestId('grounder-previous')).toBeDisabled();
  expect(new URL(page.url()).searchParams.get('it')).toBe('0');

  // The next sample: another instruction, grounded anew.
  const first = await page.getByTestId('grounder-instruction').textContent();
  await page.getByRole('button', { name: 'Next sample' }).click();
  await expect(page.getByTestId('grounder-instruction')).not.toHaveText(first ?? '');
  await expect.poll(() => heatPixels(screen)).toBeGreaterThan(50);

  // The same run's agents in the Playground: its planner writes, its grounder points, the world acts.
  await openApp(page, `&view=playground&run=${encodeURIComponent(runId)}`);
  await expect(page.getByTestId('view-playground')).toHaveAttribute('data-ready', 'true');
  await expect(page.getByTestId('untrained-note')).toHaveCount(0);
  await expect(page.getByLabel('Instructions from')).toContainText('the run’s planner');
  await page.getByTestId('play-step').click();
  await expect(page.getByTestId('play-history').getByRole('listitem')).toHaveCount(1);
  await expect(page.getByTestId('play-card')).toContainText('Planner wrote');
  await expect(page.getByTestId('play-card')).toContainText('World did');
});

test('while iteration 1 is not trained yet, only φ0 is offered', async ({ page }) => {
  // The k = 0 evaluation grounds the 400 real-screen instructions too (a minute or more on a loaded 2-core machine).
  test.setTimeout(480_000);
  await openApp(page);
  const { runId } = await page.evaluate((o) => window.coevo!.startCoevo({ ...o, iterations: 3, paused: true }), MINI);
  // The four seed phases, one step at a time: φ0 is trained and evaluated, iteration 1 has not started.
  for (let i = 1; i <= 4; i++) {
    await page.evaluate((id) => window.coevo!.controlCoevo(id, 'step-phase'), runId);
    await expect.poll(() => page.evaluate((id) => window.coevo!.coevoStatus(id).then((p) => `${p.state}:${p.phaseIndex}`), runId), { timeout: 300_000 }).toMatch(new RegExp(`^(paused|idle):${i}$`));
  }
  await openApp(page, `&view=grounder&run=${encodeURIComponent(runId)}&it=3`);
  await expect(page.getByTestId('view-grounder')).toHaveAttribute('data-ready', 'true');
  await expect(page.getByTestId('grounder-iteration').locator('option')).toHaveCount(1);
  await expect(page.getByTestId('grounder-iteration')).toHaveValue('0');
});
