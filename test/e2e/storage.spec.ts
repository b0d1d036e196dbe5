/** The run list shows the browser storage the runs take, and a run that would not fit is refused before it starts. */
import { expect, test, type Page } from '@playwright/test';

async function open(page: Page): Promise<void> {
  // example=0: the run list's contents are what this test compares.
  await page.goto('/?backend=wasm&preset=tiny&example=0');
  await page.waitForFunction(() => window.coevo !== undefined);
  await page.evaluate(() => window.coevo?.ready());
}

test('the run list shows usage and quota; a run that would not fit is refused with a clear message', async ({ page, context }) => {
  test.setTimeout(180_000);
  await open(page);
  const usage = page.getByTestId('storage-usage');
  await expect(usage).toContainText(/Storage: .* of .* used/);
  const quota = Number(await usage.getAttribute('data-quota'));
  console.log(`storage: ${(await usage.textContent())?.trim()} (quota ${quota} bytes, persisted ${await usage.getAttribute('data-persisted')})`);
  expect(quota).toBeGreaterThan(0);

  // A browser with 1 MB left of its quota.
  const full = await context.newPage();
  await full.addInitScript(() => {
    Object.defineProperty(StorageManager.prototype, 'estimate', { value: async () => ({ usage: 999_000_000, quota: 1_000_000_000 }) });
  });
  await open(full);
  await expect(full.getByTestId('storage-usage')).toContainText('Storage: 999 MB of 1.0 GB used');
  const before = await full.evaluate(() => window.coevo!.listRuns().then((runs) => runs.map((r) => r.id)));
  await full.getByTestId('new-run').click();
  const error = full.getByTestId('loop-error');
  await expect(error).toContainText(/This run needs about [\d.]+ MB of browser storage, but only 1\.0 MB of the 1\.0 GB this browser allows the app is free/);
  await expect(error).toContainText('nothing was started');
  console.log(`refused: ${(await error.textContent())?.trim()}`);
  expect(await full.evaluate(() => window.coevo!.listRuns().then((runs) => runs.map((r) => r.id)))).toEqual(before);
});
