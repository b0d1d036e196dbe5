/**
 * Real-DOM training pages for the grounder's pretraining (issue 30): fixture
 * pages of the TRAINING split (seeds below TEST_SEED_BASE; the held-out suite
 * is never drawn), laid out and drawn by the page's browser, turned here into
 * screens with ready-made pixels and the page's own instructions as
 * examples labelled 'real-dom'.
 *
 * Which pages, and how many real screens each step takes, follow from the
 * seed and the step alone (no draw depends on timing or on what the page
 * returns), so a resumed pretraining replays the same batches.
 */
import { canvasFromRgba } from '../models/canvas';
import type { GrounderExample } from '../models/grounderData';
import { Random } from '../learn/random';
import { checkTrainingSeed, realPage, TEST_SEED_BASE } from '../realScreens/pages';
import { screenOfPage } from '../realScreens/screen';
import { LOOKS, PATTERNS, type RenderedPage } from '../realScreens/types';
import type { Screen } from '../world/types';

/** Draws fixture pages of the training split in the page (rasterize.ts), in the order of `seeds`. */
export type RealPageRenderer = (seeds: readonly number[]) => Promise<RenderedPage[]>;

/** A training page ready for a batch: its screen (DOM boxes), its pixels on the grounder's canvas, its instructions as examples. */
export interface RealPoolScreen {
  pageId: string;
  screen: Screen;
  image: Float32Array;
  examples: GrounderExample[];
}

/** Pages in the pool by default: every pattern × look 4 times, a few seconds of drawing in the page. */
export const REAL_POOL_PAGES = 4 * PATTERNS.length * LOOKS.length;

/**
 * `count` consecutive training seeds from a start drawn from `seed`:
 * consecutive, so every pattern × look appears count / 35 times; drawn, so
 * two pretraining seeds see different pages.
 */
export function realTrainingSeeds(seed: number, count: number): number[] {
  if (!Number.isSafeInteger(count) || count < 1 || count > TEST_SEED_BASE) throw new Error(`realTrainingSeeds: count must be a whole number in 1..${TEST_SEED_BASE}; got ${count}.`);
  const start = new Random(seed).fork('real training pages').int(0, TEST_SEED_BASE - count);
  const seeds = Array.from({ length: count }, (_, i) => start + i);
  seeds.forEach(checkTrainingSeed);
  return seeds;
}

/** One rendered training page as a pool screen; refuses a held-out page or pixels of another size. */
export function realPoolScreen(seed: number, rendered: RenderedPage): RealPoolScreen {
  checkTrainingSeed(seed);
  const page = realPage(seed);
  if (rendered.pageId !== page.id) throw new Error(`realPoolScreen: asked for ${page.id}, got ${rendered.pageId}`);
  if (rendered.width !== page.width || rendered.height !== page.height || rendered.rgba.length !== page.width * page.height * 4) {
    throw new Error(`realPoolScreen: ${page.id} came back ${rendered.width}×${rendered.height} with ${rendered.rgba.length} bytes; ${page.width}×${page.height} RGBA expected.`);
  }
  const screen = screenOfPage(page, rendered.boxes);
  const examples = page.instructions.map((ins): GrounderExample => {
    const target = screen.elements.find((e) => e.id === ins.targetId);
    if (!target) throw new Error(`realPoolScreen: ${page.id} has no element ${ins.targetId}`);
    return { source: 'real-dom', taskId: page.id, stepIndex: -1, screen, platform: 'web', instruction: ins.text, style: ins.style, targetId: target.id, box: target.box };
  });
  return { pageId: page.id, screen, image: canvasFromRgba(rendered.rgba, rendered.width, rendered.height), examples };
}

/** The pool: `count` training pages for `seed`, drawn by `render`. */
export async function realPool(seed: number, count: number, render: RealPageRenderer): Promise<RealPoolScreen[]> {
  const seeds = realTrainingSeeds(seed, count);
  const rendered = await render(seeds);
  if (rendered.length !== seeds.length) throw new Error(`realPool: asked for ${seeds.length} pages, got ${rendered.length}`);
  return seeds.map((s, i) => realPoolScreen(s, rendered[i]));
}

/**
 * How many of a step's `screens` are real pages for a share `share` of the
 * examples (every screen carries the same number): the running total
 * ⌊(step + 1)·screens·share⌋ less the one before, so over any run of steps
 * the count is within one screen of the share, with no random draw.
 */
export function realScreensInStep(step: number, screens: number, share: number): number {
  // The epsilon keeps a product that should be a whole number (0.1 × 4 × 5) from rounding down below it.
  const upTo = (k: number) => Math.floor(k * screens * share + 1e-9);
  return upTo(step + 1) - upTo(step);
}

/** `perScreen` of a page's examples: without repeats while the page has enough, then with. */
export function drawRealExamples(rng: Random, s: RealPoolScreen, perScreen: number): GrounderExample[] {
  const order = rng.shuffle(s.examples);
  return Array.from({ length: perScreen }, (_, i) => (i < order.length ? order[i] : rng.pick(s.examples)));
}
