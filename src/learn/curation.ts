/**
 * Data curation (../shared/METHOD.md §5; SE-GUI and arXiv 2511.08172): less,
 * cleaner data beat more, noisier data. Three filters, each giving every
 * sample a decision and a reason a person can read, and `curate` to chain them.
 */
import type { Resolution } from '../world/verifier';
import type { Random } from './random';

export interface Decision {
  decision: 'keep' | 'drop';
  reason: string;
}

const keep = (reason: string): Decision => ({ decision: 'keep', reason });
const drop = (reason: string): Decision => ({ decision: 'drop', reason });

/**
 * Too easy: G points sampled from the current grounder; if every one hits
 * the true box the sample teaches nothing (and, for GRPO, its group has zero
 * advantage anyway).
 */
export function tooEasy(hitsOfGSamples: readonly boolean[]): Decision {
  const g = hitsOfGSamples.length;
  if (g === 0) throw new Error('tooEasy: no sampled points');
  const hits = hitsOfGSamples.filter(Boolean).length;
  return hits === g ? drop(`too easy: all ${g} of ${g} sampled points hit`) : keep(`${hits} of ${g} sampled points hit`);
}

/** One model verifier's grounding of the sample's instruction. */
export interface VerifierVote {
  name?: string;
  /** Whether its point lies inside the sample's box. */
  hit: boolean;
  /** Its confidence in its point, in [0, 1]. */
  confidence: number;
}

export interface MisalignmentInput {
  /** The model verifier pool (e.g. the two latest grounders). */
  votes: readonly VerifierVote[];
  /** What the rule-based verifier resolves the instruction to on this screen, when it was asked. */
  rule?: Resolution;
  /** The sample's target element, checked against `rule`. */
  targetId?: string;
}

/** A vote at or above this confidence counts as "confident". */
export const CONFIDENT = 0.5;

/**
 * Misaligned: the instruction and the box disagree. Dropped when the rule
 * verifier finds the instruction ambiguous on this screen, resolves it to no
 * element or to another element. Kept when it resolves it to the target:
 * the rule verifier reads the layout, so it is exact here, while the model
 * votes come from the grounders being taught, and the too-easy filter before
 * this one keeps exactly the samples they miss (counting their misses too
 * dropped every distilled sample: measured, 0 kept over 3 iterations). Only
 * without a rule resolution do the model votes decide: dropped when the
 * confident votes that miss the box outnumber the confident votes that hit
 * it. Unconfident votes are not evidence either way.
 */
export function misaligned(input: MisalignmentInput, confident: number = CONFIDENT): Decision {
  const rule = input.rule;
  if (rule?.kind === 'ambiguous') return drop(`misaligned: ambiguous on this screen (${rule.ids.length} elements match: ${rule.ids.join(', ')})`);
  if (rule?.kind === 'none') return drop('misaligned: the instruction refers to no element on this screen');
  if (rule?.kind === 'element' && input.targetId !== undefined && rule.id !== input.targetId) {
    return drop(`misaligned: the rule verifier resolves it to ${rule.id}, not ${input.targetId}`);
  }
  if (rule?.kind === 'element' && input.targetId !== undefined) return keep(`aligned: the rule verifier resolves it to the target ${rule.id}`);
  const named = input.votes.map((v, i) => ({ ...v, name: v.name ?? `verifier ${i}` }));
  const sure = named.filter((v) => v.confidence >= confident);
  const misses = sure.filter((v) => !v.hit);
  const hits = sure.length - misses.length;
  const names = misses.map((v) => v.name).join(', ');
  if (misses.length > hits) {
    return drop(`misaligned: ${misses.length} confident verifier(s) ground it elsewhere (${names}) against ${hits} on the box`);
  }
  return keep(`aligned: ${hits} confident hit(s), ${misses.length} confident miss(es)`);
}

function dist2(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += (a[i] - b[i]) ** 2;
  return s;
}

export interface DiversityResult {
  /** Chosen indices, in the order greedy k-centre picked them. */
  chosen: number[];
  /** One decision per input embedding. */
  decisions: Decision[];
}

/**
 * Greedy k-centre (farthest-point sampling): the first centre is drawn from
 * `rng`, each next one is the sample farthest from every centre so far (ties
 * to the lower index). Gives a 2-approximation of the best k-centre cover.
 */
export function diversitySubset(embeddings: readonly Float32Array[], k: number, rng: Random): DiversityResult {
  const n = embeddings.length;
  if (!Number.isInteger(k) || k < 0) throw new Error(`diversitySubset: k must be an integer ≥ 0; got ${k}`);
  if (n === 0) return { chosen: [], decisions: [] };
  const dim = embeddings[0].length;
  if (embeddings.some((e) => e.length !== dim)) throw new Error('diversitySubset: embeddings differ in length');
  const chosen: number[] = [];
  const decisions: Decision[] = new Array(n);
  const nearest = new Float64Array(n).fill(Infinity); // squared distance to the nearest centre
  const nearestCentre = new Int32Array(n).fill(-1);
  const take = (i: number, why: string) => {
    chosen.push(i);
    decisions[i] = keep(why);
    for (let j = 0; j < n; j++) {
      const d = dist2(embeddings[j], embeddings[i]);
      if (d < nearest[j]) {
        nearest[j] = d;
        nearestCentre[j] = i;
      }
    }
  };
  if (k > 0) take(rng.int(0, n - 1), `k-centre pick 1 of ${Math.min(k, n)} (random start)`);
  while (chosen.length < Math.min(k, n)) {
    let best = -1;
    for (let j = 0; j < n; j++) if (decisions[j] === undefined && (best < 0 || nearest[j] > nearest[best])) best = j;
    take(best, `k-centre pick ${chosen.length + 1} of ${Math.min(k, n)}: ${Math.sqrt(nearest[best]).toFixed(3)} from the nearest earlier pick`);
  }
  for (let j = 0; j < n; j++) {
    if (decisions[j] !== undefined) continue;
    decisions[j] = drop(`not diverse: ${Math.sqrt(nearest[j]).toFixed(3)} from chosen sample ${nearestCentre[j]}`);
  }
  return { chosen, decisions };
}

export interface CurationSample {
  id: string;
  /** Hits of G points sampled from the current grounder; skip the too-easy filter when absent. */
  hits?: readonly boolean[];
  /** Verifier evidence; skip the misalignment filter when absent. */
  verifiers?: MisalignmentInput;
  /** The grounder's embedding of the sample, for the diversity filter. */
  embedding: Float32Array;
}

export type CurationStage = 'too-easy' | 'misaligned' | 'diversity';

export interface CurationRecord {
  id: string;
  kept: boolean;
  /** The first filter that dropped it; null when kept. */
  droppedBy: CurationStage | null;
  /** Every decision taken for it, in order; later filters do not see samples an earlier one dropped. */
  decisions: { stage: CurationStage; decision: Decision }[];
}

export interface CurationOptions {
  /** How many samples the diversity filter keeps from the survivors. */
  k: number;
  rng: Random;
  confident?: number;
}

/** Too easy → misaligned → diversity among the survivors, recording every decision. */
export function curate(samples: readonly CurationSample[], opts: CurationOptions): CurationRecord[] {
  const records: CurationRecord[] = samples.map((s) => ({ id: s.id, kept: true, droppedBy: null, decisions: [] }));
  const record = (i: number, stage: CurationStage, decision: Decision) => {
    records[i].decisions.push({ stage, decision });
    if (decision.decision === 'drop') {
      records[i].kept = false;
      records[i].droppedBy = stage;
    }
  };
  samples.forEach((s, i) => {
    record(i, 'too-easy', s.hits ? tooEasy(s.hits) : keep('not checked: no sampled points'));
    if (records[i].kept) record(i, 'misaligned', s.verifiers ? misaligned(s.verifiers, opts.confident) : keep('not checked: no verifier evidence'));
  });
  const survivors = records.map((r, i) => (r.kept ? i : -1)).filter((i) => i >= 0);
  const diverse = diversitySubset(survivors.map((i) => samples[i].embedding), opts.k, opts.rng);
  survivors.forEach((i, j) => {
    const d = diverse.decisions[j];
    // Name the nearest pick by sample id rather than by position among the survivors.
    const reason = d.reason.replace(/chosen sample (\d+)/, (_, p: string) => `chosen sample ${samples[survivors[Number(p)]].id}`);
    record(i, 'diversity', { decision: d.decision, reason });
  });
  return records;
}
