/**
 * Shared by the Grounder and Playground e2e specs: whether a heat-map layer
 * has drawn anything (any pixel not fully transparent), and a PNG made in
 * the page to stand in for a person's screenshot.
 */
import type { Locator, Page } from '@playwright/test';

/** The number of non-transparent pixels of the heat-map canvas inside `scope` (0 when there is none). */
export function heatPixels(scope: Locator): Promise<number> {
  return scope.evaluate((el) => {
    const canvas = el.querySelector<HTMLCanvasElement>('canvas[data-testid="heatmap"]');
    const ctx = canvas?.getContext('2d');
    if (!canvas || !ctx) return 0;
    const data = ctx.getImageData(0, 0, canvas.width, canvas.height).data;
    let n = 0;
    for (let i = 3; i < data.length; i += 4) if (data[i] > 0) n++;
    return n;
  });
}

/** A 480×300 PNG of a toy dialog with two buttons, drawn in the page (so the test needs no image files). */
export async function screenshotPng(page: Page): Promise<Buffer> {
  const b64 = await page.evaluate(() => {
    const c = document.createElement('canvas');
    c.width = 480;
    c.height = 300;
    const g = c.getContext('2d')!;
    g.fillStyle = '#f4f6fa';
    g.fillRect(0, 0, 480, 300);
    g.fillStyle = '#1d2330';
    g.font = 'bold 28px sans-serif';
    g.fillText('Delete this file?', 40, 80);
    g.fillStyle = '#c0392b';
    g.fillRect(40, 180, 170, 60);
    g.fillStyle = '#0072b2';
    g.fillRect(270, 180, 170, 60);
    g.fillStyle = '#ffffff';
    g.font = '26px sans-serif';
    g.fillText('Delete', 80, 220);
    g.fillText('Cancel', 310, 220);
    return c.toDataURL('image/png').split(',')[1];
  });
  return Buffer.from(b64, 'base64');
}
