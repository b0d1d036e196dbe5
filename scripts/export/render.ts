/**
 * The command line's screenshots: the app's own renderer (render.html, the
 * world's render harness) in headless Chromium, so that an export made here
 * holds the same pixels, and the same PNG bytes, as the app's "Export for
 * TRL" and as the grounder saw in training (src/world/render/screenImage.ts).
 * The browser starts on the first screens asked for, so a run with nothing
 * to render never starts one.
 */
import type { Page } from '@playwright/test';
import type { ScreenImage, ScreenRenderer } from '../../src/world/render/screenImage';
import type { Screen } from '../../src/world/types';
import { launchBrowser } from '../lib/browser-app';
import { builtApp } from '../lib/cli';
import type { ProgressPrinter } from '../lib/progress';
import type { Served } from '../lib/served-app';

/** Screens per page.evaluate: each comes back as a PNG of a few kB. */
const BATCH = 64;

export interface CliRenderer {
  render: ScreenRenderer;
  close(): Promise<void>;
}

export function cliRenderer(printer: ProgressPrinter): CliRenderer {
  let opened: Promise<{ page: Page; close(): Promise<void> }> | null = null;
  const open = async () => {
    let server: Served | undefined;
    let browser: Awaited<ReturnType<typeof launchBrowser>> | undefined;
    const close = async () => {
      await browser?.close().catch(() => undefined);
      await server?.close().catch(() => undefined);
    };
    try {
      server = await builtApp(printer)();
      browser = await launchBrowser();
      const page = await browser.newPage();
      page.on('pageerror', (e) => printer.log(`browser page error: ${e.message}`));
      await page.goto(`${server.url}/render.html`);
      await page.waitForFunction(() => window.coevoRender !== undefined, undefined, { timeout: 60_000 });
      await page.evaluate(() => window.coevoRender!.ready);
      return { page, close };
    } catch (e) {
      await close();
      throw new Error(`could not open the app's renderer in headless Chromium: ${e instanceof Error ? e.message : String(e)}`);
    }
  };
  return {
    async render(screens: readonly Screen[]): Promise<ScreenImage[]> {
      const { page } = await (opened ??= open());
      const out: ScreenImage[] = [];
      for (let i = 0; i < screens.length; i += BATCH) {
        const batch = screens.slice(i, i + BATCH);
        const shots = await page.evaluate((b) => window.coevoRender!.screenImages(b), batch as Screen[]);
        // Playwright hands typed arrays back as typed arrays; a plain copy makes sure of Uint8Array.
        out.push(...shots.map((s) => ({ ...s, png: new Uint8Array(s.png) })));
        printer.log(`rendered ${Math.min(i + BATCH, screens.length)} of ${screens.length} screens`);
      }
      return out;
    },
    async close() {
      if (opened) await (await opened.catch(() => null))?.close();
    },
  };
}
