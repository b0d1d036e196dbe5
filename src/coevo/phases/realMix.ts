/**
 * Real-DOM pages in the loop's grounder training (issue 30): a share
 * config.grounderRealShare of every grounder batch comes from fixture pages
 * of the training split that the page drew (the pool pretraining mixes in,
 * pretrain/realPool.ts), labelled 'real-dom'. Trained on Dk alone, the
 * grounder forgot what its base learned on real screens (the real-screen
 * suite fell from 0.482 to 0.420 over three iterations); the mix keeps those
 * screens in view. Held-out pages are never drawn (realPool refuses them).
 *
 * Which pages and how many per batch follow from the run's seed, the phase's
 * random stream and the step alone, so a phase that resumes after a reload
 * draws the same batches.
 */
import type { GrounderExample } from '../../models/grounderData';
import { drawRealExamples, realPool, realScreensInStep, REAL_POOL_PAGES, type RealPageRenderer, type RealPoolScreen } from '../../pretrain/realPool';
import type { Random } from '../../learn/random';
import type { Paint } from '../../learn/stepCheck';
import type { Screen } from '../../world/types';

export interface RealMix {
  share: number;
  pages: number;
  /** The `nReal` real examples of one batch. */
  draw(nReal: number): GrounderExample[];
  /** Paints a world screen as `paint` does; a real page's screen is the page's own pixels. */
  paint: (screen: Screen) => Float32Array;
}

/** No mix, and why (shown in the phase's summary). */
export interface NoRealMix {
  skipped: string;
}

/**
 * The pool for a phase with `share` > 0, drawn by `render`; null for share 0.
 * Without a page to draw (a run in Node) or when the page fails, the phase
 * trains on Dk alone and says why, as the evaluation does for the suite.
 */
export async function realMix(share: number, seed: number, rng: () => Random, paint: Paint, render: RealPageRenderer | undefined): Promise<RealMix | NoRealMix | null> {
  if (share <= 0) return null;
  if (!render) return { skipped: 'no page gave this engine the real training pages (a browser page draws them; e.g. a run in Node has none)' };
  let pool: RealPoolScreen[];
  try {
    pool = await realPool(seed, REAL_POOL_PAGES, render);
  } catch (e) {
    return { skipped: `the page could not draw the real training pages: ${e instanceof Error ? e.message : String(e)}` };
  }
  const draws = rng();
  const images = new Map<Screen, Float32Array>(pool.map((s) => [s.screen, s.image]));
  return {
    share,
    pages: pool.length,
    draw: (nReal) => Array.from({ length: nReal }, () => drawRealExamples(draws, draws.pick(pool), 1)[0]),
    paint: (screen) => images.get(screen) ?? paint(screen),
  };
}

/** How many of a batch of `batch` examples at training step `step` are real (within one of the share over any run of steps). */
export function realInBatch(mix: RealMix | null, step: number, batch: number): number {
  return mix ? realScreensInStep(step, batch, mix.share) : 0;
}
