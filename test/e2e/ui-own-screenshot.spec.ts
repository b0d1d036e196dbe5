import { readFileSync } from 'node:fs';
import { test, expect, type Page } from '@playwright/test';
import { openApp } from './ui-data-runs';

/**
 * The Playground's own-screenshot path as a person meets it (issue 30),
 * without a run, on WASM: a 1280×800 page with five labelled buttons
 * (test/fixtures/five-buttons.html), screenshotted by the browser, dropped
 * without a MIME type, and asked "click the <label> button" for each label.
 * The test asserts that at least 4 of the 5 points land on their button
 * (the acceptance), that each point is given in the screenshot's
 * px, inside it, that each question after the first (which encodes the
 * tiles) is answered in under 10 s, and that the page says how the image
 * was scaled and tiled. A blank and a 1×1 image give
 * "nothing confident"; a WebP named .png is read by its bytes; a text file
 * is refused with a reason.
 */

const LABELS = ['Save', 'Cancel', 'Delete', 'Settings', 'Help'] as const;
const FIXTURE = readFileSync(new URL('../fixtures/five-buttons.html', import.meta.url), 'utf8');

interface Box { x: number; y: number; width: number; height: number }

async function fixtureShot(page: Page): Promise<{ png: Buffer; boxes: Record<string, Box> }> {
  const other = await page.context().newPage();
  await other.setViewportSize({ width: 1280, height: 800 });
  await other.setContent(FIXTURE);
  const boxes: Record<string, Box> = {};
  for (const l of LABELS) boxes[l] = (await other.locator(`#${l.toLowerCase()}`).boundingBox())!;
  const png = await other.screenshot({ type: 'png' });
  await other.close();
  return { png, boxes };
}

async function drop(page: Page, bytes: Buffer | Uint8Array, name: string, type: string): Promise<void> {
  await page.getByTestId('drop-zone').evaluate(
    (zone, { bytes, name, type }) => {
      const dt = new DataTransfer();
      dt.items.add(new File([new Uint8Array(bytes)], name, { type }));
      zone.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
    },
    { bytes: [...bytes], name, type },
  );
}

/** Asks and waits for the answer to this instruction; returns the point, whether confident, and the times. */
async function ask(page: Page, instruction: string): Promise<{ x: number; y: number; confident: boolean; ms: number; wallMs: number; text: string }> {
  const result = page.getByTestId('ground-result');
  const before = await result.getAttribute('data-ms');
  const t0 = Date.now();
  await page.getByTestId('ask-instruction').fill(instruction);
  await expect(result).toHaveAttribute('data-busy', 'true');
  await expect(result).not.toHaveAttribute('data-busy', 'true', { timeout: 60_000 });
  const wallMs = Date.now() - t0;
  const ms = Number(await result.getAttribute('data-ms'));
  expect(String(ms)).not.toBe(before ?? '');
  return {
    x: Number(await result.getAttribute('data-x')),
    y: Number(await result.getAttribute('data-y')),
    confident: (await result.getAttribute('data-confident')) === 'true',
    ms,
    wallMs,
    text: (await result.textContent()) ?? '',
  };
}

test('a 1280×800 screenshot with five buttons: at least 4 points on their button, in its px, each further question under 10 s; blank and 1×1 images are not confident; formats by content', async ({ page }) => {
  test.setTimeout(240_000);
  const { png, boxes } = await fixtureShot(page);
  await openApp(page, '&view=playground&pg=upload');
  await expect(page.getByTestId('base-note')).toContainText('base models of the tiny preset');

  // No MIME type at all: the bytes say PNG.
  await drop(page, png, 'five-buttons.png', '');
  await expect(page.getByTestId('screenshot-info')).toContainText('a PNG of 1280×800 px');
  // The first question encodes every tile; later ones reuse the encodings (src/ownScreen/featureCache.ts).
  await expect(page.getByTestId('ground-result')).toHaveAttribute('data-x', /\d/, { timeout: 60_000 });
  const firstMs = Number(await page.getByTestId('ground-result').getAttribute('data-ms'));
  console.log(`first question on the screenshot (model loaded, every tile encoded): worker ${firstMs.toFixed(0)} ms`);
  // Alone on this 2-core machine it took 8.6 s; beside another test file 15.5 s: bounded loosely here, measured in docs/screenshot.md.
  expect(firstMs).toBeLessThan(30_000);
  await expect(page.getByTestId('screenshot-info')).toContainText('Scaled ×0.57 to 731×457');
  await expect(page.getByTestId('screenshot-info')).toContainText('overlapping web screens of 200×128');

  const rows: string[] = [];
  let hits = 0;
  for (const label of LABELS) {
    const a = await ask(page, `click the ${label} button`);
    const b = boxes[label];
    const hit = a.x >= b.x && a.x <= b.x + b.width && a.y >= b.y && a.y <= b.y + b.height;
    if (hit) hits++;
    rows.push(`${label.padEnd(8)} point (${a.x.toFixed(0)}, ${a.y.toFixed(0)}) box [${b.x.toFixed(0)},${b.y.toFixed(0)} ${b.width.toFixed(0)}×${b.height.toFixed(0)}] ${hit ? 'HIT ' : 'miss'} confident=${a.confident} worker ${a.ms.toFixed(0)} ms, asked→shown ${a.wallMs} ms`);
    expect(a.x).toBeGreaterThanOrEqual(0);
    expect(a.x).toBeLessThanOrEqual(1280);
    expect(a.y).toBeGreaterThanOrEqual(0);
    expect(a.y).toBeLessThanOrEqual(800);
    expect(a.text).toMatch(a.confident ? /in your image's pixels in tile \d+ of \d+ \(row \d+, column \d+\)/ : /nothing confident/);
    expect(a.ms).toBeLessThan(10_000);
    expect(a.wallMs).toBeLessThan(10_000);
  }
  // People write labels unquoted; the grammar the grounder learnt quotes them, and the page says how it read the instruction.
  await expect(page.getByTestId('instruction-read')).toContainText('click the "Help" button');
  console.log(`five-button page, native scale (14-px text → ×0.57), WASM: ${hits} of 5 on their button\n  ${rows.join('\n  ')}`);
  expect(hits, rows.join('\n')).toBeGreaterThanOrEqual(4);
  await page.screenshot({ path: 'test-results/ui/own-screenshot.png', fullPage: true });
  await expect(page.getByTestId('ask-screen')).toHaveAttribute('data-drawn', 'true');
  await expect(page.getByTestId('image-point')).toHaveCount(1);

  // 'fit', as before native scale: one screen, the point still in the screenshot's px.
  await page.getByTestId('screenshot-scale').selectOption('fit');
  await expect(page.getByTestId('screenshot-info')).toContainText('into one web screen of 200×128', { timeout: 60_000 });

  // A blank page and a 1×1 image: nothing confident.
  const blank = await page.evaluate(async () => {
    const c = new OffscreenCanvas(1280, 800);
    const ctx = c.getContext('2d')!;
    ctx.fillStyle = '#fff';
    ctx.fillRect(0, 0, 1280, 800);
    return [...new Uint8Array(await (await c.convertToBlob({ type: 'image/png' })).arrayBuffer())];
  });
  await page.getByTestId('screenshot-scale').selectOption('text-14');
  for (const [name, bytes] of [['blank.png', blank], ['one-pixel.png', await onePixel(page)]] as const) {
    await drop(page, Buffer.from(bytes), name, 'image/png');
    await expect(page.getByTestId('screenshot-info')).toContainText(name);
    const result = page.getByTestId('ground-result');
    await expect(result).toHaveAttribute('data-confident', 'false', { timeout: 60_000 });
    await expect(result).toContainText('nothing confident');
    console.log(`${name}: ${await result.textContent()}`);
  }

  // A WebP whose name and type say PNG: read as WebP.
  const webp = await page.evaluate(async () => {
    const c = new OffscreenCanvas(320, 200);
    const ctx = c.getContext('2d')!;
    ctx.fillStyle = '#36c';
    ctx.fillRect(0, 0, 320, 200);
    return [...new Uint8Array(await (await c.convertToBlob({ type: 'image/webp' })).arrayBuffer())];
  });
  await drop(page, Buffer.from(webp), 'not-really.png', 'image/png');
  await expect(page.getByTestId('screenshot-info')).toContainText('“not-really.png”, a WebP of 320×200 px');
  await drop(page, Buffer.from('just some notes'), 'notes.png', 'image/png');
  await expect(page.getByRole('alert')).toContainText('“notes.png” is a text file, not an image');
});

async function onePixel(page: Page): Promise<number[]> {
  return page.evaluate(async () => {
    const c = new OffscreenCanvas(1, 1);
    const ctx = c.getContext('2d')!;
    ctx.fillStyle = '#000';
    ctx.fillRect(0, 0, 1, 1);
    return [...new Uint8Array(await (await c.convertToBlob({ type: 'image/png' })).arrayBuffer())];
  });
}
