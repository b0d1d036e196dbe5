/**
 * The real-screen suite (src/realScreens, issue 30) as evaluation metrics,
 * apart from the world's suites: `real/<style>/accuracy` per referring
 * style and `real/all/accuracy` (click-in-box of the greedy point, the rule
 * of `grounding/<split>/accuracy` and `styles/<style>/accuracy`), each
 * beside `real/<style>/chance`, the random-control chance on the same items
 * (the one to beat), so that the report and the Metrics view can mark it
 * without the pages. Every key carries its n.
 */
import type { RealFigure, RealScreenFigures } from '../realScreens/score';
import { REF_STYLES } from '../world/types';
import type { MetricCounts } from './evaluate';
import type { SuiteMetrics } from './records';

/** The suite part of the keys. */
export const REAL_SUITE = 'real';
/** The metric of click-in-box accuracy. */
export const REAL_ACCURACY = 'accuracy';
/** The metric of random-control chance (screen.ts chanceOf: 1 / visible controls, averaged over the items). */
export const REAL_CHANCE = 'chance';
/**
 * An evaluate phase's summary key saying why it has no real-screen metrics
 * (the suite is drawn by a page's DOM, so an engine without a page, e.g. in
 * Node, has none to ground).
 */
export const REAL_SKIPPED = 'real_screens_skipped';

export const realKey = (split: string, metric: string): string => `${REAL_SUITE}/${split}/${metric}`;

function put(into: SuiteMetrics, counts: MetricCounts | undefined, split: string, f: RealFigure): void {
  if (f.n <= 0) return;
  into[realKey(split, REAL_ACCURACY)] = f.hits / f.n;
  into[realKey(split, REAL_CHANCE)] = f.chanceControls;
  if (counts) counts[realKey(split, REAL_ACCURACY)] = counts[realKey(split, REAL_CHANCE)] = f.n;
}

/** real/<style>/{accuracy, chance} for each style the suite has items of, in REF_STYLES order, then real/all/{accuracy, chance}. */
export function realScreenMetrics(f: RealScreenFigures, counts?: MetricCounts): SuiteMetrics {
  const m: SuiteMetrics = {};
  for (const style of REF_STYLES) {
    const g = f.byStyle[style];
    if (g) put(m, counts, style, g);
  }
  put(m, counts, 'all', f.overall);
  return m;
}
