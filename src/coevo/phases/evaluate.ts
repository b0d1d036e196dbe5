/**
 * Phase evaluate (every k): (πk, φk) on every held-out suite and online, as
 * evaluatePair does, with each planning and grounding batch waiting at the
 * gate. The suites are built once per run from its seed, so every k is
 * measured on the same items, and so is the reading probe (grounding by
 * referring style, per-cell reading). The planner's own figures sample one
 * instruction per state at the loop's temperature (what GRPO will draw)
 * from the phase's seeded source, so a rerun after a reload draws the same.
 * Then the grounder alone on the held-out real-screen suite, when the page
 * gave one (evaluateRealScreens.ts: `real/...` keys; otherwise the summary's
 * REAL_SKIPPED says why there are none).
 * The metrics are the phase's summary (evaluateSummary's `metric:` keys,
 * each with its n under `n:`), which the report reads.
 */
import { evaluateAgent, neuralAgent, type EvaluationSizes } from '../evaluate';
import { evaluateSummary } from '../report';
import type { PhaseContext, PhaseOutput } from './context';
import { gatedAgent } from './training';
import { offlineTasks, onlinePerPlatform } from '../runState';
import { REAL_SKIPPED } from '../realScreenMetrics';
import { groundRealSuite, realQueryCount, realSuite } from './evaluateRealScreens';

/** Rows per planner decode and grounder forward. */
const EVAL_BATCH = 16;

/** How much of the suites an evaluation of `evalSize` items per split uses, with `onlineEpisodes` per platform (0: one per 8 items, at least 1). */
export function evaluationSizes(evalSize: number, onlineEpisodes: number): EvaluationSizes {
  const tasks = offlineTasks(evalSize);
  return { webTasksPerSplit: tasks, mobileTasks: tasks, groundingPerSplit: evalSize, onlinePerPlatform: onlinePerPlatform(evalSize, onlineEpisodes) };
}

export async function evaluatePhase(ctx: PhaseContext): Promise<PhaseOutput> {
  const { state, iteration: k } = ctx;
  const agent = neuralAgent({
    planner: { params: state.model('planner', k), cfg: state.plannerCfg },
    grounder: { params: state.model('grounder', k), cfg: state.grounderCfg },
    tok: state.tok,
    paint: ctx.paint,
    batch: EVAL_BATCH,
    constrained: ctx.config.plannerConstraint,
  });
  // Asked for first, so that progress counts its queries from the start.
  const real = await realSuite(ctx.realScreens);
  const realTotal = 'screens' in real ? realQueryCount(real.screens) : 0;
  let worldTotal = 0;
  const { metrics, counts } = await evaluateAgent(gatedAgent(agent, ctx.journal), state.suites(), {
    sizes: evaluationSizes(ctx.config.evalSize, ctx.config.onlineEpisodes),
    probe: state.probe(),
    batch: EVAL_BATCH,
    sampling: { temperature: ctx.config.temperature, rng: ctx.journal.random(ctx.rng.fork('sample')) },
    onProgress: (done, total) => {
      worldTotal = total;
      ctx.report({ done, total: total + realTotal });
    },
  });
  if (!('screens' in real)) return { summary: { ...evaluateSummary(metrics, counts), [REAL_SKIPPED]: real.skipped } };
  const grounder = { params: state.model('grounder', k), cfg: state.grounderCfg, tok: state.tok };
  const onReal = (done: number) => ctx.report({ done: worldTotal + done, total: worldTotal + realTotal });
  const r = await groundRealSuite(grounder, real.screens, ctx.journal, EVAL_BATCH, onReal);
  return { summary: evaluateSummary({ ...metrics, ...r.metrics }, { ...counts, ...r.counts }) };
}
