/**
 * Phase distill (k ≥ 1): Ek, instructions sampled from πk on
 * config.distillStates training states (those with a target element),
 * judged by the verifier pool of iteration k (the rule verifier and the two
 * latest grounders before k) and curated with the current grounder φ(k−1)
 * as config.curation says; D(k−1) is given so repeats are dropped.
 *
 * This is coevo/distill.ts's distill() with its decoding cut into batches
 * that wait at the gate, and its pool calls gated too. With config.coevo
 * false the grounder must never see distilled data, so nothing is sampled.
 */
import { decodeStates } from '../../learn/evalPlanner';
import { trainingPlannerStates } from '../../learn/plannerStates';
import { DISTILL_STAGES, judgeSampled, type SampledInstruction } from '../distill';
import { decodeRows } from '../evaluate';
import { funnelCounts, funnelSummary } from '../funnel';
import { verifierPool } from '../pools';
import type { PhaseContext, PhaseOutput } from './context';
import { gatedPool } from './training';

/** Instructions sampled from πk per training state. */
export const DISTILL_SAMPLES_PER_STATE = 2;
/** Rows per decoding forward. */
const DECODE_BATCH = 16;

export async function distillPhase(ctx: PhaseContext): Promise<PhaseOutput> {
  const { config, state, iteration: k } = ctx;
  if (!config.coevo) {
    return { summary: { skipped: 'coevo is false: the ablation baseline distils nothing, so the grounder trains on D0 alone', sampled: 0, kept: 0 } };
  }
  const states = trainingPlannerStates(ctx.rng.fork('states'), config.distillStates)
    .slice(0, config.distillStates)
    .filter((s) => s.step.box !== undefined && s.step.targetId !== undefined);
  const planner = state.model('planner', k);
  const grounder = { params: state.model('grounder', k - 1), cfg: state.grounderCfg };
  const verifiers = gatedPool(verifierPool({ k, grounders: state.grounderGenerations(), tok: state.tok, paint: ctx.paint }), ctx.journal);

  // Decoding, one gated batch of rows at a time: states whose rows fill DECODE_BATCH.
  const perBatch = Math.max(1, Math.floor(DECODE_BATCH / DISTILL_SAMPLES_PER_STATE));
  const decodeRng = ctx.journal.random(ctx.rng.fork('decode'));
  const sampled: SampledInstruction[] = [];
  const total = states.length * DISTILL_SAMPLES_PER_STATE;
  const progress = (done: number) => ctx.report({ done, total: 2 * total });
  progress(0);
  for (let start = 0; start < states.length; start += perBatch) {
    const part = states.slice(start, start + perBatch);
    const decoded = await ctx.journal.batch(() => decodeStates(planner, state.plannerCfg, state.tok, part, {
      temperature: config.temperature,
      rng: decodeRng,
      repeat: DISTILL_SAMPLES_PER_STATE,
      // A short last batch pads only to the next power of two: decoding costs a forward per token per row.
      batchSize: decodeRows(part.length * DISTILL_SAMPLES_PER_STATE, DECODE_BATCH),
      constrained: config.plannerConstraint,
    }));
    decoded.forEach((d, i) => sampled.push({ state: part[Math.floor(i / DISTILL_SAMPLES_PER_STATE)], text: d.instruction }));
    progress(sampled.length);
  }

  const samples =
    sampled.length === 0
      ? []
      : await judgeSampled(sampled, {
          runId: ctx.runId,
          iteration: k,
          source: `planner@${k}`,
          rng: ctx.rng.fork('judge'),
          tok: state.tok,
          verifiers,
          grounder,
          paint: ctx.paint,
          curation: config.curation,
          groupSize: config.groupSize,
          existing: state.samplesUpTo(k - 1),
          onProgress: (p) => progress(total + Math.min(p.done, total)),
        });
  progress(2 * total);

  const summary: PhaseOutput['summary'] = {
    states: states.length,
    sampled: samples.length,
    kept: samples.filter((s) => s.kept).length,
  };
  // The funnel, stored so the report need not rederive it (older runs still get it from the notes).
  Object.assign(summary, funnelSummary(funnelCounts(samples, states.length)));
  // Where the dropped samples fell: the first stage that said drop.
  for (const stage of DISTILL_STAGES) summary[`dropped:${stage}`] = 0;
  for (const s of samples) {
    const at = s.curation.find((n) => n.decision === 'drop');
    if (!at) continue;
    const key = `dropped:${at.stage}`;
    summary[key] = ((summary[key] as number | undefined) ?? 0) + 1;
  }
  return { samples, summary };
}
