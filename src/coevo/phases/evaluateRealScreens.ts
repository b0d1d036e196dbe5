/**
 * The evaluation phase's real-screen part: the iteration's grounder on the
 * held-out real-screen suite the page rendered (ctx.realScreens), batched
 * as the world's grounding queries are, each batch waiting at the gate and
 * recorded by the journal (after the world suites' batches, so a run that
 * resumes replays those unchanged). Without a suite it grounds nothing and
 * says why, so an engine with no page (Node) still evaluates everything
 * else.
 */
import { neuralPoolGrounder } from '../../learn/plannerGrounderPool';
import { realScreenBatch, scoreRealScreens } from '../../learn/evalRealScreens';
import type { RealScreenInput } from '../../realScreens/suiteInput';
import type { GrounderConfig } from '../../models/grounder';
import type { ParamMap } from '../../models/params';
import type { Point } from '../../learn/rewards';
import type { Tokenizer } from '../../text/tokenizer';
import type { MetricCounts } from '../evaluate';
import type { BatchRunner } from '../phaseJournal';
import { realScreenMetrics } from '../realScreenMetrics';
import type { SuiteMetrics } from '../records';
import type { RealScreenSource } from './context';

/** The suite to ground, or why there is none. */
export type RealSuite = { screens: RealScreenInput[] } | { skipped: string };

export async function realSuite(source: RealScreenSource | undefined): Promise<RealSuite> {
  if (!source) return { skipped: 'no page gave this engine the real-screen suite (it is drawn by a browser page; e.g. a run in Node has none)' };
  try {
    const screens = await source();
    if (screens === null) return { skipped: 'no page gave this engine the real-screen suite' };
    if (!screens.some((s) => s.queries.length > 0)) return { skipped: 'the page gave an empty real-screen suite' };
    return { screens };
  } catch (e) {
    // A suite the page could not draw costs its metrics, not the run.
    return { skipped: `the page could not render the real-screen suite: ${e instanceof Error ? e.message : String(e)}` };
  }
}

export const realQueryCount = (screens: readonly RealScreenInput[]): number => screens.reduce((n, s) => n + s.queries.length, 0);

export interface RealScreenGrounder {
  params: ParamMap;
  cfg: GrounderConfig;
  tok: Tokenizer;
}

/** real/<style>/{accuracy, chance} and real/all/… with their n (realScreenMetrics.ts). */
export async function groundRealSuite(
  g: RealScreenGrounder,
  screens: readonly RealScreenInput[],
  runner: BatchRunner,
  batch: number,
  onProgress?: (done: number) => void,
): Promise<{ metrics: SuiteMetrics; counts: MetricCounts }> {
  const { queries, items, paint } = realScreenBatch(screens);
  const pool = neuralPoolGrounder(g.params, g.cfg, g.tok, { paint, batchSize: batch });
  const points: (Point | null)[] = [];
  for (let i = 0; i < queries.length; i += batch) {
    const answers = await runner.batch(() => pool.ground(queries.slice(i, i + batch)));
    points.push(...answers.map((a) => a.point));
    onProgress?.(points.length);
  }
  const counts: MetricCounts = {};
  return { metrics: realScreenMetrics(scoreRealScreens(items, points), counts), counts };
}
