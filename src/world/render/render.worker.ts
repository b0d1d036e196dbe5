/** The rendering worker: loads the fonts into the worker's FontFaceSet and renders Screens on OffscreenCanvas. */
import * as Comlink from 'comlink';
import type { Screen } from '../types';
import { pixelsOf, renderToCanvas } from './canvas';
import { renderScreen } from './draw';
import { FIXTURES } from './fixtures';
import { loadWorldFonts } from './fonts';
import { toBase64 } from '../../bytes/base64';
import { distinctColors, pixelHash, pngBytes } from './png';
import type { RenderedFixture, RenderedScreen, RenderRate } from './render-api';
import { screenImage, type ScreenImage } from './screenImage';
import { checkTexts, textCheckFailures } from './textcheck';

function inWorker(): boolean {
  return typeof WorkerGlobalScope !== 'undefined' && self instanceof WorkerGlobalScope;
}

async function renderOne(screen: Screen, scale: number): Promise<RenderedScreen & { colors: number }> {
  const r = renderToCanvas(screen, scale);
  const px = pixelsOf(r);
  return { png: toBase64(await pngBytes(r.canvas)), hash: pixelHash(px), colors: distinctColors(px) };
}

const api = {
  async ready(): Promise<{ faces: number; inWorker: boolean }> {
    return { faces: await loadWorldFonts(), inWorker: inWorker() };
  },

  renderFixtures(): Promise<RenderedFixture[]> {
    return api.checkScreens(Object.entries(FIXTURES).map(([name, screen]) => ({ name, screen })));
  },

  /** Renders each screen and checks that its texts are painted legibly and only inside their boxes. */
  async checkScreens(named: { name: string; screen: Screen }[]): Promise<RenderedFixture[]> {
    await loadWorldFonts();
    const out: RenderedFixture[] = [];
    for (const { name, screen } of named) {
      const { png, hash, colors } = await renderOne(screen, 1);
      const checks = checkTexts(screen);
      const textFailures = textCheckFailures(checks);
      out.push({
        name, png, hash, width: screen.width, height: screen.height,
        textPixelsInsideBoxes: textFailures.length === 0,
        textFailures, textElements: checks.length, distinctColors: colors, inWorker: inWorker(),
      });
    }
    return out;
  },

  async renderScreens(screens: Screen[], scale: number): Promise<RenderedScreen[]> {
    await loadWorldFonts();
    const out: RenderedScreen[] = [];
    for (const s of screens) {
      const { png, hash } = await renderOne(s, scale);
      out.push({ png, hash });
    }
    return out;
  },

  /** Screenshots as the trainer export writes them (the command line's renderer; the app's worker makes the same ones). */
  async screenImages(screens: Screen[]): Promise<ScreenImage[]> {
    await loadWorldFonts();
    return screens.map(screenImage);
  },

  /** Screens per second drawn and read back in this worker; the fixtures unless real screens are given. */
  async measureRenderRate(n: number, given?: Screen[]): Promise<RenderRate> {
    await loadWorldFonts();
    const screens = given && given.length > 0 ? given : Object.values(FIXTURES);
    const canvases = screens.map((s) => renderToCanvas(s)); // warm-up and reuse, as a training loop would
    const t0 = performance.now();
    for (let i = 0; i < n; i++) {
      const k = i % screens.length;
      const { ctx } = canvases[k];
      ctx.setTransform(1, 0, 0, 1, 0, 0);
      renderScreen(ctx, screens[k]);
      pixelsOf(canvases[k]);
    }
    const ms = performance.now() - t0;
    return { screens: n, ms, screensPerSecond: (n * 1000) / ms, inWorker: inWorker() };
  },
};

export type RenderWorkerApi = typeof api;

Comlink.expose(api);
