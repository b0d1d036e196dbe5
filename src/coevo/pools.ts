/**
 * The writer pool and the verifier pool of the Co-EPG loop (METHOD.md §2)
 * and how they grow.
 *
 * - Writer pool: the rule-based writers of world/writers.ts (DEFAULT_WRITERS,
 *   different habits and error rates) stand for the paper's pool of imperfect
 *   planners and write D0. From k ≥ 1 the newest planner πk joins it; only the
 *   two latest planner generations stay (the paper keeps two).
 * - Verifier pool: the rule-based verifier (verifierGrounder, standing for the
 *   paper's large frozen grounders, prior σ = 1) plus the latest two neural
 *   grounders trained so far, the older with σ = 1 and the newest with σ = 2
 *   (the paper's 1 : 1 : 2). While the verifier pool checks the data of
 *   iteration k (distillation of Ek), the newest grounder is φ(k−1), the one
 *   Ek will train; at the seed phase no neural grounder exists yet and the
 *   pool is the rule-based verifier alone.
 *
 * Also the pool's verdict on one instruction ("the pool agrees it points at
 * the true element"), shared by the seed and distillation phases.
 */
import type { GrounderConfig } from '../models/grounder';
import type { PlannerConfig } from '../models/planner';
import type { ParamMap } from '../models/params';
import { neuralPoolGrounder, verifierGrounder, type GroundingAnswer, type PoolGrounder } from '../learn/plannerGrounderPool';
import { insideBox, planWeights } from '../learn/rewards';
import type { Tokenizer } from '../text/tokenizer';
import type { Box, Screen } from '../world/types';
import { DEFAULT_WRITERS, type WriterSpec } from '../world/writers';

/** How many model generations each pool keeps (Co-EPG keeps the two latest). */
export const POOL_GENERATIONS = 2;

/** Priors σ of the verifier pool: the paper's 1 : 1 : 2 (frozen, previous, current). */
export const VERIFIER_PRIORS = { rule: 1, older: 1, newest: 2 } as const;

/** A model of one generation: the planner or grounder after iteration `iteration`. */
export interface Generation<M> {
  iteration: number;
  model: M;
}

export interface PlannerModel {
  params: ParamMap;
  cfg: PlannerConfig;
}

export interface GrounderModel {
  params: ParamMap;
  cfg: GrounderConfig;
}

/** The `keep` latest generations, oldest first (duplicated iterations are refused: they would be ambiguous). */
export function latestGenerations<M>(gens: readonly Generation<M>[], keep: number = POOL_GENERATIONS): Generation<M>[] {
  if (!Number.isInteger(keep) || keep < 0) throw new Error(`latestGenerations: keep must be an integer ≥ 0; got ${keep}`);
  const sorted = gens.slice().sort((a, b) => a.iteration - b.iteration);
  for (let i = 1; i < sorted.length; i++) {
    if (sorted[i].iteration === sorted[i - 1].iteration) {
      throw new Error(`latestGenerations: two models of iteration ${sorted[i].iteration}; pass one model per iteration`);
    }
  }
  return keep === 0 ? [] : sorted.slice(-keep);
}

export interface WriterPool {
  /** The rule-based writers (they write D0). */
  writers: readonly WriterSpec[];
  /** The planners that write from k ≥ 1, oldest first: at most POOL_GENERATIONS, none before iteration 1. */
  planners: Generation<PlannerModel>[];
}

/**
 * The writer pool after iteration k: the rule-based writers plus the latest
 * two planners of iterations 1 … k (π0, the SFT planner, never joins: the
 * paper adds the planners its GRPO produced).
 */
export function writerPool(k: number, planners: readonly Generation<PlannerModel>[], writers: readonly WriterSpec[] = DEFAULT_WRITERS): WriterPool {
  if (!Number.isInteger(k) || k < 0) throw new Error(`writerPool: k must be an integer ≥ 0; got ${k}`);
  const eligible = planners.filter((p) => p.iteration >= 1 && p.iteration <= k);
  return { writers, planners: latestGenerations(eligible) };
}

export interface VerifierPoolOptions {
  /** The iteration whose data the pool checks: grounders of iterations < k are eligible (0 for the seed data: none). */
  k: number;
  /** Every neural grounder trained so far, by iteration (φ0 is iteration 0). */
  grounders: readonly Generation<GrounderModel>[];
  tok: Tokenizer;
  /** Screens to pixels: syntheticScreenImage in Node, the Canvas renderer in the browser. */
  paint?: (screen: Screen) => Float32Array;
  /** Queries per neural forward. */
  batchSize?: number;
}

/**
 * The verifier pool for the data of iteration k: the rule-based verifier
 * (σ 1) and the latest two neural grounders of iterations < k (σ 1 for the
 * older, 2 for the newest), named `grounder@<iteration>`.
 */
export function verifierPool(opts: VerifierPoolOptions): PoolGrounder[] {
  if (!Number.isInteger(opts.k) || opts.k < 0) throw new Error(`verifierPool: k must be an integer ≥ 0; got ${opts.k}`);
  const eligible = latestGenerations(opts.grounders.filter((g) => g.iteration < opts.k));
  const pool: PoolGrounder[] = [verifierGrounder({ name: 'verifier', prior: VERIFIER_PRIORS.rule })];
  eligible.forEach((g, i) => {
    const prior = i === eligible.length - 1 ? VERIFIER_PRIORS.newest : VERIFIER_PRIORS.older;
    pool.push(neuralPoolGrounder(g.model.params, g.model.cfg, opts.tok, { name: `grounder@${g.iteration}`, prior, paint: opts.paint, batchSize: opts.batchSize }));
  });
  return pool;
}

/** A pool's verdict on one instruction. */
export interface PoolVerdict {
  /** Share of the pool's weight on members whose point lies inside the true box, in [0, 1]. */
  agreement: number;
  agrees: boolean;
  /** Per member: name, hit, the confidence used for its weight, its weight. */
  members: { name: string; hit: boolean; confidence: number; weight: number }[];
}

/** The pool agrees when at least this share of its weight hits the box. */
export const AGREEMENT = 0.5;

/**
 * "The verifier pool agrees it points at the true element": the weighted
 * vote of the members whose point lies inside the box is ≥ AGREEMENT (0.5),
 * with weights softmax_j(σ_j · c_j) as in the plan reward (C-DREM), so data
 * and reward trust the same members. One difference: a member that gives
 * no point (the rule verifier on an ambiguous or unresolved reference)
 * votes "miss" with confidence 1, not 0, because it looked and found no
 * single element; otherwise an untrained neural grounder's lucky, near-zero
 * confidence hit would outweigh a verifier that rejects the reference.
 */
export function poolVerdict(pool: readonly PoolGrounder[], answers: readonly GroundingAnswer[], box: Box): PoolVerdict {
  if (pool.length === 0) throw new Error('poolVerdict: the verifier pool is empty; give it at least the rule-based verifier');
  if (answers.length !== pool.length) throw new Error(`poolVerdict: ${answers.length} answers for a pool of ${pool.length}`);
  const confidence = answers.map((a) => (a.point ? Math.min(1, Math.max(0, a.confidence)) : 1));
  const weights = planWeights(pool.map((g, j) => ({ point: answers[j].point, confidence: confidence[j], prior: g.prior })));
  const members = pool.map((g, j) => {
    const p = answers[j].point;
    return { name: g.name, hit: p !== null && insideBox(p, box), confidence: confidence[j], weight: weights[j] };
  });
  const agreement = members.reduce((s, m) => s + (m.hit ? m.weight : 0), 0);
  return { agreement, agrees: agreement >= AGREEMENT, members };
}

/** The verdict in words, for the sample's curation note. */
export function describeVerdict(v: PoolVerdict): string {
  const who = v.members.map((m) => `${m.name} ${m.hit ? 'hit' : 'miss'} (w ${m.weight.toFixed(2)})`).join(', ');
  const head = v.agrees ? 'verifier pool agrees' : 'verifier pool disagrees';
  return `${head}: ${v.agreement.toFixed(2)} of its weight on the true element; ${who}`;
}
