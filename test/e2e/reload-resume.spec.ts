/**
 * Resume within a batch (issue 34, acceptance 1), in the real app on WASM: a
 * run is reloaded at random moments; after each reload the page takes the
 * run up by itself (no click), the phase it was in continues from its last
 * save no more than one batch short of where the page last saw it, and
 * the finished run's report equals an uninterrupted run's with the same
 * seed. The default suite reloads 3 times; COEVO_SLOW=1 reloads 10 times
 * (npm run test:e2e:slow).
 */
import { expect, test, type Page } from '@playwright/test';
import type { CoevoProgress, CoevoReport } from '../../workers/api';
import { MINI } from './mini';

const RELOADS = process.env.COEVO_SLOW === '1' ? 10 : 3;

async function open(page: Page): Promise<void> {
  await page.goto('/?backend=wasm');
  await page.waitForFunction(() => window.coevo !== undefined);
  await page.evaluate(() => window.coevo?.ready());
}

const status = (page: Page, runId: string): Promise<CoevoProgress> => page.evaluate((id) => window.coevo!.coevoStatus(id), runId);
const report = (page: Page, runId: string): Promise<CoevoReport> => page.evaluate((id) => window.coevo!.coevoReport(id), runId);

async function waitFor(page: Page, runId: string, until: (p: CoevoProgress) => boolean, timeoutMs = 600_000): Promise<CoevoProgress> {
  const t0 = Date.now();
  for (;;) {
    const p = await status(page, runId);
    if (p.state === 'failed') throw new Error(`run failed: ${p.error}`);
    if (until(p)) return p;
    if (Date.now() - t0 > timeoutMs) throw new Error(`timed out at ${JSON.stringify(p)}`);
    await page.waitForTimeout(100);
  }
}

/** What a report says that the seed decides (not the times). */
const essence = (r: CoevoReport) => ({ config: r.config, datasets: r.datasets, iterations: r.iterations, curation: r.curation });

/** A seeded draw, so a failing run of this test can be repeated. */
function delays(seed: number, n: number, totalMs: number): number[] {
  let s = seed;
  const next = () => ((s = (s * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  return Array.from({ length: n }, () => Math.round((0.3 + next()) * (totalMs / n)));
}

test(`a run reloaded ${RELOADS} times at random moments continues by itself within a batch and ends as an uninterrupted run`, async ({ page }) => {
  test.setTimeout(RELOADS > 3 ? 1_800_000 : 600_000);
  await open(page);
  const t0 = Date.now();
  const straight = await page.evaluate((o) => window.coevo!.startCoevo(o), MINI);
  await waitFor(page, straight.runId, (p) => p.state === 'done');
  const runMs = Date.now() - t0;
  const reference = await report(page, straight.runId);

  const { runId } = await page.evaluate((o) => window.coevo!.startCoevo(o), MINI);
  const seed = Number(process.env.COEVO_RELOAD_SEED ?? Date.now() % 100_000);
  const waits = delays(seed, RELOADS, runMs);
  console.log(`uninterrupted run: ${(runMs / 1000).toFixed(1)} s; reload seed ${seed}; waits ${waits.join(', ')} ms`);
  const seen: string[] = [];
  const phases = new Set<string>();
  for (const wait of waits) {
    await page.waitForTimeout(wait);
    // The last the page saw before the reload.
    const before = await status(page, runId);
    if (before.state === 'done') break;
    await page.reload();
    await open(page);
    // Taken up by itself: running again, without any click.
    const after = await waitFor(page, runId, (p) => p.state === 'done' || (p.state === 'running' && (p.replayed !== undefined || p.done > 0 || p.phaseIndex !== before.phaseIndex)), 60_000);
    const line = `${before.phase}#${before.phaseIndex} at batch ${before.batches ?? 0} (${before.done}/${before.total}) → ${after.phase}#${after.phaseIndex} resumed after ${after.replayed ?? 0} batches`;
    seen.push(line);
    if (after.phaseIndex === before.phaseIndex && before.phase) {
      phases.add(before.phase);
      // Within one batch of where the page last saw it (nothing is ever ahead of what was done).
      expect(after.replayed ?? 0, line).toBeGreaterThanOrEqual((before.batches ?? 0) - 1);
    } else expect(after.phaseIndex, line).toBeGreaterThanOrEqual(before.phaseIndex);
  }
  console.log(`reloads:\n  ${seen.join('\n  ')}\nphase types reloaded inside: ${[...phases].join(', ')}`);
  expect(seen.length).toBeGreaterThan(0);
  await waitFor(page, runId, (p) => p.state === 'done');
  const stored = await page.evaluate((id) => window.coevo!.listRuns().then((runs) => runs.find((r) => r.id === id)?.status), runId);
  expect(stored).toBe('done');
  expect(essence(await report(page, runId))).toEqual(essence(reference));
});

test('a run paused before a reload stays paused after it, at the batch it was paused at', async ({ page }) => {
  test.setTimeout(300_000);
  await open(page);
  const { runId } = await page.evaluate((o) => window.coevo!.startCoevo({ ...o, seed: 6 }), MINI);
  // Into the planner's SFT, then pause there.
  await waitFor(page, runId, (p) => p.phase === 'sft-planner' && p.done >= 1);
  await page.evaluate((id) => window.coevo!.controlCoevo(id, 'pause'), runId);
  const paused = await waitFor(page, runId, (p) => p.state === 'paused');
  expect(await page.evaluate((id) => window.coevo!.listRuns().then((runs) => runs.find((r) => r.id === id)?.status), runId)).toBe('paused');
  await page.reload();
  await open(page);
  await expect(page.getByTestId('run-state')).toHaveText(/paused/);
  await page.waitForTimeout(1500);
  const after = await status(page, runId);
  expect(after.state).toBe('paused');
  expect(after.phaseIndex).toBe(paused.phaseIndex);
  // Continue: the phase takes up at the batch it was paused at.
  await page.getByTestId('run-toggle').click();
  const going = await waitFor(page, runId, (p) => p.state === 'running' && p.replayed !== undefined, 60_000);
  console.log(`paused at ${paused.phase} batch ${paused.batches}; continued after ${going.replayed} replayed batches`);
  expect(going.replayed).toBe(paused.batches);
});
