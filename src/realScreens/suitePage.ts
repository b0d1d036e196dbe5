/**
 * The real-screen suite on the page's main thread: renders fixture pages
 * (DOM boxes, browser-drawn pixels) and turns them into the worker's input.
 * Loaded on demand by the automation API, so the app's first load does not
 * carry it.
 */
import { checkTrainingSeed, realPage, realPages, realScreenSuite } from './pages';
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

/** Training pages (seeds below TEST_SEED_BASE, refused otherwise) drawn for the grounder's pretraining, in the order asked. */
export async function trainingPages(seeds: readonly number[]): Promise<RenderedPage[]> {
  // Checked before any page is drawn: a held-out seed in the list is a bug in the caller, not a page to skip.
  seeds.forEach(checkTrainingSeed);
  const out: RenderedPage[] = [];
  for (const seed of seeds) out.push(await renderPage(realPage(seed)));
  return out;
}
