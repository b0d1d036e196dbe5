/**
 * Grounder pretraining: teach the grounder to read before the loop starts
 * (issue 8). Each step takes a few screens and several instructions on each
 * (the screen half of the model runs once per screen) and trains three
 * things at once:
 *
 * - reading: per-cell letters, role, icon and colour against the labels the
 *   layout knows for free (world/cellLabels.ts), and the character centred
 *   at each glyph position against the glyphs the painter reports drawing,
 *   each averaged over all positions plus over those that show something,
 *   so rare classes are not drowned by empty background;
 * - parsing: which instruction tokens are the target's text or the anchor's,
 *   and the target's role, icon and colour (labels from the instruction's
 *   parse and the target element);
 * - grounding: the SFT cell and offset losses (learn/grounderSft.ts) on
 *   instructions written by the world's writers in every referring style.
 *
 * Curriculum: `read` (reading and parsing first, grounding at a low weight,
 * on the less busy half of the screens, text/icon/colour styles favoured),
 * `easy` (grounding at full weight on the same screens), `full` (every
 * screen, every style alike), `anneal` (the same at a fifth of the learning
 * rate). Painter-agnostic: every label comes from the layout, the pixels
 * from `paint` (syntheticScreenImage in Node, the Canvas renderer in the
 * browser worker).
 *
 * Real-DOM pages (issue 30, `real`): a share of each step's screens can be
 * training fixture pages the browser drew (realPool.ts), with their pixels
 * ready-made and their own instructions. They train parsing and grounding
 * only: the reading labels come from the world's layout and painter (every
 * text run, every glyph drawn), which a page's DOM does not give.
 */
import * as tf from '../models/tf';
import { eventTurn } from '../learn/eventTurn';
import { GLYPH_POSITIONS, GRID_CELLS, IMAGE_FLOATS, CANVAS_HEIGHT, CANVAS_WIDTH, validCells } from '../models/canvas';
import { maskOf, oneHotFloat } from '../models/dtype';
import { encodeScreens, groundOnScreens, type GrounderConfig } from '../models/grounder';
import type { ExampleSource, GrounderExample } from '../models/grounderData';
import { instructionArrays, instructionTensors, setInstruction, type InstructionArrays } from '../models/instructionBatch';
import type { Params } from '../models/params';
import { safeLog } from '../models/readLayers';
import { boxTarget, offsetTarget } from '../learn/grounderSft';
import { Random } from '../learn/random';
import type { Paint } from '../learn/stepCheck';
import type { Tokenizer } from '../text/tokenizer';
import { cellLabels, COLOR_CLASSES, glyphLabels, ICON_CLASSES, LETTER_CLASSES, ROLE_CLASSES } from '../world/cellLabels';
import type { Glyph } from '../world/render/painter';
import type { Screen } from '../world/types';
import { captureLoop, isCheckpointStep, mustReplay, restoreWeights, type Resumable } from './loopState';
import { restoreOptimizer } from '../models/optimizerState';
import { busyness, instructionLabels, styleOrder, trainingScreens, writeExample, type PoolScreen } from './grounderScreens';
import type { StyleWeights } from './styleWeights';
import { drawRealExamples, realScreensInStep, type RealPoolScreen } from './realPool';

export type GrounderStage = 'read' | 'easy' | 'full' | 'anneal';

export interface GrounderPretrainOptions {
  seed: number;
  steps: number;
  paint: Paint;
  /** Instructions per step (default 16); a multiple of perScreen. */
  batchSize?: number;
  /** Instructions per screen in a step (default 4). */
  perScreen?: number;
  lr?: number;
  /** Training screens drawn up front (default: enough that a screen recurs about every 3 visits, 200 to 2,000). */
  screens?: number;
  /** Real-DOM training pages to mix in: `share` of every step's examples (0 ≤ share ≤ 1) come from `pages`. */
  real?: { share: number; pages: readonly RealPoolScreen[] };
  /** 'tune' refines weights that can already read and ground (TUNE_PLAN); default 'pretrain', from fresh weights (PLAN). */
  plan?: 'pretrain' | 'tune';
  /** With plan 'tune': how often each referring style is drawn, relative (absent styles 1); default all equal. */
  tuneStyles?: StyleWeights;
}

export interface GrounderPretrainProgress {
  step: number;
  steps: number;
  stage: GrounderStage;
  loss: number;
}

/** Per-stage sums of the losses (total, read, parse, ground) so far. */
interface StageTotals {
  stage: GrounderStage;
  steps: number;
  sums: [number, number, number, number];
}

/** What the loop has recorded so far; a checkpoint carries it. */
export interface GrounderLoopRecord {
  totals: StageTotals[];
  losses: number[];
  wallMs: number;
  /** Examples trained on per source so far (absent in checkpoints made before sources were counted). */
  examples?: Record<ExampleSource, number>;
}

export interface GrounderPretrainReport {
  steps: number;
  wallMs: number;
  screens: number;
  /** Mean losses of each stage (total, and its reading, parsing and grounding parts). */
  stages: { stage: GrounderStage; steps: number; loss: number; read: number; parse: number; ground: number }[];
  /** Mean total loss of the last 10% of steps. */
  finalLoss: number;
  /** The data mix: examples trained on per source (a resumed run's include those before its checkpoint), the share asked for, the real pages in the pool. */
  data: { examples: Record<ExampleSource, number>; realShare: number; realPages: number; tuneStyles?: StyleWeights };
}

interface StagePlan {
  stage: GrounderStage;
  until: number; // fraction of the steps
  lrScale: number;
  easy: boolean;
  weights: { read: number; parse: number; ground: number };
  styles: StyleWeights;
}

const PLAN: readonly StagePlan[] = [
  { stage: 'read', until: 0.15, lrScale: 1, easy: true, weights: { read: 1, parse: 1, ground: 0.3 }, styles: { text: 3, icon: 2, color: 2 } },
  { stage: 'easy', until: 0.45, lrScale: 1, easy: true, weights: { read: 0.5, parse: 0.5, ground: 1 }, styles: { text: 2, icon: 1.5, color: 1.5 } },
  { stage: 'full', until: 0.85, lrScale: 1, easy: false, weights: { read: 0.5, parse: 0.5, ground: 1 }, styles: {} },
  { stage: 'anneal', until: 1, lrScale: 0.2, easy: false, weights: { read: 0.5, parse: 0.5, ground: 1 }, styles: {} },
];

/** A grounder that already reads skips the reading and easy stages: whole screens, then the same anneal. */
const TUNE_PLAN: readonly StagePlan[] = [
  { stage: 'full', until: 0.8, lrScale: 1, easy: false, weights: { read: 0.5, parse: 0.5, ground: 1 }, styles: {} },
  { stage: 'anneal', until: 1, lrScale: 0.2, easy: false, weights: { read: 0.5, parse: 0.5, ground: 1 }, styles: {} },
];

/** A screen of a step: its pixels are painted from the layout (the world's) or come ready-made (a real page's). */
interface BatchScreen {
  screen: Screen;
  source: ExampleSource;
  image?: Float32Array;
}

/** One step's material: S screens and perScreen examples on each, in screen order. */
interface PretrainBatch {
  screens: BatchScreen[];
  examples: GrounderExample[];
}

function drawBatch(rng: Random, pool: readonly PoolScreen[], screens: number, perScreen: number, styles: StyleWeights): PretrainBatch {
  const out: PretrainBatch = { screens: [], examples: [] };
  for (let guard = 0; out.screens.length < screens && guard < screens * 20; guard++) {
    const s = rng.pick(pool);
    const examples: GrounderExample[] = [];
    for (let tries = 0; examples.length < perScreen && tries < perScreen * 4; tries++) {
      const e = writeExample(rng, s, rng.pick(s.targets), styleOrder(rng, styles));
      if (e) examples.push({ ...e, source: 'world' });
    }
    if (examples.length < perScreen) continue;
    out.screens.push({ screen: s.screen, source: 'world' });
    out.examples.push(...examples);
  }
  if (out.screens.length < screens) throw new Error('grounder pretraining: too few screens can be described; draw more screens');
  return out;
}

/** A step's real pages, after its world screens (the losses are means over the batch, so the order does not matter). */
function addRealScreens(out: PretrainBatch, rng: Random, pool: readonly RealPoolScreen[], count: number, perScreen: number): PretrainBatch {
  for (let i = 0; i < count; i++) {
    const s = rng.pick(pool);
    out.screens.push({ screen: s.screen, source: 'real-dom', image: s.image });
    out.examples.push(...drawRealExamples(rng, s, perScreen));
  }
  return out;
}

interface HostBatch extends InstructionArrays {
  images: Float32Array;
  screenValid: Float32Array;
  /** screenValid on the screens whose reading labels are known (the world's), 0 on real pages. */
  readValid: Float32Array;
  /** 1 at every glyph position of a world screen, 0 on real pages (no painter reports their glyphs). */
  glyphValid: Float32Array;
  valid: Float32Array;
  letters: Float32Array;
  hasText: Float32Array;
  /** Which character is centred at each glyph position (only when the model has a glyph reader). */
  glyphs: Int32Array;
  role: Int32Array;
  icon: Int32Array;
  color: Int32Array;
  content: Float32Array;
  parseRole: Int32Array;
  parseIcon: Int32Array;
  parseColor: Int32Array;
  cellTarget: Float32Array;
  offsetTarget: Float32Array;
}

function hostBatch(tok: Tokenizer, cfg: GrounderConfig, b: PretrainBatch, paint: Paint): HostBatch {
  const s = b.screens.length;
  const n = b.examples.length;
  const t = cfg.maxTokens;
  const h: HostBatch = {
    ...instructionArrays(n, cfg),
    images: new Float32Array(s * IMAGE_FLOATS),
    screenValid: new Float32Array(s * GRID_CELLS),
    readValid: new Float32Array(s * GRID_CELLS),
    glyphValid: new Float32Array(cfg.glyphs ? s * GLYPH_POSITIONS : 0),
    valid: new Float32Array(n * GRID_CELLS),
    letters: new Float32Array(s * GRID_CELLS * LETTER_CLASSES),
    glyphs: new Int32Array(cfg.glyphs ? s * GLYPH_POSITIONS : 0),
    hasText: new Float32Array(s * GRID_CELLS),
    role: new Int32Array(s * GRID_CELLS),
    icon: new Int32Array(s * GRID_CELLS),
    color: new Int32Array(s * GRID_CELLS),
    content: new Float32Array(n * t * 2),
    parseRole: new Int32Array(n),
    parseIcon: new Int32Array(n),
    parseColor: new Int32Array(n),
    cellTarget: new Float32Array(n * GRID_CELLS),
    offsetTarget: new Float32Array(n * GRID_CELLS * 2),
  };
  b.screens.forEach((ps, i) => {
    const valid = validCells(ps.screen.platform);
    h.screenValid.set(valid, i * GRID_CELLS);
    if (ps.image) {
      // A real page: its pixels as the browser drew them; no reading labels (left 0, and masked out by readValid and glyphValid).
      h.images.set(ps.image, i * IMAGE_FLOATS);
      return;
    }
    const drawn: Glyph[] = [];
    h.images.set(cfg.glyphs ? paint(ps.screen, drawn) : paint(ps.screen), i * IMAGE_FLOATS);
    if (cfg.glyphs) {
      h.glyphs.set(glyphLabels(drawn), i * GLYPH_POSITIONS);
      h.glyphValid.fill(1, i * GLYPH_POSITIONS, (i + 1) * GLYPH_POSITIONS);
    }
    h.readValid.set(valid, i * GRID_CELLS);
    const lab = cellLabels(ps.screen);
    h.letters.set(lab.letters, i * GRID_CELLS * LETTER_CLASSES);
    h.hasText.set(lab.hasText, i * GRID_CELLS);
    h.role.set(lab.role, i * GRID_CELLS);
    h.icon.set(lab.icon, i * GRID_CELLS);
    h.color.set(lab.color, i * GRID_CELLS);
  });
  b.examples.forEach((e, i) => {
    h.valid.set(validCells(e.platform), i * GRID_CELLS);
    setInstruction(h, i, tok, cfg, e.instruction);
    const lab = instructionLabels(tok, e, t);
    h.content.set(lab.content, i * t * 2);
    h.parseRole[i] = lab.role;
    h.parseIcon[i] = lab.icon;
    h.parseColor[i] = lab.color;
    for (const [c, w] of boxTarget(e.box)) {
      h.cellTarget[i * GRID_CELLS + c] = w;
      const [ox, oy] = offsetTarget(c, e.box);
      h.offsetTarget[(i * GRID_CELLS + c) * 2] = ox;
      h.offsetTarget[(i * GRID_CELLS + c) * 2 + 1] = oy;
    }
  });
  return h;
}

/** a + b + …, by adds (tf.addN's gradient fails inside variableGrads here). */
function sumOf(xs: tf.Tensor[]): tf.Tensor {
  return xs.reduce((acc, x) => tf.add(acc, x));
}

/** Mean of x over the positions where mask is 1 (x and mask of one shape), 0 when there are none. */
function maskedMean(x: tf.Tensor, mask: tf.Tensor): tf.Scalar {
  return tf.div(tf.sum(tf.mul(x, mask)), tf.maximum(tf.sum(mask), 1)) as tf.Scalar;
}

/** Cross-entropy per position of class logits [..., K] against int labels [...]. */
function crossEntropy(logits: tf.Tensor, labels: tf.Tensor, classes: number): tf.Tensor {
  return tf.neg(tf.sum(tf.mul(tf.logSoftmax(logits), oneHotFloat(labels, classes)), -1));
}

/** A class loss over all valid cells plus one over the cells whose label is not "nothing". */
function balancedCellLoss(logits: tf.Tensor, labels: tf.Tensor, classes: number, valid: tf.Tensor): tf.Scalar {
  const ce = crossEntropy(logits, labels, classes);
  const something = tf.mul(valid, maskOf(tf.greater(labels, tf.scalar(0, 'int32'))));
  return tf.add(maskedMean(ce, valid), maskedMean(ce, something)) as tf.Scalar;
}

/** Bernoulli cross-entropy per element of logits z against 0/1 targets y. */
function binaryCrossEntropy(z: tf.Tensor, y: tf.Tensor): tf.Tensor {
  const p = tf.sigmoid(z);
  return tf.neg(tf.add(tf.mul(y, safeLog(p)), tf.mul(tf.sub(1, y), safeLog(tf.sub(1, p)))));
}

export function pretrainPoolSize(steps: number, screensPerStep: number): number {
  return Math.max(200, Math.min(2000, Math.round((steps * screensPerStep) / 3)));
}

export async function pretrainGrounder(
  params: Params,
  cfg: GrounderConfig,
  tok: Tokenizer,
  opts: GrounderPretrainOptions,
  onProgress?: (p: GrounderPretrainProgress) => void,
  resumable: Resumable<GrounderLoopRecord> = {},
): Promise<GrounderPretrainReport> {
  const resume = resumable.resume;
  const first = resume?.step ?? 0;
  if (!Number.isInteger(first) || first < 0 || first > opts.steps) throw new Error(`pretrainGrounder: cannot resume after step ${first} of ${opts.steps}`);
  const start = performance.now() - (resume?.record.wallMs ?? 0);
  const perScreen = opts.perScreen ?? 4;
  const batchSize = opts.batchSize ?? 16;
  if (batchSize % perScreen !== 0) throw new Error(`pretrainGrounder: batchSize ${batchSize} must be a multiple of perScreen ${perScreen}`);
  if (!(opts.steps >= 1)) throw new Error(`pretrainGrounder: steps must be ≥ 1; got ${opts.steps}`);
  const screensPerStep = batchSize / perScreen;
  const lr = opts.lr ?? 3e-3;
  const rng = new Random(opts.seed).fork('pretrain grounder');
  const pool = trainingScreens(rng.fork('screens'), opts.screens ?? pretrainPoolSize(opts.steps, screensPerStep));
  const sorted = [...pool].sort((a, b) => busyness(a) - busyness(b));
  const easyPool = sorted.slice(0, Math.max(screensPerStep, Math.ceil(sorted.length / 2)));
  const draws = rng.fork('batches');
  const vars = Object.values(params).filter((v) => v.trainable);
  // Style weights apply to a tune only; a pretraining's stages keep their own.
  const tuneStyles = opts.plan === 'tune' ? opts.tuneStyles : undefined;
  const stages = opts.plan !== 'tune' ? PLAN : tuneStyles ? TUNE_PLAN.map((p) => ({ ...p, styles: tuneStyles })) : TUNE_PLAN;
  const planOf = (step: number) => stages.find((p) => step < p.until * opts.steps) ?? stages[stages.length - 1];
  const real = opts.real ?? { share: 0, pages: [] };
  if (!(real.share >= 0 && real.share <= 1)) throw new Error(`pretrainGrounder: real.share must be a number with 0 ≤ share ≤ 1; got ${real.share}`);
  if (real.share > 0 && real.pages.length === 0) throw new Error('pretrainGrounder: real.share > 0 needs real pages to draw from');
  // Forked after the world's streams, so a run without real pages draws exactly what it drew before they existed.
  const realDraws = real.share > 0 ? rng.fork('real batches') : null;
  const examples: Record<ExampleSource, number> = resume?.record.examples ? { ...resume.record.examples } : { world: 0, 'real-dom': 0 };
  const draw = (plan: StagePlan, step: number): PretrainBatch => {
    const nReal = realDraws ? realScreensInStep(step, screensPerStep, real.share) : 0;
    const b = nReal < screensPerStep ? drawBatch(draws, plan.easy ? easyPool : pool, screensPerStep - nReal, perScreen, plan.styles) : { screens: [], examples: [] };
    return realDraws ? addRealScreens(b, realDraws, real.pages, nReal, perScreen) : b;
  };
  const totals: StageTotals[] = resume ? resume.record.totals.map((t) => ({ ...t, sums: [...t.sums] })) : [];
  const all: number[] = resume ? [...resume.record.losses] : [];
  let optimizer: tf.Optimizer | null = null;
  let current: StagePlan | null = null;
  if (resume) restoreWeights(params, resume.weights);
  // The batch stream continues where the interrupted run left it: its batches are drawn again, neither painted nor trained (loopState.ts).
  if (mustReplay(first, opts.steps)) for (let step = 0; step < first; step++) draw(planOf(step), step);

  try {
    for (let step = first; step < opts.steps; step++) {
      const plan = planOf(step);
      if (plan !== current) {
        // A fresh optimizer per stage: each stage has its own learning rate, and Adam's bias correction warms it up.
        optimizer?.dispose();
        optimizer = tf.train.adam(lr * plan.lrScale);
        current = plan;
        // A resume inside a stage continues its optimizer and its totals; one at a stage's first step starts both afresh.
        if (resume && step === first && step > 0 && planOf(step - 1) === plan) {
          if (resume.optimizer) restoreOptimizer(optimizer, params, resume.optimizer);
        } else totals.push({ stage: plan.stage, steps: 0, sums: [0, 0, 0, 0] });
      }
      const batch = draw(plan, step);
      for (const e of batch.examples) examples[e.source ?? 'world']++;
      const h = hostBatch(tok, cfg, batch, opts.paint);
      const w = plan.weights;
      const opt = optimizer as tf.Optimizer;
      const stats = tf.tidy(() => {
        const s = screensPerStep;
        const n = batchSize;
        const t = cfg.maxTokens;
        const images = tf.tensor4d(h.images, [s, CANVAS_HEIGHT, CANVAS_WIDTH, 3]);
        const screenValid = tf.tensor2d(h.screenValid, [s, GRID_CELLS]);
        const readValid = tf.tensor2d(h.readValid, [s, GRID_CELLS]);
        const valid = tf.tensor2d(h.valid, [n, GRID_CELLS]);
        const { tokens, chars, spell } = instructionTensors(h, cfg);
        const letters = tf.tensor3d(h.letters, [s, GRID_CELLS, LETTER_CLASSES]);
        const hasText = tf.tensor2d(h.hasText, [s, GRID_CELLS]);
        const role = tf.tensor2d(h.role, [s, GRID_CELLS], 'int32');
        const icon = tf.tensor2d(h.icon, [s, GRID_CELLS], 'int32');
        const color = tf.tensor2d(h.color, [s, GRID_CELLS], 'int32');
        const content = tf.tensor3d(h.content, [n, t, 2]);
        const tokenValid = maskOf(tf.notEqual(tokens, tf.scalar(0, 'int32')));
        const cellT = tf.tensor2d(h.cellTarget, [n, GRID_CELLS]);
        const offT = tf.tensor3d(h.offsetTarget, [n, GRID_CELLS, 2]);
        let parts: tf.Tensor[] = [];
        const { grads } = tf.variableGrads(() => {
          const screens = encodeScreens(params, cfg, images, screenValid);
          const out = groundOnScreens(params, cfg, screens, perScreen, { tokens, chars, valid, spell }, { spellFloor: false });
          const r = screens.reading;
          const letterLoss = tf.add(
            maskedMean(tf.mean(binaryCrossEntropy(r.letters, letters), 2), readValid),
            maskedMean(tf.mean(binaryCrossEntropy(r.letters, letters), 2), hasText),
          );
          const read = sumOf([
            tf.mul(letterLoss, 4),
            ...(r.glyphs ? [balancedCellLoss(r.glyphs, tf.tensor2d(h.glyphs, [s, GLYPH_POSITIONS], 'int32'), LETTER_CLASSES, tf.tensor2d(h.glyphValid, [s, GLYPH_POSITIONS]))] : []),
            balancedCellLoss(r.role, role, ROLE_CLASSES, readValid),
            balancedCellLoss(r.icon, icon, ICON_CLASSES, readValid),
            balancedCellLoss(r.color, color, COLOR_CLASSES, readValid),
          ]);
          const contentBce = binaryCrossEntropy(out.parse.content, content); // [n, t, 2]
          const contentWeight = tf.mul(tf.expandDims(tokenValid, 2), tf.add(1, tf.mul(content, 3)));
          const parse = sumOf([
            maskedMean(contentBce, contentWeight),
            tf.mean(crossEntropy(out.parse.role, tf.tensor1d(h.parseRole, 'int32'), ROLE_CLASSES)),
            tf.mean(crossEntropy(out.parse.icon, tf.tensor1d(h.parseIcon, 'int32'), ICON_CLASSES)),
            tf.mean(crossEntropy(out.parse.color, tf.tensor1d(h.parseColor, 'int32'), COLOR_CLASSES)),
          ]);
          const cellLoss = tf.mean(tf.neg(tf.sum(tf.mul(cellT, tf.logSoftmax(out.logits)), 1)));
          const offsetLoss = tf.mean(tf.sum(tf.mul(tf.sum(tf.square(tf.sub(out.offsets, offT)), 2), cellT), 1));
          const ground = tf.add(cellLoss, offsetLoss);
          const loss = sumOf([tf.mul(read, w.read), tf.mul(parse, w.parse), tf.mul(ground, w.ground)]) as tf.Scalar;
          parts = [tf.keep(loss), tf.keep(read), tf.keep(parse), tf.keep(ground)];
          return loss;
        }, vars);
        opt.applyGradients(grads);
        const st = tf.stack(parts);
        tf.dispose(parts);
        return st;
      });
      const [loss, read, parse, ground] = await stats.data();
      stats.dispose();
      if (!Number.isFinite(loss)) throw new Error(`pretrainGrounder: the loss became ${loss} at step ${step}; lower the learning rate`);
      const tot = totals[totals.length - 1];
      tot.steps++;
      tot.sums[0] += loss;
      tot.sums[1] += read;
      tot.sums[2] += parse;
      tot.sums[3] += ground;
      all.push(loss);
      const cp = resumable.checkpoints;
      if (cp && isCheckpointStep(step + 1, opts.steps, cp.every)) {
        await cp.save(await captureLoop(params, optimizer, step + 1, { totals: totals.map((t) => ({ ...t, sums: [...t.sums] })), losses: [...all], wallMs: performance.now() - start, examples: { ...examples } }));
      }
      onProgress?.({ step: step + 1, steps: opts.steps, stage: plan.stage, loss });
      await eventTurn();
    }
  } finally {
    optimizer?.dispose();
  }
  const tail = all.slice(-Math.max(1, Math.round(all.length / 10)));
  return {
    steps: opts.steps,
    wallMs: performance.now() - start,
    screens: pool.length,
    stages: totals.map((x) => ({
      stage: x.stage,
      steps: x.steps,
      loss: x.sums[0] / x.steps,
      read: x.sums[1] / x.steps,
      parse: x.sums[2] / x.steps,
      ground: x.sums[3] / x.steps,
    })),
    finalLoss: tail.reduce((a, b) => a + b, 0) / tail.length,
    data: { examples, realShare: real.share, realPages: real.pages.length, ...(tuneStyles ? { tuneStyles } : {}) },
  };
}
