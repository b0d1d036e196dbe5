import { test, expect } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { expectAccessible, openApp } from './ui-data-runs';
import { watchErrors } from './page-errors';
import { screenshotPng } from './ui-heatmap';

/**
 * The Offsite view (view=offsite) on WASM, the tiny planner, the quick
 * size: a comparison shows its progress; a reload in the middle keeps the
 * record and says where it stopped; a comparison run to the end shows its
 * verdict, the rows with intervals, the emulators' units and what crosses
 * between the owners, and is still there after a reload.
 */

test('an offsite comparison runs from the view, survives a reload as a record, and shows rows, emulators and sizes', async ({ page }) => {
  test.setTimeout(480_000);
  const errors = watchErrors(page);
  await openApp(page, '&view=offsite');
  const view = page.getByTestId('view-offsite');
  await expect(view.getByText('No comparison finished on this device yet')).toBeVisible();
  await expect(page.getByTestId('offsite-size')).toHaveValue('quick');

  // Started, then the page reloaded mid-run: the worker dies with it, the record stays and says so.
  await page.getByTestId('offsite-start').click();
  const progress = page.getByTestId('offsite-progress');
  await expect(progress).toBeVisible();
  await expect.poll(async () => Number(await progress.getAttribute('data-done')), { timeout: 120_000 }).toBeGreaterThan(0);
  const total = Number(await progress.getAttribute('data-total'));
  // Quick planner: 8 harmonizer steps, full fine-tuning and three tunings of 8 (uniform drop only where α > 0).
  expect(total).toBe(8 + 8 * 4);
  await page.reload();
  await page.waitForFunction(() => window.coevo !== undefined);
  const stopped = page.getByTestId('offsite-record').first();
  await expect(stopped).toHaveAttribute('data-status', 'stopped');
  await expect(stopped).toContainText(/planner, tiny · stopped at .+ \(\d+ of 40 steps\): the page was reloaded or closed/);

  // Run to the end.
  await page.evaluate(() => window.coevo?.ready());
  await page.getByTestId('offsite-start').click();
  const result = page.getByTestId('offsite-result');
  await expect(result).toBeVisible({ timeout: 420_000 });
  await expect(page.getByTestId('offsite-record').first()).toHaveAttribute('data-status', 'done');
  await expect(page.getByTestId('offsite-verdict').locator('li')).toHaveCount(2);
  await expect(page.getByTestId('offsite-verdict')).toContainText('At α 0.5, β 1:');
  const rows = page.getByTestId('offsite-row');
  await expect(rows).toHaveCount(8);
  for (const v of await rows.evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-value'))))) expect(v).toBeGreaterThanOrEqual(0);
  await expect(rows.first()).toContainText(/% · \d+\/\d+/);
  // Three emulators (ScaleOT and uniform drop at α 0.5, ScaleOT at α 0), each with the tiny planner's four units, ends as adapters.
  const emulators = page.getByTestId('offsite-emulator');
  await expect(emulators).toHaveCount(3);
  for (let i = 0; i < 3; i++) {
    const roles = await emulators.nth(i).getByTestId('offsite-unit').evaluateAll((els) => els.map((e) => e.getAttribute('data-role')));
    expect(roles).toHaveLength(4);
    expect([roles[0], roles[3]]).toEqual(['adapter', 'adapter']);
  }
  expect(await emulators.nth(0).locator('[data-role="replaced"]').count()).toBe(1);
  expect(await emulators.nth(2).locator('[data-role="rank-reduced"]').count()).toBeGreaterThan(0);
  await expect(page.getByTestId('offsite-sizes')).toContainText('adapters sent back');
  await expectAccessible(page, '[data-testid="view-offsite"]');
  await page.screenshot({ path: 'test-results/ui/offsite.png', fullPage: true });

  // Nothing lost on reload: the finished comparison is read back from the store.
  await page.reload();
  await expect(page.getByTestId('offsite-result')).toBeVisible();
  await expect(page.getByTestId('offsite-row')).toHaveCount(8);
  expect(errors).toEqual([]);
});

test('screenshots marked in the Playground become the grounder’s private set in the Offsite view', async ({ page }) => {
  test.setTimeout(360_000);
  const errors = watchErrors(page);
  await openApp(page, '&view=playground&pg=upload');
  const png = await screenshotPng(page);
  // The test page's Delete and Cancel buttons (480×300 px, ui-heatmap.ts), each asked for twice; three boxes dragged, one typed.
  const asks = [
    { text: 'click Delete', box: { x: 40, y: 180, w: 170, h: 60 } },
    { text: 'click Cancel', box: { x: 270, y: 180, w: 170, h: 60 } },
    { text: 'click the Delete button', box: { x: 40, y: 180, w: 170, h: 60 } },
    { text: 'click the Cancel button', box: { x: 270, y: 180, w: 170, h: 60 } },
  ];
  for (const [i, a] of asks.entries()) {
    await page.getByTestId('screenshot-file').setInputFiles({ name: `dialog-${i}.png`, mimeType: 'image/png', buffer: png });
    await expect(page.getByTestId('screenshot-info')).toContainText(`dialog-${i}.png`);
    await page.getByTestId('ask-instruction').fill(a.text);
    if (i < 3) {
      // Dragged over the button.
      const area = page.getByTestId('mark-area');
      const r = (await area.boundingBox())!;
      const at = (x: number, y: number) => [r.x + (x / 480) * r.width, r.y + (y / 300) * r.height] as const;
      await page.mouse.move(...at(a.box.x, a.box.y));
      await page.mouse.down();
      await page.mouse.move(...at(a.box.x + a.box.w / 2, a.box.y + a.box.h / 2));
      await page.mouse.move(...at(a.box.x + a.box.w, a.box.y + a.box.h));
      await page.mouse.up();
      await expect(page.getByTestId('mark-note')).toContainText(/Your box: 1[67]\d×[56]\d px at \(/);
    } else {
      // By keyboard: a box around the grounder's point, then typed.
      await expect(page.getByTestId('ground-result')).toHaveAttribute('data-x', /\d/);
      await page.getByTestId('mark-around-point').click();
      for (const key of ['x', 'y', 'w', 'h'] as const) await page.getByTestId(`mark-${key}`).fill(String(a.box[key]));
      await page.getByTestId('mark-h').press('Tab');
      await expect(page.getByTestId('mark-note')).toContainText(`Your box: 170×60 px at (270, 180).`);
    }
    await expect(page.getByTestId('marked-box')).toHaveCount(1);
    if (i === 0) await page.screenshot({ path: 'test-results/ui/playground-keep.png', fullPage: true });
    await page.getByTestId('keep-private-button').click();
    await expect(page.getByTestId('private-count')).toHaveAttribute('data-count', String(i + 1));
    await expect(page.getByTestId('marked-box')).toHaveCount(0);
  }
  await expectAccessible(page, '[data-testid="view-playground"]');

  await page.getByRole('link', { name: 'Tune the grounder on them in the Offsite view' }).click();
  await page.waitForFunction(() => window.coevo !== undefined);
  await expect(page.getByTestId('offsite-private')).toHaveValue('own');
  await expect(page.getByTestId('own-note')).toContainText('4 marked screenshots, kept in this browser only');

  // They leave the browser only as the file asked for, and come back from it whole; a damaged file adds nothing.
  const download = page.waitForEvent('download');
  await page.getByTestId('private-download').click();
  const file = await (await download).path();
  expect((await download).suggestedFilename()).toBe('coevo-private-set.json');
  await page.getByTestId('private-delete').click();
  await page.getByTestId('private-delete-confirm').click();
  await expect(page.getByTestId('own-note')).toContainText('0 kept so far');
  await expect(page.getByTestId('offsite-start')).toBeDisabled();
  const text = readFileSync(file, 'utf8');
  await page.getByTestId('private-file').setInputFiles({ name: 'cut.json', mimeType: 'application/json', buffer: Buffer.from(text.slice(0, text.length / 2)) });
  await expect(page.getByTestId('private-error')).toContainText('is not JSON');
  await expect(page.getByTestId('own-note')).toContainText('0 kept so far');
  await page.getByTestId('private-file').setInputFiles(file);
  await expect(page.getByTestId('private-message')).toContainText('Added 4 screenshots');
  await expect(page.getByTestId('own-note')).toContainText('4 marked screenshots, kept in this browser only');

  await page.getByTestId('offsite-start').click();
  const result = page.getByTestId('offsite-result');
  await expect(result).toBeVisible({ timeout: 300_000 });
  await expect(result.locator('h3').first()).toContainText('your marked screenshots, split with seed 77: 2 to tune on, 2 to test');
  await expect(page.getByTestId('offsite-row')).toHaveCount(8);
  for (const n of await page.getByTestId('offsite-row').evaluateAll((els) => els.map((e) => e.textContent ?? ''))) expect(n).toMatch(/\d\/2$/);
  expect(errors).toEqual([]);
});

test('a comparison the browser cannot store (a full disk) is still shown, with a clear word and its downloads (LoRA adapters)', async ({ page }) => {
  test.setTimeout(300_000);
  // With LoRA adapters, chosen by the URL.
  await openApp(page, '&view=offsite&adapters=lora');
  await expect(page.getByTestId('offsite-adapters')).toHaveValue('lora');
  // The engine worker writes the records: its IndexedDB refuses the offsite store as a full disk does.
  const worker = page.workers().find((w) => w.url().includes('engine.worker'));
  expect(worker).toBeDefined();
  await worker!.evaluate(() => {
    const put = IDBObjectStore.prototype.put;
    IDBObjectStore.prototype.put = function (this: IDBObjectStore, ...args: Parameters<IDBObjectStore['put']>) {
      if (this.name === 'offsite') throw new DOMException('quota', 'QuotaExceededError');
      return put.apply(this, args);
    };
  });
  await page.getByTestId('offsite-start').click();
  await expect(page.getByRole('alert')).toContainText('could not store it (is its storage full?)', { timeout: 240_000 });
  await expect(page.getByTestId('offsite-result')).toBeVisible();
  await expect(page.getByTestId('offsite-row')).toHaveCount(8);
  await expect(page.getByTestId('offsite-record')).toHaveCount(0);
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download report.json' }).click();
  expect((await download).suggestedFilename()).toBe('offsite-report.json');
  const saved = JSON.parse(readFileSync(await (await download).path(), 'utf8'));
  expect(saved.comparison.settings.lora).toEqual({ rank: 4, alpha: 8, lr: 5e-3 });
  expect(saved.comparison.emulators[0].adapters.kind).toBe('lora');
  await expect(page.getByTestId('offsite-emulator').first()).toContainText('LoRA tuned by the data owner');
});
