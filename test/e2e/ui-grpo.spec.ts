import AxeBuilder from '@axe-core/playwright';
import { test, expect, type Page } from '@playwright/test';
import type { CoevoProgress, CoevoStartOptions } from '../../workers/api';
import type { GroupRecord } from '../../src/coevo/groupRecords';
import { MINI } from './mini';

/**
 * The GRPO group inspector (view=grpo) on a real mini run, on WASM: empty
 * before planner GRPO, filled in live once that phase commits, one state at
 * a time with its G instructions, reward parts and advantages, stepped by
 * buttons and arrow keys, kept in the URL; every pool grounder's point is
 * drawn as its own marker; no serious accessibility violations.
 */

const G = 3;
/** planner-grpo is phase 4 (0-based) of the plan; once the cursor is past it, its groups are stored. */
const PLANNER_GRPO_INDEX = 4;

async function open(page: Page, query = ''): Promise<void> {
  await page.goto(`/?backend=wasm${query}`);
  await page.waitForFunction(() => window.coevo !== undefined);
  await page.evaluate(() => window.coevo?.ready());
}

async function waitFor(page: Page, runId: string, until: (p: CoevoProgress) => boolean, timeoutMs = 400_000): Promise<CoevoProgress> {
  const t0 = Date.now();
  for (;;) {
    const p: CoevoProgress = await page.evaluate((id) => window.coevo!.coevoStatus(id), runId);
    if (p.state === 'failed') throw new Error(`run failed: ${p.error}`);
    if (until(p)) return p;
    if (Date.now() - t0 > timeoutMs) throw new Error(`timed out at ${JSON.stringify(p)}`);
    await page.waitForTimeout(250);
  }
}

/**
 * A planner trained for a few steps writes nothing that parses, so nothing is
 * grounded and no marker is drawn. To see the markers, the first sample of
 * the first stored group is rewritten as a grounded one: the true instruction,
 * the first grounder's point at the target's centre (a hit), the others in a
 * corner (misses).
 */
async function groundFirstSample(page: Page, runId: string): Promise<string[]> {
  return page.evaluate(async (id) => {
    const db = await new Promise<IDBDatabase>((ok, fail) => {
      const r = indexedDB.open('coevo');
      r.onsuccess = () => ok(r.result);
      r.onerror = () => fail(r.error);
    });
    const tx = db.transaction('groups', 'readwrite');
    const store = tx.objectStore('groups');
    const g = await new Promise<GroupRecord>((ok) => {
      const r = store.get(IDBKeyRange.bound([id, 0, 0, 0], [id, Infinity, Infinity, Infinity]));
      r.onsuccess = () => ok(r.result as GroupRecord);
    });
    const box = g.truth.box!;
    const hits = g.pool.map((_, j) => (j === 0 ? 1 : 0));
    const weights = g.pool.map(() => 1 / g.pool.length);
    g.samples[0] = {
      instruction: g.truth.instruction,
      parsed: true,
      actionType: g.truth.type,
      style: 'text',
      groundings: g.pool.map((_, j) => (j === 0 ? { point: { x: box.x + box.w / 2, y: box.y + box.h / 2 }, confidence: 1, hit: true } : { point: { x: 3 + 4 * j, y: 4 }, confidence: 0.3, hit: false })),
      reward: { type: 1, value: 1, plan: weights[0], weights, hits, total: weights[0] },
      advantage: 1.15,
    };
    // The other samples keep no points, so the markers are this sample's alone (under the grammar constraint every sample parses and is grounded).
    g.samples.slice(1).forEach((s) => {
      s.advantage = -1.15 / (g.samples.length - 1);
      s.groundings = [];
    });
    g.informative = true;
    store.put(g);
    await new Promise((ok) => (tx.oncomplete = ok));
    db.close();
    return g.pool.map((m) => m.name);
  }, runId);
}

test('the GRPO inspector steps through a run’s recorded groups', async ({ page }) => {
  test.setTimeout(600_000);
  await open(page);
  // Only steps with a target box, so that every recorded group has one to draw a grounded sample in (groundFirstSample).
  const { runId } = await page.evaluate((o) => window.coevo!.startCoevo(o), { ...MINI, config: { ...MINI.config, grpoTargetedOnly: true }, paused: true });

  // Before planner GRPO: a helpful empty state.
  await open(page, `&view=grpo&run=${runId}`);
  const view = page.getByTestId('view-grpo');
  await expect(view.getByTestId('grpo-empty')).toContainText('no finished planner GRPO phase yet');

  // Run past planner GRPO; the view fills in as the phase commits.
  await page.evaluate((id) => window.coevo!.controlCoevo(id, 'run'), runId);
  await waitFor(page, runId, (p) => p.phaseIndex > PLANNER_GRPO_INDEX || p.state === 'done');
  await page.evaluate((id) => window.coevo!.controlCoevo(id, 'pause'), runId);
  await expect(view).toHaveAttribute('data-ready', 'true', { timeout: 60_000 });

  await expect(view.getByTestId('grpo-sample')).toHaveCount(G);
  const instructions = await view.getByTestId('grpo-instruction').allInnerTexts();
  expect(instructions).toHaveLength(G);
  for (const text of instructions) expect(text.trim().length).toBeGreaterThan(0);
  await expect(view.getByTestId('grpo-advantage')).toHaveCount(G);
  const advantages = await view.getByTestId('grpo-advantage').evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-value'))));
  // Group-normalised: they sum to 0 (all 0 when the group is uninformative).
  expect(Math.abs(advantages.reduce((a, b) => a + b, 0))).toBeLessThan(1e-6);
  await expect(view.getByTestId('grpo-goal')).not.toBeEmpty();
  await expect(view.getByTestId('grpo-informative')).toBeVisible();
  // It opens on an informative group where the batch has one (state 2 when the first is not); Previous goes to state 1.
  await expect(view.getByTestId('grpo-where')).toHaveText(/^state [12] of 2$/);
  // dispatchEvent: at state 1 the button is aria-disabled, which Playwright's click waits out.
  await view.getByTestId('grpo-prev').dispatchEvent('click');
  await expect(view.getByTestId('grpo-where')).toHaveText('state 1 of 2');
  await expect(view.getByTestId('grpo-batch').locator('option')).toHaveCount(2);

  // Prev/next by button and by arrow key while the inspector has focus; the URL keeps the place.
  await view.getByTestId('grpo-next').click();
  await expect(view.getByTestId('grpo-where')).toHaveText('state 2 of 2');
  await view.getByTestId('grpo-prev').focus();
  await page.keyboard.press('ArrowLeft');
  await expect(view.getByTestId('grpo-where')).toHaveText('state 1 of 2');
  await page.keyboard.press('ArrowRight');
  await expect(view.getByTestId('grpo-where')).toHaveText('state 2 of 2');
  await view.getByTestId('grpo-batch').selectOption('1');
  await expect(view.getByTestId('grpo-where')).toHaveText('state 1 of 2');
  await view.getByTestId('grpo-next').click();
  await page.reload();
  await expect(view).toHaveAttribute('data-ready', 'true', { timeout: 60_000 });
  await expect(view.getByTestId('grpo-batch')).toHaveValue('1');
  await expect(view.getByTestId('grpo-where')).toHaveText('state 2 of 2');

  // Every pool grounder's point of a grounded sample gets its own marker; the legend names them.
  const pool = await groundFirstSample(page, runId);
  await open(page, `&view=grpo&run=${runId}`);
  await expect(view).toHaveAttribute('data-ready', 'true', { timeout: 60_000 });
  const markers = view.getByTestId('grpo-marker');
  await expect(markers).toHaveCount(pool.length);
  expect(await markers.evaluateAll((els) => els.map((e) => [e.getAttribute('data-grounder'), e.getAttribute('data-hit')]))).toEqual(pool.map((_, j) => [String(j), String(j === 0)]));
  for (const name of pool) await expect(view.getByTestId('grpo-legend')).toContainText(name);
  await expect(view.getByTestId('grpo-hit').first()).toHaveText(/hit/);
  await expect(view.getByTestId('grpo-informative')).toHaveText('informative group');
  // Informative only: Next skips groups whose samples all got the same reward; the URL keeps the filter.
  await view.getByTestId('grpo-informative-only').check();
  await expect(page).toHaveURL(/informative=1/);
  await expect(view.getByTestId('grpo-where')).toHaveText(/^informative state 1 of [12]$/);
  await view.getByTestId('grpo-next').dispatchEvent('click');
  await expect(view.getByTestId('grpo-informative')).toHaveAttribute('data-informative', 'true');
  await view.getByTestId('grpo-prev').dispatchEvent('click');
  await view.getByTestId('grpo-informative-only').uncheck();
  await expect(view.getByTestId('grpo-where')).toHaveText('state 1 of 2');
  await view.getByTestId('grpo-instruction').first().click();
  await expect(view.getByTestId('grpo-instruction').first()).toHaveAttribute('aria-pressed', 'true');

  const axe = await new AxeBuilder({ page }).include('[data-testid="view-grpo"]').analyze();
  const bad = axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(bad.map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(' | ')}`)).toEqual([]);

  await page.screenshot({ path: 'test-results/ui/grpo.png', fullPage: true });
  await view.getByTestId('grpo-next').click();
  await expect(view.getByTestId('grpo-where')).toHaveText('state 2 of 2');
  await page.screenshot({ path: 'test-results/ui/grpo-state2.png', fullPage: true });
  // Every recorded state, to look at both platforms' layouts.
  for (const batch of ['0', '1']) {
    await view.getByTestId('grpo-batch').selectOption(batch);
    for (const state of [1, 2]) {
      if (state === 2) await view.getByTestId('grpo-next').click();
      await expect(view.getByTestId('grpo-where')).toHaveText(`state ${state} of 2`);
      await page.screenshot({ path: `test-results/ui/grpo/batch${batch}-state${state}.png`, fullPage: true });
    }
  }
  await page.setViewportSize({ width: 1920, height: 1080 });
  await page.screenshot({ path: 'test-results/ui/grpo-1080p.png', fullPage: true });
  // A phone: the screen shrinks to the width, nothing scrolls sideways.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: 'test-results/ui/grpo-390.png', fullPage: true });
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
});
