/**
 * Shared by the data and metrics e2e specs: a mini co-evolution run made
 * through the real app's automation API (every phase runs on a handful of
 * items, on WASM), and the accessibility check every view must pass.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';
import type { CoevoProgress, CoevoStartOptions } from '../../workers/api';
export { MINI } from './mini';


/** Opens the lab on WASM; example=0: a fresh profile starts empty instead of on the shipped example run. */
export async function openApp(page: Page, query = ''): Promise<void> {
  await page.goto(`/?backend=wasm&example=0${query}`);
  await page.waitForFunction(() => window.coevo !== undefined);
  await page.evaluate(() => window.coevo?.ready());
}

/** Starts a run and waits until it is done; returns its id. */
export async function finishedRun(page: Page, options: CoevoStartOptions, timeoutMs = 300_000): Promise<string> {
  const { runId } = await page.evaluate((o) => window.coevo!.startCoevo(o), options);
  const t0 = Date.now();
  for (;;) {
    const p: CoevoProgress = await page.evaluate((id) => window.coevo!.coevoStatus(id), runId);
    if (p.state === 'failed') throw new Error(`run ${runId} failed: ${p.error}`);
    if (p.state === 'done') return runId;
    if (Date.now() - t0 > timeoutMs) throw new Error(`run ${runId} did not finish in ${timeoutMs} ms: ${JSON.stringify(p)}`);
    await page.waitForTimeout(250);
  }
}

/** No accessibility violation of serious or critical impact inside `selector`. */
export async function expectAccessible(page: Page, selector: string): Promise<void> {
  const result = await new AxeBuilder({ page }).include(selector).analyze();
  const bad = result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(bad.map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(' | ')}`)).toEqual([]);
}
