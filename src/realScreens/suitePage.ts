/**
 * The real-screen suite on the page's main thread: renders fixture pages
 * (DOM boxes, browser-drawn pixels) and turns them into the worker's input.
 * Loaded on demand by the automation API, so the app's first load does not
 * carry it.
 */
import { realPages, realScreenSuite } from './pages';
import { renderPage } from './rasterize';
import { suiteInput, type RealScreenInput } from './suiteInput';
import type { RealPage, RealSplit, RenderedPage } from './types';

export async function renderPages(split: RealSplit, count: number, first = 0): Promise<{ page: RealPage; rendered: RenderedPage }[]> {
  const out: { page: RealPage; rendered: RenderedPage }[] = [];
  for (const page of realPages(split, count, first)) out.push({ page, rendered: await renderPage(page) });
  return out;
}

/** The held-out suite's pages, rendered, as the worker grounds them. */
export async function suiteScreens(count?: number): Promise<RealScreenInput[]> {
  const out: RealScreenInput[] = [];
  for (const page of realScreenSuite(count)) out.push(suiteInput(page, await renderPage(page)));
  return out;
}
