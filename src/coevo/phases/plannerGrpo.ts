/**
 * Phase planner-grpo (k ≥ 1): πk = GRPO(π(k−1)), rewarded by the grounders
 * of config.rewardPool (C-DREM, METHOD.md §2), in the order listed:
 * 'verifier' the rule-based verifier, 'current' the newest grounder φ(k−1),
 * 'previous' φ(k−2), left out while it does not exist (k = 1).
 *
 * Prompts are training states as they come, steps without a target element
 * (scrolls, app launches) included: those are rewarded by action type and
 * value alone, and leaving them out (grpoTargetedOnly, as runs before 5 Dec
 * did) taught the planner to click where it should scroll. With grpoScreen
 * > 1 they are the states π(k−1) is least sure of among that many candidates
 * per prompt, so fewer groups come back all alike. The KL
 * reference is π(k−1) itself (under LoRA, the frozen base, which is π(k−1)).
 */
import { disposeParams } from '../../models/params';
import { neuralPoolGrounder, verifierGrounder, type PoolGrounder } from '../../learn/plannerGrounderPool';
import { makePlannerGrpo } from '../../learn/plannerGrpo';
import { trainingPlannerStates } from '../../learn/plannerStates';
import { leastSureStates } from '../../learn/plannerScreen';
import type { RefStyle } from '../../world/types';
import { GROUPS_PER_BATCH, groupRecordsOfStep, recordedBatches, type GroupRecord } from '../groupRecords';
import { grpoSummary } from '../report';
import { checkpointRecord } from '../runState';
import { mean, SeriesWriter, type PhaseContext, type PhaseOutput } from './context';
import { PLANNER_CLIP_NORM } from '../../learn/plannerSft';
import { trainableCopy, withLora } from './training';
import { trainedTensors } from '../phaseJournal';

export const PLANNER_GRPO_REWARD = 'planner-grpo/reward';
export const PLANNER_GRPO_KL = 'planner-grpo/kl';
export const PLANNER_GRPO_INFORMATIVE = 'planner-grpo/informative';
export const PLANNER_GRPO_LOSS = 'planner-grpo/loss';

/** Rows per grounder forward of a neural pool member. */
const POOL_BATCH = 16;

/** The reward pool of iteration k, as config.rewardPool lists it. */
export function rewardPool(ctx: PhaseContext): PoolGrounder[] {
  const { state, iteration: k } = ctx;
  const neural = (iteration: number, prior: number) =>
    neuralPoolGrounder(state.model('grounder', iteration), state.grounderCfg, state.tok, { name: `grounder@${iteration}`, prior, paint: ctx.paint, batchSize: POOL_BATCH });
  const pool: PoolGrounder[] = [];
  for (const { name, prior } of ctx.config.rewardPool) {
    if (name === 'verifier') pool.push(verifierGrounder({ name: 'verifier', prior }));
    else if (name === 'current') pool.push(neural(k - 1, prior));
    else if (k >= 2) pool.push(neural(k - 2, prior));
  }
  if (pool.length === 0) throw new Error(`The reward pool of iteration ${k} is empty: rewardPool lists only 'previous', which exists from iteration 2; add 'verifier' or 'current'.`);
  return pool;
}

export async function plannerGrpoPhase(ctx: PhaseContext): Promise<PhaseOutput> {
  const { config, state, iteration: k } = ctx;
  const cfg = state.plannerCfg;
  const steps = config.plannerGrpoSteps;
  const need = steps * config.grpoPrompts;
  const screen = config.grpoScreen;
  const drawn = trainingPlannerStates(ctx.rng.fork('states'), 2 * need * screen);
  const shuffled = ctx.rng.fork('order').shuffle(config.grpoTargetedOnly ? drawn.filter((s) => s.step.box !== undefined) : drawn);
  if (need > 0 && shuffled.length === 0) throw new Error(`No training state${config.grpoTargetedOnly ? ' with a target element' : ''} was found for planner GRPO.`);
  const pool = rewardPool(ctx);
  const previous = state.model('planner', k - 1);
  ctx.report({ done: 0, total: steps });
  // π(k−1) picks the states it is least sure of among `screen` candidates per prompt (learn/plannerScreen.ts).
  const candidates = shuffled.slice(0, need * screen);
  const screened = screen > 1 && need > 0 ? await leastSureStates(previous, cfg, state.tok, candidates, need, { constrained: config.plannerConstraint }) : null;
  const prompts = screened?.states ?? shuffled;
  const params = trainableCopy(previous);
  try {
    const series = new SeriesWriter(state);
    const rewards: number[] = [];
    const kls: number[] = [];
    const losses: number[] = [];
    let informative = 0;
    let groups = 0;
    const styles = new Map<RefStyle | 'none', number>();
    let sampled = 0;
    // A few groups of each batch (evenly spaced batches in long phases), for the inspector.
    const recorded = recordedBatches(steps);
    const groupRecords: GroupRecord[] = [];
    const poolMembers = pool.map((g) => ({ name: g.name, prior: g.prior }));
    await withLora(config, ctx.rng.fork('lora'), params, async (lora) => {
      const grpo = makePlannerGrpo(params, cfg, state.tok, {
        lr: config.plannerGrpoLr,
        pool,
        rng: ctx.journal.random(ctx.rng.fork('sample')),
        groupSize: config.groupSize,
        temperature: config.temperature,
        beta: config.beta,
        epsilon: config.epsilon,
        aggregation: config.aggregation,
        reward: { weighting: config.rewardWeighting },
        clipNorm: PLANNER_CLIP_NORM,
        lora,
        reference: lora ? undefined : previous,
        constrained: config.plannerConstraint,
      });
      ctx.journal.train({ tensors: trainedTensors({ model: params, lora: lora?.adapters }), optimizer: grpo.optimizer });
      try {
        for (let step = 0; step < steps; step++) {
          const batch = Array.from({ length: config.grpoPrompts }, (_, i) => prompts[(step * config.grpoPrompts + i) % prompts.length]);
          const r = await ctx.journal.batch(() => grpo.step(batch));
          if (recorded.has(step)) {
            groupRecords.push(
              ...groupRecordsOfStep(batch, r, { runId: ctx.runId, iteration: k, batch: step, pool: poolMembers, weighting: config.rewardWeighting, groupSize: config.groupSize, count: GROUPS_PER_BATCH }),
            );
          }
          rewards.push(r.meanReward);
          kls.push(r.kl);
          losses.push(r.loss);
          informative += r.informativeGroups;
          groups += r.groups;
          for (const s of r.samples) {
            const style = s.reward.parsed?.ref?.style ?? 'none';
            styles.set(style, (styles.get(style) ?? 0) + 1);
            sampled++;
          }
          series.push(PLANNER_GRPO_REWARD, r.meanReward);
          series.push(PLANNER_GRPO_KL, r.kl);
          series.push(PLANNER_GRPO_INFORMATIVE, r.groups > 0 ? r.informativeGroups / r.groups : 0);
          series.push(PLANNER_GRPO_LOSS, r.loss);
          ctx.report({ done: step + 1, total: steps, loss: r.loss, reward: r.meanReward });
        }
      } finally {
        ctx.journal.train(null);
        grpo.dispose();
      }
    });
    // The mix of referring styles the planner wrote: the drift co-evolution should show.
    const styleShares = Object.fromEntries([...styles].sort(([a], [b]) => (a < b ? -1 : 1)).map(([style, n]) => [`style:${style}`, n / sampled]));
    return {
      planner: params,
      checkpoints: [await checkpointRecord(ctx.runId, 'planner', k, params, cfg)],
      metrics: series.toPoints(),
      groups: groupRecords,
      summary: {
        ...grpoSummary({ rewardMean: mean(rewards), informativeRatio: groups > 0 ? informative / groups : 0 }),
        kl: mean(kls),
        loss_mean: mean(losses),
        steps,
        groups,
        informative_groups: informative,
        pool: pool.map((g) => `${g.name}:${g.prior}`).join(','),
        ...(screened ? { screen_candidates: candidates.length, screen_sure_all: screened.sureAll, screen_sure_kept: screened.sureKept } : {}),
        ...styleShares,
      },
    };
  } catch (e) {
    disposeParams(params);
    throw e;
  }
}
