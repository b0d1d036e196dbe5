/**
 * WebGPU device loss (issue 34, acceptance 2): a run training on WebGPU
 * (SwiftShader here) loses its device in the middle of a phase
 * (device.destroy(), as a driver reset would); the engine goes on on WASM
 * from the phase's last save, the run finishes, and the page says what
 * happened.
 */
import { expect, test } from '@playwright/test';
import type { CoevoProgress } from '../../workers/api';
import { MINI } from './mini';

test('a run whose GPU is lost mid-phase goes on on WASM from its last save, finishes, and says so', async ({ page }) => {
  test.setTimeout(600_000);
  await page.goto('/?backend=webgpu');
  await page.waitForFunction(() => window.coevo !== undefined);
  const device = await page.evaluate(() => window.coevo!.ready());
  expect(device.backend).toBe('webgpu');
  const status = (id: string): Promise<CoevoProgress> => page.evaluate((runId) => window.coevo!.coevoStatus(runId), id);

  // The seed phases only (K = 0): the loss and what follows it are the point, not the loop.
  const { runId } = await page.evaluate((o) => window.coevo!.startCoevo({ ...o, seed: 8, iterations: 0, config: { ...o.config, plannerSftSteps: 6 } }), MINI);
  await page.goto(`/?backend=webgpu&run=${runId}`);
  await page.waitForFunction(() => window.coevo !== undefined);
  await page.evaluate(() => window.coevo!.ready());
  // The page took the run up after the navigation; lose the GPU once the planner's SFT is two batches in (one saved).
  await expect.poll(async () => { const p = await status(runId); return p.phase === 'sft-planner' && p.done >= 2; }, { timeout: 300_000, intervals: [200] }).toBe(true);
  const before = await status(runId);
  expect(await page.evaluate(() => window.coevo!.simulateDeviceLoss())).toBe(true);
  console.log(`device destroyed at ${before.phase} ${before.done}/${before.total} (batch ${before.batches})`);

  const notice = page.getByTestId('run-notice');
  await expect(notice).toContainText(/GPU device was lost .*went on on the CPU \(WASM\) from its last save/, { timeout: 60_000 });
  console.log(`notice: ${(await notice.textContent())?.trim()}`);
  // Once the phase is going again on WASM: where it took up.
  await expect.poll(async () => { const p = await status(runId); return p.phaseIndex > before.phaseIndex || p.replayed !== undefined || p.done > 0; }, { timeout: 60_000, intervals: [100] }).toBe(true);
  const after = await status(runId);
  console.log(`after the loss: ${after.state} at ${after.phase} ${after.done}/${after.total}, ${after.replayed ?? 0} batches taken from the save`);
  expect(after.phaseIndex).toBe(before.phaseIndex);
  // It went on from a save, not from the phase's start (the save before the batch in flight, or the one before it).
  expect(after.replayed ?? 0).toBeGreaterThanOrEqual((before.batches ?? 0) - 1);
  expect(after.replayed ?? 0).toBeGreaterThan(0);

  await expect.poll(async () => (await status(runId)).state, { timeout: 400_000, intervals: [500] }).toBe('done');
  const runs = await page.evaluate(() => window.coevo!.listRuns());
  expect(runs.find((r) => r.id === runId)?.status).toBe('done');
  const report = await page.evaluate((id) => window.coevo!.coevoReport(id), runId);
  expect(report.iterations.length).toBe(1);
  expect(report.device.backend).toBe('wasm');
});
