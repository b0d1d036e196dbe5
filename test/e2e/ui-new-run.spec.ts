import { test, expect } from '@playwright/test';

/**
 * The New-run form: every config field, grouped, with the validator's ranges
 * and messages; the coevo=false ablation starts from the UI under a name that
 * says what differs from the defaults. Runs are created paused: nothing trains.
 */
test('the form starts a coevo=false run and refuses a bad value with the validator’s message', async ({ page }) => {
  await page.goto('/?backend=wasm&preset=tiny&example=0');
  await page.waitForFunction(() => window.coevo !== undefined);
  await page.evaluate(() => window.coevo?.ready());
  const name = page.getByTestId('next-run-name');
  await expect(name).toHaveText('tiny · seed 1');

  await page.getByTestId('run-settings').locator('summary').click();
  // Every group the loop uses, with each field's range in words.
  for (const g of ['Loop', 'Planner', 'GRPO', 'Grounder', 'Rewards', 'Curation', 'LoRA']) await expect(page.getByTestId('run-settings').locator('legend', { hasText: g })).toBeVisible();
  await expect(page.getByTestId('field-groupSize')).toContainText('an integer from 2 to 16');

  const groupSize = page.getByTestId('field-groupSize').locator('input');
  await groupSize.fill('1');
  await expect(page.getByTestId('field-groupSize').getByTestId('field-error')).toHaveText('groupSize must be an integer from 2 to 16; got 1');
  await expect(page.getByTestId('new-run')).toBeDisabled();
  await expect(page.getByTestId('new-run')).toHaveAttribute('title', 'groupSize must be an integer from 2 to 16; got 1');
  await groupSize.fill('7');
  await expect(page.getByTestId('field-error')).toHaveCount(0);

  await page.getByTestId('field-coevo').locator('input').uncheck();
  await expect(name).toHaveText('tiny · seed 1 · coevo=false');
  await page.getByTestId('new-run').click();
  await expect(page).toHaveURL(/run=/);
  const runId = new URL(page.url()).searchParams.get('run')!;
  const run = await page.evaluate(async (id) => (await window.coevo!.listRuns()).find((r) => r.id === id), runId);
  expect(run?.name).toBe('tiny · seed 1 · coevo=false');
  expect(run?.config.coevo).toBe(false);
  expect(run?.config.groupSize).toBe(7);
});
