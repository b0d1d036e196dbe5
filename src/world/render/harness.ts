/**
 * The render harness page: loads the fonts in the window, starts the
 * rendering worker, exposes window.coevoRender, and shows the fixtures
 * enlarged (nearest neighbour) for people looking at the page.
 */
import * as Comlink from 'comlink';
import type { Screen } from '../types';
import { loadWorldFonts } from './fonts';
import { toBase64 } from '../../bytes/base64';
import { pngBytes } from './png';
import type { CoevoRenderApi, RenderedFixture } from './render-api';
import type { RenderWorkerApi } from './render.worker';

const worker = Comlink.wrap<RenderWorkerApi>(new Worker(new URL('./render.worker.ts', import.meta.url), { type: 'module' }));

const ready = (async () => {
  const [fontsInWindow, w] = await Promise.all([loadWorldFonts(), worker.ready()]);
  return { fontsInWindow, fontsInWorker: w.faces, inWorker: w.inWorker };
})();

const api: CoevoRenderApi = {
  ready,
  async renderFixtures() {
    await ready;
    return worker.renderFixtures();
  },
  async checkScreens(named: { name: string; screen: Screen }[]) {
    await ready;
    return worker.checkScreens(named);
  },
  async renderScreens(screens: Screen[], scale: number) {
    await ready;
    return worker.renderScreens(screens, scale);
  },
  async screenImages(screens: Screen[]) {
    await ready;
    return worker.screenImages(screens);
  },
  async measureRenderRate(n: number, screens?: Screen[]) {
    await ready;
    return worker.measureRenderRate(n, screens);
  },
  async zoomPng(png: string, zoom: number) {
    const bytes = Uint8Array.from(atob(png), (c) => c.charCodeAt(0));
    const bitmap = await createImageBitmap(new Blob([bytes], { type: 'image/png' }));
    const canvas = new OffscreenCanvas(bitmap.width * zoom, bitmap.height * zoom);
    const ctx = canvas.getContext('2d');
    if (!ctx) throw new Error('zoomPng: no 2d context');
    ctx.imageSmoothingEnabled = false;
    ctx.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
    return toBase64(await pngBytes(canvas));
  },
};
window.coevoRender = api;

function show(fixtures: RenderedFixture[]): void {
  const gallery = document.getElementById('gallery');
  if (!gallery) return;
  for (const f of fixtures) {
    const fig = document.createElement('figure');
    const img = document.createElement('img');
    img.src = `data:image/png;base64,${f.png}`;
    img.width = f.width * 3;
    img.height = f.height * 3;
    img.alt = f.name;
    const cap = document.createElement('figcaption');
    cap.textContent = `${f.name} · ${f.hash} · text in boxes: ${f.textPixelsInsideBoxes ? 'yes' : f.textFailures.join('; ')}`;
    fig.append(img, cap);
    gallery.append(fig);
  }
}

const status = document.getElementById('status');
ready
  .then(async (r) => {
    if (status) status.textContent = `fonts: ${r.fontsInWindow} in window, ${r.fontsInWorker} in worker`;
    if (new URLSearchParams(location.search).has('gallery')) show(await api.renderFixtures());
  })
  .catch((e: unknown) => {
    if (status) status.textContent = `error: ${String(e)}`;
  });
