/**
 * Resume within a batch (issue 34, acceptance 1), in the real app on WASM: a
 * run is reloaded inside its phases; after each reload the page takes the
 * run up by itself (no click), the phase it was in continues from its last
 * save no more than one batch short of where the page last saw it, and
 * the finished run's report equals an uninterrupted run's with the same
 * seed. Each reload waits for a phase of the plan to be part done, at a
 * seeded random point: the default suite reloads in 3 phases drawn at
 * random; COEVO_SLOW=1 (npm run test:e2e:slow) reloads 10 times, in every
 * phase of the plan and twice in each evaluation. The mini run's seed phase
 * is one batch that does not yield to the worker's message loop, so the page
 * never sees it part done and its moment falls in the planner's SFT;
 * test/slow/coevo-resume-midphase.test.ts cuts it in Node instead.
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

async function waitFor(page: Page, runId: string, until: (p: CoevoProgress) => boolean, timeoutMs = 600_000, pollMs = 100): Promise<CoevoProgress> {
  const t0 = Date.now();
  for (;;) {
    const p = await status(page, runId);
    if (p.state === 'failed') throw new Error(`run failed: ${p.error}`);
    if (until(p)) return p;
    if (Date.now() - t0 > timeoutMs) throw new Error(`timed out at ${JSON.stringify(p)}`);
    await page.waitForTimeout(pollMs);
  }
}

/** What a report says that the seed decides (not the times). */
const essence = (r: CoevoReport) => ({ config: r.config, datasets: r.datasets, iterations: r.iterations, curation: r.curation });

/** A seeded draw, so a failing run of this test can be repeated. */
function draws(seed: number): () => number {
  let s = seed;
  return () => (s = (s * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
}

/** The mini run's plan (K = 1): the seed phases, then one iteration. */
const PLAN_LENGTH = 8;
const EVALUATIONS = [3, 7];

interface Moment {
  phaseIndex: number;
  /** Reload once this share of the phase's items is done, and at least one of its batches (never all of it). */
  share: number;
}

/** Where to reload: every phase once and each evaluation twice (10), or 3 phases drawn at random. */
function moments(seed: number, n: number): Moment[] {
  const next = draws(seed);
  const share = (lo: number, hi: number) => lo + next() * (hi - lo);
  const phases = n >= PLAN_LENGTH + EVALUATIONS.length
    ? [...Array.from({ length: PLAN_LENGTH }, (_, i) => i), ...EVALUATIONS]
    : Array.from({ length: PLAN_LENGTH }, (_, i) => i).sort(() => next() - 0.5).slice(0, n);
  const seen = new Set<number>();
  return phases.sort((a, b) => a - b).map((phaseIndex) => {
    const again = seen.has(phaseIndex);
    seen.add(phaseIndex);
    return { phaseIndex, share: again ? share(0.55, 0.8) : share(0.05, 0.45) };
  });
}

test(`a run reloaded ${RELOADS} times at random moments continues by itself from its last save and ends as an uninterrupted run`, async ({ page }) => {
  test.setTimeout(RELOADS > 3 ? 1_800_000 : 600_000);
  await open(page);
  const t0 = Date.now();
  const straight = await page.evaluate((o) => window.coevo!.startCoevo(o), MINI);
  await waitFor(page, straight.runId, (p) => p.state === 'done');
  const runMs = Date.now() - t0;
  const reference = await report(page, straight.runId);

  const { runId } = await page.evaluate((o) => window.coevo!.startCoevo(o), MINI);
  const seed = Number(process.env.COEVO_RELOAD_SEED ?? Date.now() % 100_000);
  const plan = moments(seed, RELOADS);
  console.log(`uninterrupted run: ${(runMs / 1000).toFixed(1)} s; reload seed ${seed}; moments ${plan.map((m) => `#${m.phaseIndex} at ${(m.share * 100).toFixed(0)}%`).join(', ')}`);
  const seen: string[] = [];
  const phases = new Set<string>();
  for (const m of plan) {
    // The last the page saw before the reload: inside the phase, part done (or already past it, if the phase was too quick).
    const before = await waitFor(page, runId, (p) => p.state === 'done' || p.phaseIndex > m.phaseIndex || (p.phaseIndex === m.phaseIndex && (p.batches ?? 0) >= 1 && p.total > 0 && p.done >= m.share * p.total && p.done < p.total), 600_000, 20);
    if (before.state === 'done') break;
    await page.reload();
    await open(page);
    // Taken up by itself: running again, without any click.
    const after = await waitFor(page, runId, (p) => p.state === 'done' || (p.state === 'running' && (p.replayed !== undefined || p.done > 0 || p.phaseIndex !== before.phaseIndex)), 60_000);
    const line = `${before.phase}#${before.phaseIndex} at batch ${before.batches ?? 0}, saved ${before.saved ?? 0} (${before.done}/${before.total}) → ${after.phase}#${after.phaseIndex} resumed after ${after.replayed ?? 0} batches`;
    seen.push(line);
    if (after.phaseIndex === before.phaseIndex && before.phase) {
      phases.add(before.phase);
      // Nothing saved is lost. How far the save may lag the batches is the journal's policy (SAVE_COST_RATIO):
      // every batch when batches are slow against a save, fewer when a loaded machine makes saves slow.
      expect(after.replayed ?? 0, line).toBeGreaterThanOrEqual(before.saved ?? 0);
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
