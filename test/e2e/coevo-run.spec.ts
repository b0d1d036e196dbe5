import { test, expect, type Page } from '@playwright/test';
import type { CoevoProgress, CoevoReport, CoevoStartOptions } from '../../workers/api';
import { MINI } from './mini';

/**
 * The co-evolution engine through the real app's automation API, on WASM
 * (software WebGPU is far too slow for whole phases): a run exports, deletes and imports back
 * unchanged; a truncated file is refused and changes nothing; a second tab
 * cannot drive a run the first one holds. Reloads in the middle of a phase:
 * reload-resume.spec.ts.
 */


async function open(page: Page): Promise<void> {
  await page.goto('/?backend=wasm');
  await page.waitForFunction(() => window.coevo !== undefined);
  await page.evaluate(() => window.coevo?.ready());
}

const api = {
  start: (page: Page, o: CoevoStartOptions) => page.evaluate((opts) => window.coevo!.startCoevo(opts), o),
  status: (page: Page, runId: string): Promise<CoevoProgress> => page.evaluate((id) => window.coevo!.coevoStatus(id), runId),
  report: (page: Page, runId: string): Promise<CoevoReport> => page.evaluate((id) => window.coevo!.coevoReport(id), runId),
  control: (page: Page, runId: string, action: 'run' | 'pause' | 'step-batch') => page.evaluate(([id, a]) => window.coevo!.controlCoevo(id, a), [runId, action] as const),
};

async function waitFor(page: Page, runId: string, until: (p: CoevoProgress) => boolean, timeoutMs = 400_000): Promise<CoevoProgress> {
  const t0 = Date.now();
  for (;;) {
    const p = await api.status(page, runId);
    if (p.state === 'failed') throw new Error(`run failed: ${p.error}`);
    if (until(p)) return p;
    if (Date.now() - t0 > timeoutMs) throw new Error(`timed out at ${JSON.stringify(p)}`);
    await page.waitForTimeout(250);
  }
}

/** What must survive a reload or an export: config, per-iteration sample counts, metrics. */
const essence = (r: CoevoReport) => ({ config: r.config, datasets: r.datasets, iterations: r.iterations, curation: r.curation });

test('export → delete → import gives the same run; a truncated file is refused and changes nothing', async ({ page }) => {
  test.setTimeout(600_000);
  await open(page);
  const { runId } = await api.start(page, { ...MINI, seed: 9 });
  await waitFor(page, runId, (p) => p.state === 'done');
  const before = await api.report(page, runId);
  const t0 = Date.now();
  const bytes = await page.evaluate((id) => window.coevo!.exportRun(id), runId);
  console.log(`export: ${bytes.length} bytes in ${Date.now() - t0} ms`);
  expect(bytes).toBeInstanceOf(Uint8Array);
  expect(bytes.length).toBeGreaterThan(1000);

  await page.evaluate((id) => window.coevo!.deleteRun(id), runId);
  expect((await page.evaluate(() => window.coevo!.listRuns())).map((r) => r.id)).not.toContain(runId);
  const imported = await page.evaluate((b) => window.coevo!.importRun(b), bytes);
  expect(imported.id).toBe(runId);
  expect(essence(await api.report(page, runId))).toEqual(essence(before));

  const runsBefore = await page.evaluate(() => window.coevo!.listRuns());
  const truncated = bytes.slice(0, Math.floor(bytes.length / 2));
  const error = await page.evaluate((b) => window.coevo!.importRun(b).then(() => 'imported', (e: Error) => e.message), truncated);
  console.log(`truncated import: ${error}`);
  expect(error).toContain('nothing was imported');
  expect(await page.evaluate(() => window.coevo!.listRuns())).toEqual(runsBefore);
});

test('a second tab cannot drive a run the first tab holds, and says which tab does', async ({ page, context }) => {
  test.setTimeout(300_000);
  await open(page);
  const { runId } = await api.start(page, { ...MINI, seed: 11, paused: true });
  const other = await context.newPage();
  await open(other);
  const error = await other.evaluate((id) => window.coevo!.controlCoevo(id, 'run').then(() => 'drove it', (e: Error) => e.message), runId);
  console.log(`second tab: ${error}`);
  expect(error).toMatch(/another tab \(tab \w+, opened at/);
  await other.close();
});
