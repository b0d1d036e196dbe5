/**
 * Phase seed-data: D0. The rule-based writer pool writes an instruction for
 * every oracle step of config.seedTasks training tasks (at the configured
 * error rate), and the seed verifier pool (the rule-based verifier alone:
 * no neural grounder exists yet) keeps those it agrees with. Every sample
 * is committed, kept or dropped, with its reasons. This is buildSeedData in
 * its two halves, so that verification pauses between chunks.
 */
import { verifierPool } from '../pools';
import { verifySeedCandidates, writeSeedCandidates } from '../seedData';
import type { StepSample } from '../records';
import type { PhaseContext, PhaseOutput } from './context';

/** Candidates judged per batch. */
const VERIFY_CHUNK = 64;

export async function seedDataPhase(ctx: PhaseContext): Promise<PhaseOutput> {
  const { config, state } = ctx;
  // An empty first batch, so that a pause or one step stops before any work.
  await ctx.journal.batch(async () => null);
  const candidates = writeSeedCandidates({ runId: ctx.runId, rng: ctx.rng, tasks: config.seedTasks, errorRate: config.writerErrorRate });
  const verifiers = verifierPool({ k: 0, grounders: state.grounderGenerations(), tok: state.tok, paint: ctx.paint });
  const samples: StepSample[] = [];
  ctx.report({ done: 0, total: candidates.length });
  for (let start = 0; start < candidates.length; start += VERIFY_CHUNK) {
    const chunk = candidates.slice(start, start + VERIFY_CHUNK);
    samples.push(...(await ctx.journal.batch(() => verifySeedCandidates(chunk, { verifiers }))));
    ctx.report({ done: samples.length, total: candidates.length });
  }
  const kept = samples.filter((s) => s.kept);
  return {
    samples,
    summary: {
      tasks: config.seedTasks,
      samples: samples.length,
      kept: kept.length,
      dropped: samples.length - kept.length,
      kept_with_target: kept.filter((s) => s.box !== undefined).length,
      corrupted_written: candidates.filter((c) => c.corrupted).length,
    },
  };
}
