/**
 * The two grounder phases, which train the same way on different data:
 *
 * - sft-grounder: φ0 = SFT on the kept samples of D0 that have a target box
 *   (from fresh or base weights, so no attention filter: there is no earlier
 *   stage to judge the samples);
 * - grounder-train (k ≥ 1): φk = SFT continued from φ(k−1) on Dk, the kept
 *   samples with a box of iterations ≤ k (D0 alone when config.coevo is
 *   false: the ablation gets the same number of steps on the seed data),
 *   with SE-GUI's attention filter judged by φ(k−1) when configured.
 *
 * With config.grounderRealShare, that share of every batch comes from
 * real-DOM training pages instead (realMix.ts).
 *
 * Both follow the SFT with grounder GRPO (dense or sparse point reward) when
 * config.grounderGrpo is on, for GROUNDER_GRPO_SHARE of the SFT steps (the
 * config has no separate count).
 */
import { grounderBatch, type GrounderExample } from '../../models/grounderData';
import { disposeParams, type ParamMap, type Params } from '../../models/params';
import { makeGrounderGrpo } from '../../learn/grounderGrpo';
import { makeGrounderSft } from '../../learn/grounderSft';
import { isGlyphReaderParam } from '../../models/glyphReader';
import type { StepSample } from '../records';
import { checkpointRecord, type RunState } from '../runState';
import { mean, SeriesWriter, type PhaseContext, type PhaseOutput } from './context';
import { batchOrder, startingWeights, trainableCopy, withLora } from './training';
import { trainedTensors } from '../phaseJournal';
import { realInBatch, realMix } from './realMix';
import { LOOP_EXAMPLES, REAL_EXAMPLES, REAL_MIX_SKIPPED } from '../grounderExamples';

/** Grounder GRPO steps per SFT step, when grounder GRPO is on. */
export const GROUNDER_GRPO_SHARE = 0.25;

export const GROUNDER_SFT_LOSS = 'grounder-sft/loss';
export const GROUNDER_SFT_KEPT = 'grounder-sft/kept';
export const GROUNDER_GRPO_REWARD = 'grounder-grpo/reward';
export const GROUNDER_GRPO_KL = 'grounder-grpo/kl';

export function grounderGrpoSteps(sftSteps: number): number {
  return Math.round(sftSteps * GROUNDER_GRPO_SHARE);
}

/** Grounder examples of the kept samples that have a target box, on their rebuilt screens. */
export function grounderExamplesOf(state: RunState, samples: readonly StepSample[]): GrounderExample[] {
  const out: GrounderExample[] = [];
  for (const s of samples) {
    if (!s.kept || !s.box || s.targetId === undefined) continue;
    out.push({
      taskId: s.task.id,
      stepIndex: s.stepIndex,
      screen: state.stateOf(s).screen,
      platform: s.platform,
      instruction: s.instruction,
      // A sample with a target always names it in some style; 'text' only keeps the type total.
      style: s.style ?? 'text',
      targetId: s.targetId,
      box: s.box,
    });
  }
  return out;
}

/** Trains `params` in place: `steps` SFT steps on `examples`, then the optional grounder GRPO. */
async function trainGrounder(
  ctx: PhaseContext,
  params: Params,
  examples: readonly GrounderExample[],
  steps: number,
  previous?: ParamMap,
): Promise<{ series: SeriesWriter; summary: PhaseOutput['summary'] }> {
  const { config, state } = ctx;
  const cfg = state.grounderCfg;
  const series = new SeriesWriter(state);
  const grpoSteps = config.grounderGrpo ? grounderGrpoSteps(steps) : 0;
  const total = steps + grpoSteps;
  const next = batchOrder(ctx.rng.fork('batches'), examples.length, config.grounderBatch);
  // Forked only when pages are mixed in, so a run without them draws what it drew before they existed.
  const mix = await realMix(config.grounderRealShare, config.seed, () => ctx.rng.fork('real batches'), ctx.paint, ctx.realPages);
  const pages = mix && 'draw' in mix ? mix : null;
  const drawn = { loop: 0, real: 0 };
  // The draw is host work, replayed on a resume; the batch's tensors are made inside the journaled batch.
  const draw = (step: number) => {
    const nReal = realInBatch(pages, step, config.grounderBatch);
    const fromD = next()
      .slice(0, config.grounderBatch - nReal)
      .map((i) => examples[i]);
    drawn.loop += fromD.length;
    drawn.real += nReal;
    return pages && nReal > 0 ? [...fromD, ...pages.draw(nReal)] : fromD;
  };
  const paint = pages ? pages.paint : ctx.paint;
  const batch = (picked: GrounderExample[]) => grounderBatch(state.tok, cfg, picked, paint);
  const losses: number[] = [];
  const keptShares: number[] = [];
  const rewards: number[] = [];
  const kls: number[] = [];
  const hits: number[] = [];
  ctx.report({ done: 0, total });
  await withLora(config, ctx.rng.fork('lora'), params, async (lora) => {
    const frozen = config.freezeGlyphReader ? isGlyphReaderParam : undefined;
    const sft = makeGrounderSft(params, cfg, { lr: config.grounderSftLr, lora, frozen, attentionFilter: previous ? { previous } : undefined });
    ctx.journal.train({ tensors: trainedTensors({ model: params, lora: lora?.adapters }), optimizer: sft.optimizer });
    try {
      for (let step = 0; step < steps; step++) {
        const picked = draw(step);
        const r = await ctx.journal.batch(() => sft.step(batch(picked)));
        const share = r.kept / config.grounderBatch;
        keptShares.push(share);
        if (previous) series.push(GROUNDER_SFT_KEPT, share);
        // A batch the filter emptied trained nothing: its 0 loss is not a point of the curve.
        if (r.kept > 0) {
          losses.push(r.loss);
          series.push(GROUNDER_SFT_LOSS, r.loss);
        }
        ctx.report({ done: step + 1, total, loss: r.kept > 0 ? r.loss : undefined });
      }
    } finally {
      ctx.journal.train(null);
      sft.dispose();
    }
    if (grpoSteps === 0) return;
    const grpo = makeGrounderGrpo(params, cfg, {
      lr: config.grounderGrpoLr,
      rng: ctx.journal.random(ctx.rng.fork('grpo')),
      groupSize: config.groupSize,
      sparse: config.pointReward === 'sparse',
      beta: config.grounderBeta,
      epsilon: config.epsilon,
      aggregation: config.aggregation,
      lora,
      frozen,
    });
    ctx.journal.train({ tensors: trainedTensors({ model: params, lora: lora?.adapters, reference: grpo.copiedReference }), optimizer: grpo.optimizer });
    try {
      for (let step = 0; step < grpoSteps; step++) {
        const picked = draw(steps + step);
        const r = await ctx.journal.batch(() => grpo.step(batch(picked)));
        rewards.push(r.meanReward);
        kls.push(r.kl);
        hits.push(r.hitRate);
        series.push(GROUNDER_GRPO_REWARD, r.meanReward);
        series.push(GROUNDER_GRPO_KL, r.kl);
        ctx.report({ done: steps + step + 1, total, reward: r.meanReward });
      }
    } finally {
      ctx.journal.train(null);
      grpo.dispose();
    }
  });
  const summary: PhaseOutput['summary'] = {
    examples: examples.length,
    [LOOP_EXAMPLES]: drawn.loop,
    sft_steps: steps,
    grpo_steps: grpoSteps,
    loss_first: losses[0] ?? 0,
    loss_last: losses[losses.length - 1] ?? 0,
    loss_mean: mean(losses),
  };
  if (pages) Object.assign(summary, { [REAL_EXAMPLES]: drawn.real, real_pages: pages.pages });
  if (mix && 'skipped' in mix) summary[REAL_MIX_SKIPPED] = mix.skipped;
  if (previous) summary.attention_kept = mean(keptShares);
  if (grpoSteps > 0) Object.assign(summary, { grpo_reward_mean: mean(rewards), grpo_kl_mean: mean(kls), grpo_hit_rate: mean(hits) });
  return { series, summary };
}

async function finish(ctx: PhaseContext, params: Params, examples: readonly GrounderExample[], steps: number, previous?: ParamMap): Promise<PhaseOutput> {
  try {
    const { series, summary } = await trainGrounder(ctx, params, examples, steps, previous);
    return {
      grounder: params,
      checkpoints: [await checkpointRecord(ctx.runId, 'grounder', ctx.iteration, params, ctx.state.grounderCfg)],
      metrics: series.toPoints(),
      summary,
    };
  } catch (e) {
    disposeParams(params);
    throw e;
  }
}

export async function grounderSftPhase(ctx: PhaseContext): Promise<PhaseOutput> {
  const examples = grounderExamplesOf(ctx.state, ctx.state.samplesUpTo(0));
  if (examples.length === 0) throw new Error('D0 has no kept samples with a target element to train the grounder on; raise seedTasks or lower writerErrorRate.');
  const params = await startingWeights(ctx, 'grounder', ctx.rng.fork('init'));
  return finish(ctx, params, examples, ctx.config.grounderSftSteps);
}

export async function grounderTrainPhase(ctx: PhaseContext): Promise<PhaseOutput> {
  const { config, state, iteration: k } = ctx;
  const examples = grounderExamplesOf(state, state.samplesUpTo(config.coevo ? k : 0));
  if (examples.length === 0) throw new Error(`D${k} has no kept samples with a target element to train the grounder on; raise seedTasks or lower writerErrorRate.`);
  const seedExamples = grounderExamplesOf(state, state.samplesUpTo(0)).length;
  const previous = state.model('grounder', k - 1);
  const out = await finish(ctx, trainableCopy(previous), examples, config.grounderTrainSteps, config.attentionFilter ? previous : undefined);
  Object.assign(out.summary, { seed_examples: seedExamples, distilled_examples: examples.length - seedExamples });
  return out;
}
