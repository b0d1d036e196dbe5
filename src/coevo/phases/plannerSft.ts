/**
 * Phase sft-planner: π0 = SFT on the kept samples of D0; from the base
 * models, π0 is the base planner itself unless config.plannerSftOnBase (the
 * seed SFT lowered the base planner's held-out exact match). Each sample's
 * planner state (goal, screen description, true history) is rebuilt from
 * its task and step, and the sample's own instruction is the target, so the
 * planner learns the writer pool's verified wording. LoRA when the config
 * asks for it (merged into π0 at the end).
 */
import { disposeParams } from '../../models/params';
import { makePlannerSft, PLANNER_CLIP_NORM } from '../../learn/plannerSft';
import { plannerSftBatch, type PlannerState } from '../../learn/plannerStates';
import { checkpointRecord } from '../runState';
import { mean, SeriesWriter, type PhaseContext, type PhaseOutput } from './context';
import { batchOrder, startingWeights, withLora } from './training';
import { trainedTensors } from '../phaseJournal';

export const PLANNER_SFT_LOSS = 'planner-sft/loss';

export async function plannerSftPhase(ctx: PhaseContext): Promise<PhaseOutput> {
  const { config, state } = ctx;
  const cfg = state.plannerCfg;
  const kept = state.samplesUpTo(0).filter((s) => s.kept);
  if (kept.length === 0) throw new Error('D0 has no kept samples to train the planner on; raise seedTasks or lower writerErrorRate.');
  const states: PlannerState[] = kept.map((s) => ({ ...state.stateOf(s), instruction: s.instruction }));
  const params = await startingWeights(ctx, 'planner', ctx.rng.fork('init'));
  try {
    const series = new SeriesWriter(state);
    const losses: number[] = [];
    const total = config.start === 'base' && !config.plannerSftOnBase ? 0 : config.plannerSftSteps;
    await withLora(config, ctx.rng.fork('lora'), params, async (lora) => {
      const sft = makePlannerSft(params, cfg, { lr: config.plannerSftLr, clipNorm: PLANNER_CLIP_NORM, lora });
      ctx.journal.train({ tensors: trainedTensors({ model: params, lora: lora?.adapters }), optimizer: sft.optimizer });
      try {
        const next = batchOrder(ctx.rng.fork('batches'), states.length, config.plannerBatch);
        ctx.report({ done: 0, total });
        for (let step = 0; step < total; step++) {
          const picked = next().map((i) => states[i]);
          const { loss } = await ctx.journal.batch(() => sft.step(plannerSftBatch(state.tok, cfg, picked)));
          losses.push(loss);
          series.push(PLANNER_SFT_LOSS, loss);
          ctx.report({ done: step + 1, total, loss });
        }
      } finally {
        ctx.journal.train(null);
        sft.dispose();
      }
    });
    return {
      planner: params,
      checkpoints: [await checkpointRecord(ctx.runId, 'planner', 0, params, cfg)],
      metrics: series.toPoints(),
      summary: {
        samples: states.length,
        steps: total,
        loss_first: losses[0] ?? 0,
        loss_last: losses[losses.length - 1] ?? 0,
        loss_mean: mean(losses),
      },
    };
  } catch (e) {
    disposeParams(params);
    throw e;
  }
}
