/**
 * The base planner: next-token pretraining on the world's language
 * (plannerCorpus.ts), then SFT on the oracle's canonical instructions of
 * training states, measured on held-out states by how often what it writes
 * parses (and how often it names the right action and target).
 *
 * Pretraining loss: mean −log π over the completion's tokens plus one window
 * of PROMPT_WINDOW prompt positions per batch, drawn at random, so the whole
 * prompt (goal, screen description, history) is learned over the run while
 * each step pays the output product for about 56 positions, not all 216.
 *
 * Works on any tfjs backend; needs no rendering.
 */
import * as tf from '../models/tf';
import { eventTurn } from '../learn/eventTurn';
import { initPlanner, plannerSpanLogProbs, type PlannerConfig } from '../models/planner';
import type { PlannerBatch } from '../models/plannerData';
import { countParams, disposeParams, type ParamMap, type Params } from '../models/params';
import { exportCheckpoint } from '../models/checkpoint';
import { plannerPreset } from '../models/presets';
import { applyStep, makePlannerSft } from '../learn/plannerSft';
import { decodeStates, evalPlanner, type PlannerEval } from '../learn/evalPlanner';
import { plannerSftBatch, plannerStatesOf, type PlannerState } from '../learn/plannerStates';
import { Random } from '../learn/random';
import { parseInstruction } from '../text/grammar';
import type { Tokenizer } from '../text/tokenizer';
import { buildSuites } from '../world/suites';
import type { Platform } from '../world/types';
import { plannerPretrainBatch, plannerStateStream, relabelledExamples } from './plannerCorpus';
import { plannerBatch, plannerTensors } from '../models/plannerData';
import type { BaseFigure, BasePreset } from './baseTypes';
import { measuredPlanner } from './measuredWeights';
import { measurePlannerSplit, PLANNER_SPLITS, plannerSplitStates, splitFigures } from './plannerSplits';
import { captureLoop, isCheckpointStep, mustReplay, restoreWeights, type Resumable } from './loopState';
import { restoreOptimizer } from '../models/optimizerState';

/** Prompt positions predicted per pretraining batch (besides the completion). */
export const PROMPT_WINDOW = 32;

export interface PlannerPretrainOptions {
  seed: number;
  steps: number;
  batchSize?: number; // 16
  lr?: number; // 3e-3
  clipNorm?: number; // 1
  /** Share of completions in the canonical form SFT trains on (the rest: any writer style). */
  canonicalShare?: number; // 0.25
  /** Share of examples relabelled (relabel.ts): screen words replaced by made-up ones across goal, screen and instructions. */
  relabelShare?: number; // 0
  platform?: Platform;
}

/** What a planner loop (pretraining or SFT) has recorded so far; a checkpoint carries it. */
export interface PlannerLoopRecord {
  losses: number[];
  wallSeconds: number;
}

export interface PlannerProgress {
  step: number;
  steps: number;
  loss: number;
}

export interface PlannerPretrainReport {
  steps: number;
  batchSize: number;
  /** Mean loss (nats per predicted token) of the first and of the last 10 steps. */
  firstLoss: number;
  lastLoss: number;
  losses: number[];
  wallSeconds: number;
}

/** Mean −log π over the completion and one prompt window of every row (the tokens that are real). */
export function plannerPretrainLoss(p: ParamMap, cfg: PlannerConfig, prompt: tf.Tensor2D, completion: tf.Tensor2D, windowStart: number, copy?: tf.Tensor3D): tf.Scalar {
  return tf.tidy(() => {
    const pl = prompt.shape[1];
    const seq = tf.concat([prompt, completion], 1) as tf.Tensor2D;
    const spans = [
      { start: pl - 1, length: cfg.completionLength, copy },
      { start: windowStart, length: PROMPT_WINDOW },
    ];
    const parts = plannerSpanLogProbs(p, cfg, seq, spans);
    // Plain adds: tfjs's addN gradient failed here (a null upstream gradient).
    const total = parts.map((s) => tf.sum(tf.mul(s.logProbs, s.mask))).reduce((a, b) => tf.add(a, b));
    const count = parts.map((s) => tf.sum(s.mask)).reduce((a, b) => tf.add(a, b));
    return tf.neg(tf.div(total, tf.maximum(count, 1))) as tf.Scalar;
  });
}

function checkBatch(b: PlannerBatch, cfg: PlannerConfig): number {
  const n = b.examples.length;
  if (b.promptLength > cfg.promptLength || b.promptLength <= PROMPT_WINDOW + 1 || b.prompt.length !== n * b.promptLength || b.completion.length !== n * cfg.completionLength) {
    throw new Error(`planner pretraining: a batch of ${n} must have [${n}, ${PROMPT_WINDOW + 2}…${cfg.promptLength}] prompts and [${n}, ${cfg.completionLength}] completions`);
  }
  return n;
}

const mean = (xs: readonly number[]) => (xs.length === 0 ? NaN : xs.reduce((a, b) => a + b, 0) / xs.length);

/**
 * Next-token pretraining of `params` (in place) on fresh training states,
 * deterministic from `opts.seed` on any backend.
 */
export async function pretrainPlanner(
  params: Params,
  cfg: PlannerConfig,
  tok: Tokenizer,
  opts: PlannerPretrainOptions,
  onProgress?: (p: PlannerProgress) => void,
  resumable: Resumable<PlannerLoopRecord> = {},
): Promise<PlannerPretrainReport> {
  const batchSize = opts.batchSize ?? 16;
  if (!Number.isInteger(opts.steps) || opts.steps < 0) throw new Error(`pretrainPlanner: steps must be an integer ≥ 0; got ${opts.steps}`);
  if (!Number.isInteger(batchSize) || batchSize < 1) throw new Error(`pretrainPlanner: batchSize must be an integer ≥ 1; got ${batchSize}`);
  if (cfg.promptLength <= PROMPT_WINDOW + 1) throw new Error(`pretrainPlanner: the prompt (${cfg.promptLength}) must be longer than ${PROMPT_WINDOW + 1} tokens`);
  const vars = Object.values(params).filter((v) => v.trainable);
  if (vars.length === 0) throw new Error('pretrainPlanner: nothing to train (all parameters frozen)');
  const resume = resumable.resume;
  const first = resume?.step ?? 0;
  if (!Number.isInteger(first) || first < 0 || first > opts.steps) throw new Error(`pretrainPlanner: cannot resume after step ${first} of ${opts.steps}`);
  const rng = new Random(opts.seed);
  const next = plannerStateStream(rng.fork('states'), opts.platform);
  const writing = rng.fork('writing');
  const windows = rng.fork('windows');
  const draw = () => {
    const states = Array.from({ length: batchSize }, next);
    const batch = plannerPretrainBatch(tok, cfg, states, writing, opts.canonicalShare, opts.relabelShare);
    const n = checkBatch(batch, cfg);
    // The window's last target is the prompt's last token (its sep), never the completion.
    const start = windows.int(0, batch.promptLength - 2 - PROMPT_WINDOW);
    return { batch, n, start };
  };
  if (resume) restoreWeights(params, resume.weights);
  const opt = tf.train.adam(opts.lr ?? 3e-3);
  const losses: number[] = resume ? [...resume.record.losses] : [];
  const t0 = performance.now() - (resume?.record.wallSeconds ?? 0) * 1000;
  try {
    if (resume?.optimizer) restoreOptimizer(opt, params, resume.optimizer);
    // The streams continue where the interrupted run left them: its batches are drawn again, untrained (loopState.ts).
    if (mustReplay(first, opts.steps)) for (let step = 0; step < first; step++) draw();
    for (let step = first; step < opts.steps; step++) {
      const { batch, n, start } = draw();
      const loss = tf.tidy(() => {
        const { prompt, completion, copy } = plannerTensors(batch, cfg);
        return applyStep(opt, vars, () => plannerPretrainLoss(params, cfg, prompt, completion, start, copy), opts.clipNorm ?? 1);
      });
      const value = (await loss.data())[0];
      loss.dispose();
      losses.push(value);
      const cp = resumable.checkpoints;
      if (cp && isCheckpointStep(step + 1, opts.steps, cp.every)) await cp.save(await captureLoop(params, opt, step + 1, { losses: [...losses], wallSeconds: (performance.now() - t0) / 1000 }));
      onProgress?.({ step: step + 1, steps: opts.steps, loss: value });
      await eventTurn();
    }
  } finally {
    opt.dispose();
  }
  return {
    steps: opts.steps,
    batchSize,
    firstLoss: mean(losses.slice(0, 10)),
    lastLoss: mean(losses.slice(-10)),
    losses,
    wallSeconds: (performance.now() - t0) / 1000,
  };
}

/**
 * Held-out planner states: every step of buildSuites(seed)'s web tasks (all
 * three splits) and mobile tasks, at most `count`, spread over the tasks
 * (plannerStatesOf takes each task's first step before any second one).
 */
export function heldOutPlannerStates(seed: number, count: number): PlannerState[] {
  const per = Math.max(2, Math.ceil(count / 8));
  const suites = buildSuites(seed, { webPerSplit: per, mobile: per * 2, groundingPerSplit: 0 });
  const web = suites.web;
  const tasks = [web['cross-task'], web['cross-site'], web['cross-domain'], suites.mobile].flatMap((ts) => ts);
  return new Random(seed).shuffle(plannerStatesOf(tasks, count));
}

/** Share of `states` on which the planner's greedy output (after any `<think>` trace) parses as an instruction. */
export async function plannerParseRate(
  params: ParamMap,
  cfg: PlannerConfig,
  tok: Tokenizer,
  states: readonly PlannerState[],
  opts: { batchSize?: number } = {},
): Promise<number> {
  if (states.length === 0) throw new Error('plannerParseRate: no states');
  const decoded = await decodeStates(params, cfg, tok, states, { temperature: 0, batchSize: opts.batchSize ?? 32 });
  return decoded.filter((d) => parseInstruction(d.instruction) !== null).length / states.length;
}

export interface BasePlannerOptions {
  seed: number;
  pretrainSteps: number;
  sftSteps: number;
  batchSize?: number; // 16
  /** Pretraining learning rate. */
  lr?: number; // 3e-3
  sftLr?: number; // 3e-3
  /** Share of pretraining and SFT examples relabelled (relabel.ts). */
  relabelShare?: number; // 0
  /** Times each SELECT state enters the SFT stream (plannerStateStream): selections are 7% of training steps. */
  selectCopies?: number; // 1
  platform?: Platform;
}

/** Which stage a base planner checkpoint is in; in SFT, with the finished pretraining's report. */
export type BasePlannerRecord = { stage: 'pretrain'; loop: PlannerLoopRecord } | { stage: 'sft'; pretrain: PlannerPretrainReport; loop: PlannerLoopRecord };

export interface BasePlannerProgress extends PlannerProgress {
  stage: 'pretrain' | 'sft';
}

export interface BasePlannerReport {
  pretrain: PlannerPretrainReport;
  sft: { steps: number; firstLoss: number; lastLoss: number; losses: number[]; wallSeconds: number };
  wallSeconds: number;
}

/**
 * The base planner recipe: pretraining, then SFT on the canonical
 * instructions of fresh training states (the SFT of
 * test/slow/learn-planner-learning: Adam, clipped at norm 1), in place.
 */
export async function trainBasePlanner(
  params: Params,
  cfg: PlannerConfig,
  tok: Tokenizer,
  opts: BasePlannerOptions,
  onProgress?: (p: BasePlannerProgress) => void,
  resumable: Resumable<BasePlannerRecord> = {},
): Promise<BasePlannerReport> {
  const resume = resumable.resume;
  const record = resume?.record;
  const t0 = performance.now() - (record?.stage === 'sft' ? record.pretrain.wallSeconds + record.loop.wallSeconds : (record?.loop.wallSeconds ?? 0)) * 1000;
  const batchSize = opts.batchSize ?? 16;
  const rng = new Random(opts.seed);
  const pretrainSeed = rng.fork('pretrain').int(0, 0x7fffffff);
  const cp = resumable.checkpoints;
  const pretrain =
    record?.stage === 'sft'
      ? record.pretrain
      : await pretrainPlanner(
          params,
          cfg,
          tok,
          {
            seed: pretrainSeed,
            steps: opts.pretrainSteps,
            batchSize,
            lr: opts.lr,
            relabelShare: opts.relabelShare,
            platform: opts.platform,
          },
          (p) => onProgress?.({ stage: 'pretrain', ...p }),
          {
            checkpoints: cp && { every: cp.every, save: (s) => cp.save({ ...s, record: { stage: 'pretrain', loop: s.record } }) },
            resume: resume && record?.stage === 'pretrain' ? { ...resume, record: record.loop } : undefined,
          },
        );
  const sftResume = resume && record?.stage === 'sft' ? { ...resume, record: record.loop } : undefined;
  const first = sftResume?.step ?? 0;
  if (!Number.isInteger(first) || first < 0 || first > opts.sftSteps) throw new Error(`trainBasePlanner: cannot resume after SFT step ${first} of ${opts.sftSteps}`);
  const t1 = performance.now() - (sftResume?.record.wallSeconds ?? 0) * 1000;
  const next = plannerStateStream(rng.fork('sft'), opts.platform, opts.selectCopies);
  const relabelling = rng.fork('sft relabel');
  const draw = () => {
    const states = Array.from({ length: batchSize }, next);
    return plannerBatch(tok, cfg, relabelledExamples(states, (s) => s.instruction, relabelling, opts.relabelShare));
  };
  if (sftResume) restoreWeights(params, sftResume.weights);
  const sft = makePlannerSft(params, cfg, { lr: opts.sftLr ?? 3e-3, clipNorm: 1 });
  const losses: number[] = sftResume ? [...sftResume.record.losses] : [];
  try {
    if (sftResume?.optimizer) restoreOptimizer(sft.optimizer, params, sftResume.optimizer);
    // The streams continue where the interrupted run left them: its batches are drawn again, untrained (loopState.ts).
    if (mustReplay(first, opts.sftSteps)) for (let step = 0; step < first; step++) draw();
    for (let step = first; step < opts.sftSteps; step++) {
      const { loss } = await sft.step(draw());
      losses.push(loss);
      if (cp && isCheckpointStep(step + 1, opts.sftSteps, cp.every)) {
        const s = await captureLoop(params, sft.optimizer, step + 1, { losses: [...losses], wallSeconds: (performance.now() - t1) / 1000 });
        await cp.save({ ...s, record: { stage: 'sft', pretrain, loop: s.record } });
      }
      onProgress?.({ stage: 'sft', step: step + 1, steps: opts.sftSteps, loss });
      await eventTurn();
    }
  } finally {
    sft.dispose();
  }
  const t2 = performance.now();
  return {
    pretrain,
    sft: { steps: opts.sftSteps, firstLoss: mean(losses.slice(0, 10)), lastLoss: mean(losses.slice(-10)), losses, wallSeconds: (t2 - t1) / 1000 },
    wallSeconds: (t2 - t0) / 1000,
  };
}

/** Greedy evaluation on `count` held-out states of buildSuites(seed) (parse rate, type, exact match). */
export function evalBasePlanner(params: ParamMap, cfg: PlannerConfig, tok: Tokenizer, seed: number, count: number): Promise<PlannerEval> {
  return evalPlanner(params, cfg, tok, heldOutPlannerStates(seed, count), { batchSize: 32 });
}

/** Steps and rates of the shipped base planners (scaled by the pretrain command's --scale). */
export const BASE_PLANNER_RECIPES: Readonly<Record<BasePreset, Required<Omit<BasePlannerOptions, 'seed' | 'platform'>>>> = {
  tiny: { pretrainSteps: 300, sftSteps: 1800, batchSize: 16, lr: 3e-3, sftLr: 3e-3, relabelShare: 0.5, selectCopies: 1 },
  demo: { pretrainSteps: 300, sftSteps: 1800, batchSize: 16, lr: 2e-3, sftLr: 2e-3, relabelShare: 0.5, selectCopies: 1 },
};

/**
 * Tuning a base planner (`npm run pretrain -- --tune DIR`): no pretraining,
 * SFT from its weights with the preset's copy gate, at a third of the
 * recipe's learning rate so the planner it starts from is refined, not
 * retrained; each SELECT state drawn three times (on 6 Dec the tune with it
 * read 2.8 points more of the held-out mixed set than one without, paired
 * interval −0.1 to 5.6, though its selections there stayed 3 of 31).
 */
export const PLANNER_TUNE_RECIPES: Readonly<Record<BasePreset, Required<Omit<BasePlannerOptions, 'seed' | 'platform'>>>> = {
  tiny: { pretrainSteps: 0, sftSteps: 600, batchSize: 16, lr: 1e-3, sftLr: 1e-3, relabelShare: 0.5, selectCopies: 3 },
  demo: { pretrainSteps: 0, sftSteps: 600, batchSize: 16, lr: 7e-4, sftLr: 7e-4, relabelShare: 0.5, selectCopies: 3 },
};

/** Held-out states the first three shipped figures are measured on (buildSuites(seed) tasks; the set earlier manifests used). */
export const BASE_PLANNER_EVAL_STATES = 120;
/** States per split of the per-split figures (plannerSplits.ts). */
export const BASE_PLANNER_SPLIT_STATES = 400;

export interface BuiltBasePlanner {
  /** The checkpoint (safetensors with its config), as the app loads it from base/. */
  bytes: Uint8Array;
  parameters: number;
  steps: number;
  figures: BaseFigure[];
  /** null when the weights were measured, not trained (`from`). */
  report: BasePlannerReport | null;
  evaluation: PlannerEval;
}

/**
 * The whole base planner job for a preset: fresh weights from `seed`, the
 * preset's recipe with every step count times `scale`, then the held-out
 * figures (parse rate, action type, exact match of type and target).
 */
export async function buildBasePlanner(o: {
  preset: BasePreset;
  seed: number;
  scale: number;
  tok: Tokenizer;
  /** Weights (safetensors) to measure as they are, untrained further (`npm run pretrain --measure`). */
  from?: Uint8Array;
  onProgress?: (p: BasePlannerProgress) => void;
  /** Progress of the held-out measurement, split by split. */
  onMeasure?: (done: number, total: number) => void;
}): Promise<BuiltBasePlanner> {
  const preset = plannerPreset(o.preset, o.tok.size);
  const recipe = BASE_PLANNER_RECIPES[o.preset];
  // Weights to measure keep their own config: a base planner from before the copy gate is measured without it.
  const { params, cfg } = o.from ? measuredPlanner(o.from, preset, o.preset) : { params: initPlanner(new Random(o.seed).fork('planner init'), preset), cfg: preset };
  try {
    const report = o.from
      ? null
      : await trainBasePlanner(
          params,
          cfg,
          o.tok,
          { ...recipe, seed: o.seed, pretrainSteps: Math.round(recipe.pretrainSteps * o.scale), sftSteps: Math.round(recipe.sftSteps * o.scale) },
          o.onProgress,
        );
    const evaluation = await evalBasePlanner(params, cfg, o.tok, o.seed, BASE_PLANNER_EVAL_STATES);
    const n = evaluation.states;
    const splits = plannerSplitStates(o.seed, BASE_PLANNER_SPLIT_STATES);
    const perSplit: BaseFigure[] = [];
    for (const [i, split] of PLANNER_SPLITS.entries()) {
      o.onMeasure?.(i, PLANNER_SPLITS.length);
      perSplit.push(...splitFigures(await measurePlannerSplit(params, cfg, o.tok, split, splits[split], o.seed)));
    }
    o.onMeasure?.(PLANNER_SPLITS.length, PLANNER_SPLITS.length);
    return {
      bytes: o.from ?? (await exportCheckpoint(params, cfg)),
      parameters: countParams(params),
      steps: report ? report.pretrain.steps + report.sft.steps : 0,
      figures: [
        { model: 'planner', name: 'instructions that parse', value: evaluation.parseRate, n },
        { model: 'planner', name: 'action type', value: evaluation.typeAccuracy, n },
        { model: 'planner', name: 'action type and target (exact match)', value: evaluation.exactMatch, n },
        ...perSplit,
      ],
      report,
      evaluation,
    };
  } finally {
    disposeParams(params);
  }
}
