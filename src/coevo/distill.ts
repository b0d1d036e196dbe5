/**
 * Ek, the distilled data of iteration k (METHOD.md §2 and §5): instructions
 * sampled from the newest planner πk on training states, kept when
 *
 *   1. verifier: they parse, their action type and value are the true
 *      step's, and the verifier pool agrees they point at the true element
 *      (pools.poolVerdict);
 *   2. too-easy (optional): not all of G points sampled from the current
 *      grounder hit the box;
 *   3. misaligned (optional): the rule verifier resolves them to the target
 *      alone and confident model verifiers do not ground them elsewhere;
 *   4. diversity (optional): greedy k-centre on the current grounder's
 *      embedding picks keepFraction of what is left.
 *
 * Each decision is a CurationNote on the sample; every sampled instruction
 * is returned, kept or dropped, so the data view shows why. An instruction
 * that repeats a kept sample of D(k−1), or an earlier sample of Ek, for the
 * same task and step is dropped as a duplicate (stage 'diversity': an exact
 * copy adds nothing).
 *
 * Ek trains the grounder, so only states whose step has a target element are
 * sampled; the others are skipped.
 */
import * as tf from '../models/tf';
import { CANVAS_HEIGHT, CANVAS_WIDTH, GRID_CELLS, IMAGE_FLOATS, validCells } from '../models/canvas';
import { grounderForward, samplePoints } from '../models/grounder';
import { instructionArrays, instructionTensors, setInstruction } from '../models/instructionBatch';
import { syntheticScreenImage } from '../models/rasterize';
import { diversitySubset, misaligned, tooEasy, type CurationStage, type Decision } from '../learn/curation';
import { decodeStates } from '../learn/evalPlanner';
import { groundWithPool, type GroundingAnswer, type PoolGrounder } from '../learn/plannerGrounderPool';
import type { PlannerState } from '../learn/plannerStates';
import type { Random } from '../learn/random';
import { insideBox } from '../learn/rewards';
import { parseInstruction, printInstruction } from '../text/grammar';
import type { Tokenizer } from '../text/tokenizer';
import type { Box, Instruction, Screen } from '../world/types';
import { resolveRef } from '../world/verifier';
import { REASON } from './funnel';
import { describeVerdict, poolVerdict, type GrounderModel, type PlannerModel } from './pools';
import type { CurationNote, StepSample } from './records';
import { stepMismatch, type DataProgress } from './seedData';

export interface DistillCuration {
  tooEasy: boolean;
  misaligned: boolean;
  diversity: boolean;
  /** Share of the survivors of the earlier filters the diversity filter keeps, in (0, 1]. */
  keepFraction: number;
}

/** One instruction a planner wrote for a state. */
export interface SampledInstruction {
  state: PlannerState;
  text: string;
}

export interface JudgeOptions {
  runId: string;
  /** k: the planner GRPO iteration the instructions come from. */
  iteration: number;
  /** Provenance of the instructions, e.g. `planner@${k}`. */
  source: string;
  /** Number of the first sample's id (default 0): lets two planners of the writer pool distil into one Ek without id clashes. */
  firstIndex?: number;
  rng: Random;
  tok: Tokenizer;
  verifiers: readonly PoolGrounder[];
  /** The current grounder: G sampled points (too-easy) and embeddings (diversity). */
  grounder: GrounderModel;
  /** Screens to pixels: syntheticScreenImage in Node (default), the Canvas renderer in the browser. */
  paint?: (screen: Screen) => Float32Array;
  curation: DistillCuration;
  /** G: points sampled per sample for the too-easy filter. */
  groupSize: number;
  /** D(k−1): kept samples with the same task, step and instruction are not distilled again. */
  existing?: readonly StepSample[];
  /** Rows per grounder forward (fixed: the last batch is padded with copies). */
  groundBatch?: number;
  /** Queries per call to the verifier pool (neural members batch inside it). */
  verifyChunk?: number;
  onProgress?: (p: DataProgress) => void;
}

export interface DistillOptions extends Omit<JudgeOptions, 'source'> {
  planner: PlannerModel;
  /** Default `planner@${iteration}`; another planner of the writer pool (pools.writerPool) names its own iteration. */
  source?: string;
  /** Training states (plannerStates.trainingPlannerStates); states without a target element are skipped. */
  states: readonly PlannerState[];
  /** Instructions sampled per state (temperature sampling with `rng`). */
  samplesPerState: number;
  temperature: number;
  /** Rows per decoding forward (fixed shape). */
  decodeBatch?: number;
}

function checkJudge(o: JudgeOptions): void {
  const c = o.curation;
  if (!Number.isInteger(o.iteration) || o.iteration < 1) throw new Error(`distill: iteration must be an integer ≥ 1 (Ek follows planner GRPO k); got ${o.iteration}`);
  if (!(c.keepFraction > 0 && c.keepFraction <= 1)) throw new Error(`distill: curation.keepFraction must lie in (0, 1]; got ${c.keepFraction}`);
  if (!Number.isInteger(o.groupSize) || o.groupSize < 1) throw new Error(`distill: groupSize must be an integer ≥ 1; got ${o.groupSize}`);
  if (o.verifiers.length === 0) throw new Error('distill: the verifier pool is empty; give it at least the rule-based verifier (verifierGrounder)');
  for (const [name, v] of [['groundBatch', o.groundBatch], ['verifyChunk', o.verifyChunk]] as const) {
    if (v !== undefined && (!Number.isInteger(v) || v < 1)) throw new Error(`distill: ${name} must be an integer ≥ 1; got ${v}`);
  }
  if (o.firstIndex !== undefined && (!Number.isInteger(o.firstIndex) || o.firstIndex < 0)) throw new Error(`distill: firstIndex must be an integer ≥ 0; got ${o.firstIndex}`);
}

const dupKey = (taskId: string, stepIndex: number, instruction: string) => `${taskId}\u0000${stepIndex}\u0000${instruction}`;

interface GrounderEvidence {
  hits: boolean[][];
  embeddings: Float32Array[];
}

/**
 * One forward of the current grounder per `batch` items (the last padded
 * with copies): G points sampled with `rng` per item, hit or miss on its
 * box, and the grounder's embedding. One read-back per batch.
 */
async function grounderEvidence(
  model: GrounderModel,
  tok: Tokenizer,
  paint: (screen: Screen) => Float32Array,
  items: readonly { screen: Screen; text: string; box: Box }[],
  g: number,
  rng: Random,
  batch: number,
): Promise<GrounderEvidence> {
  const { params, cfg } = model;
  const hits: boolean[][] = [];
  const embeddings: Float32Array[] = [];
  for (let start = 0; start < items.length; start += batch) {
    const chunk = items.slice(start, start + batch);
    const img = new Float32Array(batch * IMAGE_FLOATS);
    const text = instructionArrays(batch, cfg);
    const valid = new Float32Array(batch * GRID_CELLS);
    // Samples of one state are adjacent: paint each screen once per batch.
    const painted = new Map<Screen, Float32Array>();
    for (let i = 0; i < batch; i++) {
      const q = chunk[Math.min(i, chunk.length - 1)];
      let pix = painted.get(q.screen);
      if (!pix) painted.set(q.screen, (pix = paint(q.screen)));
      img.set(pix, i * IMAGE_FLOATS);
      setInstruction(text, i, tok, cfg, q.text);
      valid.set(validCells(q.screen.platform), i * GRID_CELLS);
    }
    const out = tf.tidy(() =>
      grounderForward(params, cfg, {
        images: tf.tensor4d(img, [batch, CANVAS_HEIGHT, CANVAS_WIDTH, 3], 'float32'),
        ...instructionTensors(text, cfg),
        valid: tf.tensor2d(valid, [batch, GRID_CELLS], 'float32'),
      }),
    );
    try {
      const [points, emb] = await Promise.all([samplePoints(rng, out, g), out.embedding.data() as Promise<Float32Array>]);
      const width = out.embedding.shape[1];
      chunk.forEach((q, i) => {
        hits.push(points[i].map((p) => insideBox(p, q.box)));
        embeddings.push(emb.slice(i * width, (i + 1) * width));
      });
    } finally {
      tf.dispose([out.logits, out.offsets, out.embedding]);
    }
  }
  return { hits, embeddings };
}

/**
 * The verifier and curation decisions on instructions already sampled
 * (distill's second half; also usable on any planner's output). Returns one
 * sample per instruction, in order, ids `${runId}/${iteration}/${n}`.
 */
export async function judgeSampled(sampled: readonly SampledInstruction[], o: JudgeOptions): Promise<StepSample[]> {
  checkJudge(o);
  const total = sampled.length;
  const progress = (stage: string, done: number) => o.onProgress?.({ stage, done, total, kept: samples.filter((s) => s.kept).length });
  const parsed: (Instruction | null)[] = sampled.map((s) => parseInstruction(s.text));
  const samples: StepSample[] = sampled.map((s, n) => {
    const p = parsed[n];
    let text = s.text;
    if (p) {
      try {
        text = printInstruction(p);
      } catch {
        // A parse whose print fails keeps the planner's own words.
      }
    }
    const step = s.state.step;
    const task = s.state.task;
    return {
      id: `${o.runId}/${o.iteration}/${(o.firstIndex ?? 0) + n}`,
      runId: o.runId,
      iteration: o.iteration,
      phase: 'distill',
      origin: 'distilled',
      source: o.source,
      task,
      stepIndex: s.state.stepIndex,
      platform: task.platform,
      goal: task.goal,
      instruction: text,
      style: p?.ref?.style ?? null,
      // The sample's label is the true step; an instruction of another action is dropped below.
      actionType: step.type,
      ...(step.value !== undefined ? { value: step.value } : {}),
      ...(step.targetId !== undefined ? { targetId: step.targetId } : {}),
      ...(step.box !== undefined ? { box: { ...step.box } } : {}),
      kept: true,
      curation: [] as CurationNote[],
    };
  });
  const note = (i: number, stage: CurationNote['stage'], d: Decision) => {
    samples[i].curation.push({ stage, decision: d.decision, reason: d.reason });
    if (d.decision === 'drop') samples[i].kept = false;
  };
  const alive = () => samples.map((s, i) => (s.kept ? i : -1)).filter((i) => i >= 0);

  // 1a. Rule checks and duplicates, before any model is asked.
  const seen = new Map<string, string>();
  for (const s of o.existing ?? []) if (s.kept) seen.set(dupKey(s.task.id, s.stepIndex, s.instruction), s.id);
  samples.forEach((s, i) => {
    const step = sampled[i].state.step;
    const p = parsed[i];
    const wrong = p ? stepMismatch(p, step) : null;
    // The funnel (funnel.ts) tells these checks apart by their reasons.
    if (!step.box || step.targetId === undefined) note(i, 'verifier', { decision: 'drop', reason: REASON.noTargetStep });
    else if (!p) note(i, 'verifier', { decision: 'drop', reason: REASON.unparsed });
    else if (wrong) note(i, 'verifier', { decision: 'drop', reason: `${REASON.wrongStepPrefix}${wrong}` });
    else if (!p.ref) note(i, 'verifier', { decision: 'drop', reason: REASON.noRef });
    else {
      const key = dupKey(s.task.id, s.stepIndex, s.instruction);
      const earlier = seen.get(key);
      if (earlier !== undefined) note(i, 'diversity', { decision: 'drop', reason: `${REASON.duplicatePrefix}same task, step and instruction as ${earlier}` });
      else seen.set(key, s.id);
    }
  });

  // 1b. The verifier pool.
  let idx = alive();
  const answers: GroundingAnswer[][] = samples.map(() => []);
  const chunk = o.verifyChunk ?? 64;
  for (let start = 0; start < idx.length; start += chunk) {
    const part = idx.slice(start, start + chunk);
    const grounded = await groundWithPool(o.verifiers, part.map((i) => ({ screen: sampled[i].state.screen, instruction: samples[i].instruction })));
    part.forEach((i, j) => {
      answers[i] = grounded[j];
      const v = poolVerdict(o.verifiers, grounded[j], samples[i].box as Box);
      note(i, 'verifier', { decision: v.agrees ? 'keep' : 'drop', reason: describeVerdict(v) });
    });
    progress('verify', total - idx.length + Math.min(idx.length, start + chunk));
  }

  // 2. Too easy, with the current grounder's sampled points (its embeddings serve the diversity filter).
  const c = o.curation;
  idx = alive();
  const evidence =
    c.tooEasy || c.diversity
      ? await grounderEvidence(
          o.grounder,
          o.tok,
          o.paint ?? syntheticScreenImage,
          idx.map((i) => ({ screen: sampled[i].state.screen, text: samples[i].instruction, box: samples[i].box as Box })),
          o.groupSize,
          o.rng.fork('too-easy'),
          o.groundBatch ?? 16,
        )
      : null;
  const embeddingOf = new Map<number, Float32Array>();
  idx.forEach((i, j) => {
    if (evidence) embeddingOf.set(i, evidence.embeddings[j]);
    if (c.tooEasy && evidence) note(i, 'too-easy', tooEasy(evidence.hits[j]));
  });

  // 3. Misaligned: the rule verifier's resolution and the confident model votes.
  if (c.misaligned) {
    for (const i of alive()) {
      const ref = (parsed[i] as Instruction).ref;
      const votes = o.verifiers.map((g, j) => {
        const a = answers[i][j];
        return { name: g.name, hit: a.point !== null && insideBox(a.point, samples[i].box as Box), confidence: a.point ? a.confidence : 0 };
      });
      const rule = ref ? resolveRef(sampled[i].state.screen, ref) : undefined;
      note(i, 'misaligned', misaligned({ votes, rule, targetId: samples[i].targetId }));
    }
  }

  // 4. Diversity: greedy k-centre over the survivors' embeddings.
  if (c.diversity) {
    const survivors = alive();
    if (survivors.length > 0) {
      const k = Math.max(1, Math.round(c.keepFraction * survivors.length));
      const d = diversitySubset(survivors.map((i) => embeddingOf.get(i) as Float32Array), k, o.rng.fork('diversity'));
      survivors.forEach((i, j) => {
        // Name the nearest pick by sample id rather than by position among the survivors.
        const reason = d.decisions[j].reason.replace(/chosen sample (\d+)/, (_, p: string) => `chosen sample ${samples[survivors[Number(p)]].id}`);
        note(i, 'diversity', { decision: d.decisions[j].decision, reason });
      });
    }
  }
  progress('curate', total);
  return samples;
}

/** Stages a distilled sample can be dropped at, in the order they run. */
export const DISTILL_STAGES: readonly (CurationStage | 'verifier')[] = ['verifier', 'too-easy', 'misaligned', 'diversity'];

/**
 * Ek: `samplesPerState` instructions sampled from the planner on every
 * training state with a target element (temperature sampling with the
 * seeded rng; fixed decode batches), then judgeSampled with source
 * `planner@${iteration}` (or `source`).
 */
export async function distill(o: DistillOptions): Promise<StepSample[]> {
  checkJudge({ ...o, source: '' });
  if (!Number.isInteger(o.samplesPerState) || o.samplesPerState < 1) throw new Error(`distill: samplesPerState must be an integer ≥ 1; got ${o.samplesPerState}`);
  if (!(o.temperature > 0)) throw new Error(`distill: temperature must be > 0 (distillation samples); got ${o.temperature}`);
  const states = o.states.filter((s) => s.step.box !== undefined && s.step.targetId !== undefined);
  const decoded = await decodeStates(o.planner.params, o.planner.cfg, o.tok, states, {
    temperature: o.temperature,
    rng: o.rng.fork('decode'),
    repeat: o.samplesPerState,
    batchSize: o.decodeBatch ?? 16,
  });
  const sampled = decoded.map((d, i) => ({ state: states[Math.floor(i / o.samplesPerState)], text: d.instruction }));
  o.onProgress?.({ stage: 'sample', done: sampled.length, total: sampled.length, kept: 0 });
  return judgeSampled(sampled, { ...o, source: o.source ?? `planner@${o.iteration}`, rng: o.rng.fork('judge') });
}
