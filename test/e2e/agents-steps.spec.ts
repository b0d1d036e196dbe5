import { test, expect, type Page } from '@playwright/test';
import type { StepCheckOptions, StepCheckResult } from '../../workers/api';

/**
 * The agents' training steps in the engine worker, in chromium: seeded steps
 * give the same losses on WebGPU (SwiftShader here) and on WASM, and the
 * tensor count stays flat across 20 steps. Three steps of each rule, because
 * a WebGPU-only fault in a gradient or in clipping (a shader that fails to
 * compile leaves zeros or garbage) leaves the first loss equal and, for the
 * rank-6 pad that broke the grounder's region gradient, moved the second by
 * only 8e-4 but the third by 3%. Software WebGPU runs a tiny grounder
 * step in about 15–40 s and a planner GRPO step (24 decoding forwards) in
 * minutes, so planner GRPO on WebGPU runs with COEVO_SLOW=1
 * (`npm run test:e2e:slow`).
 */

const SLOW = process.env.COEVO_SLOW === '1';

async function openOn(page: Page, backend: 'webgpu' | 'wasm'): Promise<void> {
  await page.goto(`/?backend=${backend}`);
  await expect(page.getByTestId('device-badge')).toHaveAttribute('data-backend', backend);
}

function stepCheck(page: Page, o: StepCheckOptions): Promise<StepCheckResult> {
  return page.evaluate((opts) => {
    if (!window.coevo) throw new Error('window.coevo is missing');
    return window.coevo.stepCheck(opts);
  }, o);
}

/** |a − b| / max(|a|, |b|, 1): relative for losses of order 1 and above; GRPO's first loss is ~0 by construction (zero-mean advantages, ratio 1), where this is an absolute 1e-3. */
const relDiff = (a: number, b: number) => Math.abs(a - b) / Math.max(Math.abs(a), Math.abs(b), 1);

const KINDS = ['grounder-sft', 'grounder-grpo', 'planner-sft', ...(SLOW ? (['planner-grpo'] as const) : [])] as const;

test('no tensor leak across 20 seeded steps of each agent and rule in the worker (WASM)', async ({ page }) => {
  test.setTimeout(600_000);
  await openOn(page, 'wasm');
  for (const kind of ['grounder-sft', 'grounder-grpo', 'planner-sft', 'planner-grpo'] as const) {
    const r = await stepCheck(page, { kind, steps: 20, batch: kind === 'planner-grpo' ? 1 : 2, seed: 5, preset: 'tiny' });
    console.log(`${kind} wasm ×20: tensors ${r.tensorsBefore} → ${r.tensorsAfterStep[0]} … ${r.tensorsAfterStep[19]} → ${r.tensorsAfterDispose}; losses ${r.losses[0].toPrecision(5)} … ${r.losses[19].toPrecision(5)}`);
    expect(r.losses.every(Number.isFinite)).toBe(true);
    expect(new Set(r.tensorsAfterStep).size).toBe(1);
    expect(r.tensorsAfterDispose).toBe(r.tensorsBefore);
  }
});

test('the same seeded steps give the same losses on WebGPU and on WASM', async ({ browser }) => {
  test.setTimeout(SLOW ? 1_800_000 : 420_000);
  const results: Record<string, Record<string, StepCheckResult>> = { webgpu: {}, wasm: {} };
  for (const backend of ['webgpu', 'wasm'] as const) {
    const page = await browser.newPage();
    await openOn(page, backend);
    for (const kind of KINDS) results[backend][kind] = await stepCheck(page, { kind, steps: 3, batch: 1, seed: 7, preset: 'tiny' });
    await page.close();
  }
  for (const kind of KINDS) {
    const g = results.webgpu[kind];
    const w = results.wasm[kind];
    const d = g.losses.map((l, i) => relDiff(l, w.losses[i]));
    console.log(`${kind}: webgpu ${g.losses.join(', ')} (${g.stepMs.map(Math.round).join(', ')} ms) vs wasm ${w.losses.join(', ')} (${w.stepMs.map(Math.round).join(', ')} ms): rel diff ${d.map((x) => x.toExponential(2)).join(', ')}; rewards ${g.rewards} vs ${w.rewards}`);
    expect(g.backend).toBe('webgpu');
    expect(w.backend).toBe('wasm');
    expect(g.deviceFault ?? null).toBeNull();
    expect(g.losses).toHaveLength(3);
    expect(g.losses.every(Number.isFinite)).toBe(true);
    for (const x of d) expect(x).toBeLessThan(1e-3);
    g.rewards.forEach((r, i) => expect(relDiff(r, w.rewards[i])).toBeLessThan(1e-3));
    expect(g.tensorsAfterDispose).toBe(g.tensorsBefore);
  }
});

test('WASM on two threads gives the losses of one thread (to 1e-5), and the badge says how many', async ({ browser }) => {
  test.setTimeout(420_000);
  const results: Record<string, Record<string, StepCheckResult>> = {};
  for (const threads of [1, 2] as const) {
    const page = await browser.newPage();
    await page.goto(`/?backend=wasm&threads=${threads}`);
    await expect(page.getByTestId('device-badge')).toHaveAttribute('data-backend', 'wasm');
    const cores = await page.evaluate(() => navigator.hardwareConcurrency);
    test.skip(cores < 2, `this browser reports ${cores} core(s): nothing to run a second thread on`);
    await expect(page.getByTestId('device-badge')).toContainText(`${threads} thread${threads === 1 ? '' : 's'}`);
    results[threads] = {};
    // Not planner GRPO: an untrained planner's groups are uninformative (loss 0 whatever the threads); planner SFT runs its kernels' gradients.
    for (const kind of ['grounder-sft', 'grounder-grpo', 'planner-sft'] as const) {
      results[threads][kind] = await stepCheck(page, { kind, steps: 3, batch: 2, seed: 7, preset: 'tiny' });
    }
    await page.close();
  }
  for (const kind of Object.keys(results[1])) {
    const one = results[1][kind];
    const two = results[2][kind];
    const d = one.losses.map((l, i) => relDiff(l, two.losses[i]));
    console.log(`${kind}: 1 thread ${one.losses.join(', ')} (${one.stepMs.map(Math.round).join(', ')} ms) vs 2 threads ${two.losses.join(', ')} (${two.stepMs.map(Math.round).join(', ')} ms): rel diff ${d.map((x) => x.toExponential(2)).join(', ')}`);
    expect(one.losses.every(Number.isFinite)).toBe(true);
    for (const x of d) expect(x).toBeLessThan(1e-5);
    one.rewards.forEach((r, i) => expect(relDiff(r, two.rewards[i])).toBeLessThan(1e-5));
  }
});
