import { test, expect, chromium, type Page } from '@playwright/test';
import { CHROMIUM_ARGS } from '../../playwright.config';
import { watchErrors } from './page-errors';

async function trainAndReadLoss(page: Page): Promise<{ first: number; last: number; points: number }> {
  await page.getByTestId('train').click();
  const chart = page.getByTestId('live-loss');
  await expect(chart).toHaveAttribute('data-points', '150');
  await expect(page.getByTestId('train')).toBeEnabled();
  return {
    first: Number(await chart.getAttribute('data-first')),
    last: Number(await chart.getAttribute('data-last')),
    points: Number(await chart.getAttribute('data-points')),
  };
}

test('trains the tiny model on WebGPU in the worker and keeps the run across a reload', async ({ page }) => {
  const errors = watchErrors(page);
  // Asked for explicitly: on a software adapter (SwiftShader here) the app would pick WASM by itself.
  await page.goto('/?backend=webgpu');
  const badge = page.getByTestId('device-badge');
  await expect(badge).toHaveAttribute('data-backend', 'webgpu');
  await expect(badge).toContainText('WebGPU');
  const text = (await badge.textContent()) ?? '';
  // SwiftShader here; a real GPU elsewhere. Either way the adapter is named.
  expect(text.replace('WebGPU', '').trim().length).toBeGreaterThan(3);
  console.log(`adapter badge: ${text.trim()}`);

  const loss = await trainAndReadLoss(page);
  console.log(`webgpu tiny job: loss ${loss.first} -> ${loss.last} over ${loss.points} steps`);
  expect(loss.last).toBeLessThan(loss.first);
  expect(errors).toEqual([]);

  await page.reload();
  const items = page.getByTestId('run-item');
  await expect(items).toHaveCount(1);
  await expect(items.first()).toHaveAttribute('data-status', 'done');
  const stored = page.getByTestId('stored-loss');
  await expect(stored).toHaveAttribute('data-points', '150');
  expect(Number(await stored.getAttribute('data-first'))).toBeCloseTo(loss.first, 5);
  expect(Number(await stored.getAttribute('data-last'))).toBeCloseTo(loss.last, 5);
  expect(errors).toEqual([]);
});

test('without WebGPU the page explains why and trains on the WASM fallback', async () => {
  // A second browser without --enable-unsafe-webgpu, with WebGPU switched off outright.
  const args = CHROMIUM_ARGS.filter((a) => a !== '--enable-unsafe-webgpu').concat('--disable-features=WebGPU');
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args });
  try {
    const page = await browser.newPage({ baseURL: test.info().project.use.baseURL });
    const errors = watchErrors(page);
    await page.goto('/');
    const notice = page.getByTestId('no-webgpu');
    await expect(notice).toBeVisible();
    await expect(notice).toContainText('WebGPU');
    await expect(notice).toContainText('Chrome');
    await page.getByTestId('use-wasm').click();
    const badge = page.getByTestId('device-badge');
    await expect(badge).toHaveAttribute('data-backend', 'wasm');
    await expect(badge).toContainText('slower fallback');
    expect(page.url()).toContain('backend=wasm');
    const loss = await trainAndReadLoss(page);
    console.log(`wasm tiny job: loss ${loss.first} -> ${loss.last} over ${loss.points} steps`);
    expect(loss.last).toBeLessThan(loss.first);
    expect(errors).toEqual([]);
  } finally {
    await browser.close();
  }
});

test('on a software adapter the app starts on WASM, says why, and the badge switches backends', async ({ page }) => {
  const errors = watchErrors(page);
  await page.goto('/');
  const badge = page.getByTestId('device-badge');
  const probe = await page.evaluate(async () => {
    const a = await (navigator as Navigator & { gpu?: GPU }).gpu?.requestAdapter();
    return a ? `${a.info.vendor} ${a.info.architecture} ${a.info.description}`.toLowerCase() : '';
  });
  test.skip(!/swiftshader|llvmpipe|software/.test(probe), `a hardware adapter (${probe}): the app rightly starts on WebGPU`);
  await expect(badge).toHaveAttribute('data-backend', 'wasm');
  await expect(page.getByTestId('backend-why')).toContainText('software GPU');
  await expect(page.getByTestId('backend-why')).toHaveAttribute('title', /software one/);
  expect(page.url()).not.toContain('backend=');

  await page.getByTestId('backend-webgpu').click();
  await expect(page).toHaveURL(/backend=webgpu/);
  await expect(badge).toHaveAttribute('data-backend', 'webgpu');
  await expect(badge).toContainText('software GPU, slow');
  await expect(page.getByTestId('backend-why')).toHaveCount(0);
  await expect(page.getByTestId('backend-webgpu')).toHaveAttribute('aria-pressed', 'true');

  await page.getByTestId('backend-wasm').click();
  await expect(page).toHaveURL(/backend=wasm/);
  await expect(badge).toHaveAttribute('data-backend', 'wasm');
  expect(errors).toEqual([]);
});

test('?backend=wasm selects the CPU backend explicitly', async ({ page }) => {
  await page.goto('/?backend=wasm');
  await expect(page.getByTestId('device-badge')).toHaveAttribute('data-backend', 'wasm');
  await expect(page.getByTestId('no-webgpu')).toHaveCount(0);
});
