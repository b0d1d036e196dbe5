/**
 * The grounder: screenshot pixels + one instruction → a heat map over the
 * canvas's 8-px cells and an offset inside each cell → a point.
 *
 * It reads first, then matches (DESIGN.md "Models": reading single cells
 * failed in the prototype, reading pooled regions worked):
 *
 *   screen (once per screenshot, whatever the instruction)
 *     image ─4×4 patches→ dense → conv3×3 ─2×2→ dense      stem: glyph-sized detail, 1 cell = 8 px
 *     + row/column position embeddings
 *     + a 1×5 convolution along each row of cells          a cell sees the word it is part of
 *     + self-attention over 2×2-cell regions               the widget it is part of
 *     → reading heads per cell: the letters of the text under it (a bag of
 *       letter classes), the role, icon and colour of the widget under it,
 *       trained on labels the layout gives for free (world/cellLabels.ts)
 *   instruction
 *     tokens + the letters of each token's word → `textLayers` blocks; then
 *     per token "is this the target's text" / "is this the anchor's text",
 *     and attention-pooled slots: which role, icon, colour, where, relation
 *   matching: one score map per kind of reference, each a log-likelihood
 *     that the cell shows what the instruction asks for —
 *       text:     the letters of the target words under the cell's read letters
 *       spelled:  (with a glyph reader) the best run of glyph readings that
 *                 spells the target's text in order, ending in the cell
 *                 (orderedMatch.ts; the letters come from the host)
 *       role, icon, colour: log Σ_k q_k(instruction)·p_k(cell)
 *       position: a quadratic in the cell's screen coordinates
 *       relation: a quadratic in the offset from the anchor text's centre
 *     weighted by per-instruction gates, plus a learned residual: FiLM by the
 *     pooled instruction, `layers` blocks over regions with cross-attention
 *     to the tokens, one more cross-attention per cell and an MLP,
 *     ⟨query(instruction), key(cell)⟩/√d + bias(cell).
 *
 * Every score is built from what the reading heads output, so what the
 * pretraining teaches them (src/pretrain/grounder.ts) is what grounding
 * uses; a word never seen as a token is still matched letter by letter.
 *
 * The policy for GRPO is over cells (a categorical on the masked logits);
 * the in-cell offset is regressed, not sampled.
 */
import * as tf from './tf';
import { maskOf, oneHotFloat } from './dtype';
import { pickedLogProbs } from './pickedLogProbs';
import type { Random } from '../learn/random';
import { SPECIAL, WORD_CHAR_CLASSES } from '../text/tokenizer';
import { COLOR_CLASSES, ICON_CLASSES, LETTER_CLASSES, ROLE_CLASSES } from '../world/cellLabels';
import { CANVAS_HEIGHT, CANVAS_WIDTH, CELL, GRID_CELLS, GRID_COLS, GRID_ROWS, pointOfCell } from './canvas';
import {
  attention,
  attentionSpecs,
  block,
  blockSpecs,
  conv3x3,
  addToEach,
  conv3x3Specs,
  dense,
  denseOnData,
  denseSpecs,
  embedding,
  embeddingSpecs,
  gridSum,
  keyPaddingMask,
  layerNorm,
  layerNormSpecs,
  MASKED,
  mlp,
  mlpSpecs,
  spaceToDepth,
} from './layers';
import { bagLogLikelihood, classMatch, pickRows, repeatRows, rowConv, rowConvSpecs, safeLog, slotPool, slotPoolSpecs, softUnion } from './readLayers';
import { get, initParams, normal, type ParamMap, type Params, type ParamSpecs } from './params';
import { glyphLetterLogits, glyphReaderSpecs, readGlyphs } from './glyphReader';
import { spelledCells, type SpelledTensors } from './orderedMatch';
import { middleSums, softmax } from './rowOps';
import { hasWeightedSumKernel, weightedSumKernelOp } from './weightedSumOp';

export interface GrounderConfig {
  model: 'grounder';
  vocabSize: number;
  maxTokens: number; // instruction length T (bos + tokens, right-padded)
  charLength: number; // letters per token's word, L
  stem: [number, number]; // channels of the 4-px patch layer and of the 3×3 conv
  dim: number;
  heads: number;
  textLayers: number;
  layers: number;
  /** Width in cells of the row convolution that lets a cell see its word (odd; default 5). */
  rowWidth?: number;
  /** Hidden width of the glyph reader (glyphReader.ts); absent in checkpoints made before it, which read letters from the cells alone. */
  glyphs?: number;
}

/** The tensors of one batch. */
export interface GrounderInputs {
  images: tf.Tensor4D; // [B, CANVAS_HEIGHT, CANVAS_WIDTH, 3] float32 in [0, 1]
  tokens: tf.Tensor2D; // [B, T] int32, bos first, SPECIAL.pad after the end
  chars: tf.Tensor3D; // [B, T, L] int32 letter classes (WORD_CHAR_CLASSES)
  valid: tf.Tensor2D; // [B, GRID_CELLS] float32, 1 on the screen, 0 on the canvas padding
  /** The target's text spelled out (instructionBatch.ts); needed when the model has a glyph reader. */
  spell?: SpelledTensors;
}

// A type alias (not an interface) so that it is a TensorContainer and can be returned from tf.tidy.
export type GrounderOutput = {
  logits: tf.Tensor2D; // [B, GRID_CELLS], padding cells at MASKED
  offsets: tf.Tensor3D; // [B, GRID_CELLS, 2] in-cell (x, y) in [0, 1]
  embedding: tf.Tensor2D; // [B, 2·dim]: pooled instruction ⊕ heat-map-weighted cell features (diversity filter)
};

/** What the grounder read on each screen (logits; one row per screen). */
export type GrounderReading = {
  letters: tf.Tensor3D; // [S, GRID_CELLS, LETTER_CLASSES] independent logits (sigmoid)
  glyphs?: tf.Tensor3D; // [S, GLYPH_POSITIONS, LETTER_CLASSES] the character centred at each 2-px position (softmax; 0 = none)
  role: tf.Tensor3D; // [S, GRID_CELLS, ROLE_CLASSES] (softmax)
  icon: tf.Tensor3D; // [S, GRID_CELLS, ICON_CLASSES]
  color: tf.Tensor3D; // [S, GRID_CELLS, COLOR_CLASSES]
};

/** What the grounder made of each instruction (logits), for the pretraining's instruction labels. */
export type GrounderParse = {
  content: tf.Tensor3D; // [B, T, 2]: token is the target's text / the anchor's text (sigmoid)
  role: tf.Tensor2D; // [B, ROLE_CLASSES] the target's role (softmax)
  icon: tf.Tensor2D; // [B, ICON_CLASSES]
  color: tf.Tensor2D; // [B, COLOR_CLASSES]
};

/** The score maps the heat map is made of, in the order of the gates. */
export const SCORE_KINDS = ['text', 'role', 'icon', 'color', 'position', 'relation'] as const;
const SLOTS = ['role', 'icon', 'color', 'position', 'relation', 'gate'] as const;
const slot = (name: (typeof SLOTS)[number]) => SLOTS.indexOf(name);
const POSITION_FEATURES = 5; // x, y, x², y², x·y
const RELATION_FEATURES = 7; // dx, dy, dx², dy², |dx|, |dy|, anchor-ness

function rowWidthOf(cfg: GrounderConfig): number {
  const w = cfg.rowWidth ?? 5;
  if (w < 1 || w % 2 === 0) throw new Error(`grounder: rowWidth must be an odd number ≥ 1; got ${w}`);
  return w;
}

export function grounderSpecs(cfg: GrounderConfig): ParamSpecs {
  const d = cfg.dim;
  const [c1, c2] = cfg.stem;
  const s: ParamSpecs = {
    ...denseSpecs('stem.patch', 48, c1, Math.sqrt(2 / 48)),
    ...conv3x3Specs('stem.conv', c1, c2),
    ...denseSpecs('stem.proj', 4 * c2, d),
    'pos.row': { shape: [GRID_ROWS, d], init: normal(0.1) },
    'pos.col': { shape: [GRID_COLS, d], init: normal(0.1) },
    ...layerNormSpecs('read.ln0', d),
    ...rowConvSpecs('read.row', d, rowWidthOf(cfg)),
    ...blockSpecs('read.block', d),
    ...layerNormSpecs('read.ln', d),
    ...denseSpecs('read.letters', d, LETTER_CLASSES),
    ...denseSpecs('read.role', d, ROLE_CLASSES),
    ...denseSpecs('read.icon', d, ICON_CLASSES),
    ...denseSpecs('read.color', d, COLOR_CLASSES),
    ...embeddingSpecs('text.tok', cfg.vocabSize, d),
    ...denseSpecs('text.chars', cfg.charLength * WORD_CHAR_CLASSES, d, 0.1),
    'text.pos': { shape: [cfg.maxTokens, d], init: normal(0.1) },
    ...layerNormSpecs('text.ln', d),
    ...denseSpecs('parse.content', d, 2, 0.02),
    ...slotPoolSpecs('parse.slots', d, SLOTS.length),
    ...denseSpecs('parse.role', d, ROLE_CLASSES),
    ...denseSpecs('parse.icon', d, ICON_CLASSES),
    ...denseSpecs('parse.color', d, COLOR_CLASSES),
    ...denseSpecs('parse.position', d, POSITION_FEATURES, 0.02),
    ...denseSpecs('parse.relation', d, RELATION_FEATURES, 0.02),
    ...denseSpecs('parse.gate', d, SCORE_KINDS.length, 0.02),
    ...denseSpecs('film', d, 2 * d, 0.02),
    ...layerNormSpecs('fine.ln1', d),
    ...attentionSpecs('fine.cross', d),
    ...layerNormSpecs('fine.ln2', d),
    ...mlpSpecs('fine.mlp', d, 2 * d),
    ...layerNormSpecs('head.ln', d),
    ...denseSpecs('head.q', d, d),
    ...denseSpecs('head.k', d, d),
    ...denseSpecs('head.bias', d, 1, 0.02),
    ...denseSpecs('head.offset', d, 2, 0.02),
  };
  if (cfg.glyphs) Object.assign(s, glyphReaderSpecs(cfg.glyphs), denseSpecs('parse.spell', d, 1, 0.02));
  for (let i = 0; i < cfg.textLayers; i++) Object.assign(s, blockSpecs(`text.blocks.${i}`, d));
  for (let i = 0; i < cfg.layers; i++) Object.assign(s, blockSpecs(`blocks.${i}`, d, d));
  return s;
}

export function initGrounder(rng: Random, cfg: GrounderConfig): Params {
  return initParams(rng, grounderSpecs(cfg));
}

/** Mean over the valid positions: x [B, T, d], valid [B, T] → [B, d]. */
function maskedMean(x: tf.Tensor, valid: tf.Tensor): tf.Tensor2D {
  const w = tf.expandDims(valid.dtype === 'bool' ? maskOf(valid) : valid, 2);
  return tf.div(tf.sum(tf.mul(x, w), 1), tf.maximum(tf.sum(w, 1), 1)) as tf.Tensor2D;
}

/** Instruction features [B, T, d] and its validity [B, T]. */
function encodeInstruction(p: ParamMap, cfg: GrounderConfig, tokens: tf.Tensor2D, chars: tf.Tensor3D): { text: tf.Tensor; valid: tf.Tensor2D } {
  const [b, t] = tokens.shape;
  const valid = maskOf(tf.notEqual(tokens, tf.scalar(SPECIAL.pad, 'int32'))) as tf.Tensor2D;
  const letters = tf.reshape(oneHotFloat(chars, WORD_CHAR_CLASSES), [b, t, cfg.charLength * WORD_CHAR_CLASSES]);
  let x = addToEach(tf.add(embedding(p, 'text.tok', tokens), dense(p, 'text.chars', letters)), get(p, 'text.pos'));
  const mask = keyPaddingMask(valid);
  for (let i = 0; i < cfg.textLayers; i++) x = block(p, `text.blocks.${i}`, x, cfg.heads, mask);
  return { text: layerNorm(p, 'text.ln', x), valid };
}

/** Letter bag of each token's word [B, T, LETTER_CLASSES] (0/1, pad class cleared). */
function tokenBags(chars: tf.Tensor3D): tf.Tensor {
  const [b, t, l] = chars.shape;
  const counts = middleSums(tf.reshape(oneHotFloat(chars, WORD_CHAR_CLASSES), [b * t, l, WORD_CHAR_CLASSES]) as tf.Tensor3D);
  const bag = tf.minimum(tf.reshape(counts, [b, t, WORD_CHAR_CLASSES]), 1);
  const notPad = tf.concat([tf.zeros([1]), tf.ones([LETTER_CLASSES - 1])]);
  return tf.mul(bag, notPad);
}

/**
 * Cell features [B, cells, d] from pixels: 4×4-pixel patches through a dense
 * layer (every glyph pixel pattern is linearly visible), a 3×3 convolution
 * on that 4-px grid (12 px of overlapping context, across cell borders),
 * then 2×2 of those per 8-px cell.
 */
function stem(p: ParamMap, images: tf.Tensor4D): tf.Tensor {
  const b = images.shape[0];
  let x = tf.relu(denseOnData(p, 'stem.patch', spaceToDepth(images, 4))) as tf.Tensor4D; // 4 px grid
  x = tf.relu(conv3x3(p, 'stem.conv', x)) as tf.Tensor4D;
  const cells = dense(p, 'stem.proj', spaceToDepth(x, 2)); // 8 px grid: one position per cell
  const d = cells.shape[3] as number;
  return addToEach(tf.reshape(cells, [b, GRID_CELLS, d]), gridSum(get(p, 'pos.row'), get(p, 'pos.col')));
}

/** Regions of 2×2 cells: the grid padded to an even size. */
export const REGION_ROWS = Math.ceil(GRID_ROWS / 2);
export const REGION_COLS = Math.ceil(GRID_COLS / 2);

/*
 * On WebGPU regions are built from the four strided slices of each 2×2
 * block and spread back with concats: tf.mean over axes 2 and 4 and a
 * broadcast add (whose gradient is the same kind of sum) took over a second
 * each per step on SwiftShader (npm run bench, time by kernel), while
 * slices, concats and adds, and their gradients, are plain copies. On WASM
 * it is the other way round (slices and the concats' gradients made a
 * grounder step 2.5× slower), so there the reductions stay. Same values.
 */

const slicesHere = (): boolean => tf.getBackend() === 'webgpu';

/** Cell features [B, cells, d] → region means [B, regions, d] (padding cells count as zeros). */
export function toRegions(x: tf.Tensor, bySlices = slicesHere()): tf.Tensor {
  const [b, , d] = x.shape;
  const grid = tf.reshape(x, [b, GRID_ROWS, GRID_COLS, d]);
  const padded = tf.pad(grid, [[0, 0], [0, 2 * REGION_ROWS - GRID_ROWS], [0, 2 * REGION_COLS - GRID_COLS], [0, 0]]);
  if (!bySlices) {
    const blocks = tf.reshape(padded, [b, REGION_ROWS, 2, REGION_COLS, 2, d]);
    return tf.reshape(tf.mean(blocks, [2, 4]), [b, REGION_ROWS * REGION_COLS, d]);
  }
  // [b·R, row in block, C, (column in block, d)]: rank 4, since a slice's gradient is a pad and
  // tfjs-webgpu's rank-6 pad shader does not compile (it asks WGSL for a vec6), leaving garbage.
  const blocks = tf.reshape(padded, [b * REGION_ROWS, 2, REGION_COLS, 2 * d]);
  const corner = (i: number, j: number) => tf.slice(blocks, [0, i, 0, j * d], [b * REGION_ROWS, 1, REGION_COLS, d]);
  const sum = tf.add(tf.add(corner(0, 0), corner(0, 1)), tf.add(corner(1, 0), corner(1, 1)));
  return tf.reshape(tf.mul(sum, 0.25), [b, REGION_ROWS * REGION_COLS, d]);
}

/** Region features [B, regions, d] → each cell gets its region's features [B, cells, d]. */
export function fromRegions(r: tf.Tensor, bySlices = slicesHere()): tf.Tensor {
  const [b, , d] = r.shape;
  let spread: tf.Tensor;
  if (!bySlices) spread = tf.add(tf.reshape(r, [b, REGION_ROWS, 1, REGION_COLS, 1, d]), tf.zeros([1, 1, 2, 1, 2, d]));
  else {
    // Rank 4 as in toRegions: [b·R, 1, C, d] → columns doubled in the last axis, then rows doubled.
    const one = tf.reshape(r, [b * REGION_ROWS, 1, REGION_COLS, d]);
    const wide = tf.concat([one, one], 3);
    spread = tf.concat([wide, wide], 1);
  }
  const grid = tf.reshape(spread, [b, 2 * REGION_ROWS, 2 * REGION_COLS, d]);
  return tf.reshape(tf.slice(grid, [0, 0, 0, 0], [b, GRID_ROWS, GRID_COLS, d]), [b, GRID_CELLS, d]);
}

function regionMaskOf(valid: tf.Tensor): tf.Tensor {
  return keyPaddingMask(tf.greater(tf.squeeze(toRegions(tf.expandDims(valid, 2)), [2]), 0));
}

/** One screen's features: what the matching reads (cells) and the reading heads' logits. */
/** glyphRows: which screen of reading.glyphs each instruction reads (pickScreens); absent, screen ⌊i / perScreen⌋. */
export type ScreenFeatures = { cells: tf.Tensor3D; reading: GrounderReading; glyphRows?: tf.Tensor1D };

/** The features of screens `rows` [B] (int32 indices into S), for B instructions about S encoded screens. */
export function pickScreens(f: ScreenFeatures, rows: tf.Tensor1D): ScreenFeatures {
  const r = f.reading;
  const pick = (t: tf.Tensor3D) => pickRows(t, rows) as tf.Tensor3D;
  return {
    cells: pick(f.cells),
    // The glyph maps are the largest; the spelling match reads them by row instead (one log-softmax per screen).
    reading: { letters: pick(r.letters), ...(r.glyphs ? { glyphs: r.glyphs } : {}), role: pick(r.role), icon: pick(r.icon), color: pick(r.color) },
    ...(r.glyphs ? { glyphRows: rows } : {}),
  };
}

/** The instruction-independent half: pixels → read cell features and reading logits. images [S, H, W, 3], valid [S, cells]. */
export function encodeScreens(p: ParamMap, cfg: GrounderConfig, images: tf.Tensor4D, valid: tf.Tensor2D): ScreenFeatures {
  if (images.shape[1] !== CANVAS_HEIGHT || images.shape[2] !== CANVAS_WIDTH) {
    throw new Error(`grounder: images must be [B, ${CANVAS_HEIGHT}, ${CANVAS_WIDTH}, 3]; got [${images.shape}]`);
  }
  const s = images.shape[0];
  const d = cfg.dim;
  let x = stem(p, images);
  const grid = tf.reshape(layerNorm(p, 'read.ln0', x), [s, GRID_ROWS, GRID_COLS, d]) as tf.Tensor4D;
  x = tf.add(x, tf.reshape(tf.relu(rowConv(p, 'read.row', grid, rowWidthOf(cfg))), [s, GRID_CELLS, d]));
  const r = block(p, 'read.block', toRegions(x), cfg.heads, regionMaskOf(valid));
  const cells = layerNorm(p, 'read.ln', tf.add(x, fromRegions(r))) as tf.Tensor3D;
  let letters = dense(p, 'read.letters', cells) as tf.Tensor3D;
  let glyphs: tf.Tensor3D | undefined;
  if (cfg.glyphs) {
    glyphs = readGlyphs(p, images);
    letters = tf.add(letters, glyphLetterLogits(p, glyphs));
  }
  return {
    cells,
    reading: {
      letters,
      ...(glyphs ? { glyphs } : {}),
      role: dense(p, 'read.role', cells) as tf.Tensor3D,
      icon: dense(p, 'read.icon', cells) as tf.Tensor3D,
      color: dense(p, 'read.color', cells) as tf.Tensor3D,
    },
  };
}

/** Screen coordinates of every cell in [−1, 1], per row of the batch (screens differ in size): x, y [B, cells]. */
function cellCoordinates(valid: tf.Tensor2D): { x: tf.Tensor; y: tf.Tensor } {
  const b = valid.shape[0];
  const grid = tf.reshape(valid, [b, GRID_ROWS, GRID_COLS]);
  const cols = tf.sum(tf.slice(grid, [0, 0, 0], [b, 1, GRID_COLS]), [1, 2]); // [B]
  const rows = tf.sum(tf.slice(grid, [0, 0, 0], [b, GRID_ROWS, 1]), [1, 2]);
  const col = tf.reshape(tf.tile(tf.add(tf.range(0, GRID_COLS, 1, 'float32'), 0.5), [GRID_ROWS]), [1, GRID_CELLS]);
  const row = tf.reshape(tf.tile(tf.reshape(tf.add(tf.range(0, GRID_ROWS, 1, 'float32'), 0.5), [GRID_ROWS, 1]), [1, GRID_COLS]), [1, GRID_CELLS]);
  const x = tf.sub(tf.mul(tf.div(col, tf.expandDims(tf.maximum(cols, 1), 1)), 2), 1);
  const y = tf.sub(tf.mul(tf.div(row, tf.expandDims(tf.maximum(rows, 1), 1)), 2), 1);
  return { x, y };
}

/** |x|, smooth at 0 (its gradient never needs a sign op). */
const smoothAbs = (v: tf.Tensor) => tf.sqrt(tf.add(tf.mul(v, v), 1e-4));

/** Σ_f w[:, f]·maps[f]: w [B, F], maps F × [B, N] (adds, not tf.stack, which is slow on WASM; one kernel each way there). */
function weightedSum(w: tf.Tensor, maps: tf.Tensor[]): tf.Tensor {
  if (hasWeightedSumKernel()) return weightedSumKernelOp(w, maps);
  const b = w.shape[0];
  return maps.map((m, f) => tf.mul(tf.slice(w, [0, f], [b, 1]), m)).reduce((acc, t) => tf.add(acc, t));
}

export type GrounderDetail = GrounderOutput & {
  parse: GrounderParse;
  /** [B, SCORE_KINDS.length] the weight each score map got; one more column, the spelled match's, with a glyph reader. */
  gates: tf.Tensor2D;
  /**
   * [B, cells] the spelled match before its gate (orderedMatch.ts: per cell, the best
   * clipped mean log-probability of a run spelling the target, in [WORST_MATCH, 0];
   * 0 for an instruction that spells nothing); absent without a glyph reader.
   */
  spelled?: tf.Tensor2D;
};

/** How groundOnScreens weighs the spelled match. */
export interface GroundOptions {
  /**
   * Whether the spelled match's weight is 1 + its learned gate (the default)
   * rather than the gate alone. The base pretraining turns it off: trained
   * with the floor, the shared layers leaned on spelling and the other styles
   * lost up to 25 points, while the floor added after that training lifted
   * text by 15 to 23 points and left the other styles where they were
   * (README "Base models"). A non-text instruction spells nothing and its
   * spelled map is flat, so the floor only ever moves text references.
   */
  spellFloor?: boolean;
}

/**
 * The instruction-dependent half, for B instructions over S screens with
 * B = S·perScreen (instruction i is about screen ⌊i / perScreen⌋).
 */
export function groundOnScreens(
  p: ParamMap,
  cfg: GrounderConfig,
  screens: ScreenFeatures,
  perScreen: number,
  inputs: Omit<GrounderInputs, 'images'>,
  opts: GroundOptions = {},
): GrounderDetail {
  const { tokens, chars, valid, spell } = inputs;
  const d = cfg.dim;
  const reader = screens.reading.glyphs;
  if (reader && !spell) throw new Error('grounder: a model with a glyph reader needs the target spelled out (inputs.spell, from instructionBatch.ts)');
  const b = tokens.shape[0];
  if (screens.cells.shape[0] * perScreen !== b) throw new Error(`grounder: ${b} instructions for ${screens.cells.shape[0]} screens × ${perScreen}`);
  const cells = repeatRows(screens.cells, perScreen);
  const { text, valid: textValid } = encodeInstruction(p, cfg, tokens, chars);
  const pooled = maskedMean(text, textValid);

  // What the instruction asks for.
  const contentLogits = dense(p, 'parse.content', text) as tf.Tensor3D; // [B, T, 2]
  const content = tf.mul(tf.sigmoid(contentLogits), tf.expandDims(textValid, 2));
  const bags = tokenBags(chars);
  const slots = slotPool(p, 'parse.slots', text, textValid); // [B, SLOTS, d]
  const slotOf = (name: (typeof SLOTS)[number]) => tf.squeeze(tf.slice(slots, [0, slot(name), 0], [b, 1, d]), [1]);
  const parse: GrounderParse = {
    content: contentLogits,
    role: dense(p, 'parse.role', slotOf('role')) as tf.Tensor2D,
    icon: dense(p, 'parse.icon', slotOf('icon')) as tf.Tensor2D,
    color: dense(p, 'parse.color', slotOf('color')) as tf.Tensor2D,
  };

  // What each cell shows.
  const r = screens.reading;
  const letters = tf.sigmoid(r.letters);
  const logP = safeLog(letters);
  const logQ = safeLog(tf.sub(1, letters));
  const wantText = softUnion(tf.squeeze(tf.slice(content, [0, 0, 0], [b, -1, 1]), [2]), bags);
  const wantAnchor = softUnion(tf.squeeze(tf.slice(content, [0, 0, 1], [b, -1, 1]), [2]), bags);
  const sText = bagLogLikelihood(logP, logQ, wantText, perScreen);
  const sRole = classMatch(softmax(r.role), softmax(parse.role), perScreen);
  const sIcon = classMatch(softmax(r.icon), softmax(parse.icon), perScreen);
  const sColor = classMatch(softmax(r.color), softmax(parse.color), perScreen);
  const { x, y } = cellCoordinates(valid);
  const sPosition = weightedSum(dense(p, 'parse.position', slotOf('position')), [x, y, tf.mul(x, x), tf.mul(y, y), tf.mul(x, y)]);
  const padding = tf.mul(tf.sub(1, valid), MASKED);
  const anchorLog = tf.logSoftmax(tf.add(tf.mul(bagLogLikelihood(logP, logQ, wantAnchor, perScreen), 40), padding)); // sharp: the anchor's few cells
  const anchor = tf.exp(anchorLog);
  const dx = tf.sub(x, tf.sum(tf.mul(anchor, x), 1, true));
  const dy = tf.sub(y, tf.sum(tf.mul(anchor, y), 1, true));
  const relFeatures = [dx, dy, tf.mul(dx, dx), tf.mul(dy, dy), smoothAbs(dx), smoothAbs(dy), tf.div(tf.maximum(anchorLog, -10), 10)];
  const sRelation = weightedSum(dense(p, 'parse.relation', slotOf('relation')), relFeatures);
  const gateOf = (name: string) => tf.exp(tf.clipByValue(dense(p, name, slotOf('gate')), -6, 3));
  let gates = gateOf('parse.gate') as tf.Tensor2D; // [B, kinds]
  let matched = weightedSum(gates, [sText, sRole, sIcon, sColor, sPosition, sRelation]);
  let spelled: tf.Tensor2D | undefined;
  if (reader && spell) {
    const learned = gateOf('parse.spell');
    const spellGate = opts.spellFloor === false ? learned : tf.add(learned, 1);
    spelled = spelledCells(reader, spell, screens.glyphRows ?? perScreen);
    matched = tf.add(matched, tf.mul(spellGate, spelled));
    gates = tf.concat([gates, spellGate], 1) as tf.Tensor2D;
  }

  // The learned residual: cells modulated by the instruction, mixed over regions with cross-attention to it.
  const film = dense(p, 'film', pooled);
  const gamma = tf.expandDims(tf.slice(film, [0, 0], [-1, d]), 1);
  const beta = tf.expandDims(tf.slice(film, [0, d], [-1, d]), 1);
  const h0 = tf.add(tf.mul(cells, tf.add(gamma, 1)), beta);
  const textMask = keyPaddingMask(textValid);
  let reg = toRegions(h0);
  const regionMask = regionMaskOf(valid);
  for (let i = 0; i < cfg.layers; i++) reg = block(p, `blocks.${i}`, reg, cfg.heads, regionMask, text, textMask);
  let h = tf.add(h0, fromRegions(reg));
  h = tf.add(h, attention(p, 'fine.cross', layerNorm(p, 'fine.ln1', h), text, cfg.heads, textMask));
  h = tf.add(h, mlp(p, 'fine.mlp', layerNorm(p, 'fine.ln2', h)));
  h = layerNorm(p, 'head.ln', h);
  const q = tf.expandDims(dense(p, 'head.q', pooled), 1); // [B, 1, d]
  const k = dense(p, 'head.k', h); // [B, cells, d]
  const residual = tf.add(tf.mul(tf.sum(tf.mul(q, k), 2), 1 / Math.sqrt(d)), tf.squeeze(dense(p, 'head.bias', h), [2]));

  const logits = tf.add(tf.add(matched, residual), padding) as tf.Tensor2D;
  const offsets = tf.sigmoid(dense(p, 'head.offset', h)) as tf.Tensor3D;
  const attended = tf.sum(tf.mul(tf.expandDims(softmax(logits), 2), h), 1);
  const embeddingOut = tf.concat([pooled, attended], 1) as tf.Tensor2D;
  return { logits, offsets, embedding: embeddingOut, parse, gates, ...(spelled ? { spelled } : {}) };
}

export function grounderForward(p: ParamMap, cfg: GrounderConfig, inputs: GrounderInputs): GrounderOutput {
  const detail = groundOnScreens(p, cfg, encodeScreens(p, cfg, inputs.images, inputs.valid), 1, inputs);
  return { logits: detail.logits, offsets: detail.offsets, embedding: detail.embedding };
}

/** The heat map: softmax over cells [B, cells] (padding cells ≈ 0). */
export function heatmap(logits: tf.Tensor2D): tf.Tensor2D {
  return softmax(logits);
}

/** log π(cell) for given cells [B] (int32): the grounder policy's log-prob, differentiable. */
export function cellLogProbs(logits: tf.Tensor2D, cells: tf.Tensor1D): tf.Tensor1D {
  return pickedLogProbs(logits, cells) as tf.Tensor1D;
}

export interface GroundedPoint {
  cell: number;
  x: number; // screen pixels
  y: number;
  prob: number; // heat-map mass of the cell: the grounder's confidence
  logProb: number;
}

function logSoftmaxRow(logits: Float32Array, offset: number, n: number): Float64Array {
  let max = -Infinity;
  for (let i = 0; i < n; i++) max = Math.max(max, logits[offset + i]);
  let z = 0;
  for (let i = 0; i < n; i++) z += Math.exp(logits[offset + i] - max);
  const lz = max + Math.log(z);
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) out[i] = logits[offset + i] - lz;
  return out;
}

function pointAt(cell: number, lp: Float64Array, offsets: Float32Array, row: number): GroundedPoint {
  const o = (row * GRID_CELLS + cell) * 2;
  const { x, y } = pointOfCell(cell, offsets[o], offsets[o + 1]);
  return { cell, x, y, prob: Math.exp(lp[cell]), logProb: lp[cell] };
}

/** The arg-max cell of each row, with its offset: the evaluation point. Reads back with await data(). */
export async function greedyPoints(out: Pick<GrounderOutput, 'logits' | 'offsets'>): Promise<GroundedPoint[]> {
  const [logits, offsets] = await Promise.all([out.logits.data() as Promise<Float32Array>, out.offsets.data() as Promise<Float32Array>]);
  const b = out.logits.shape[0];
  const res: GroundedPoint[] = [];
  for (let r = 0; r < b; r++) {
    const lp = logSoftmaxRow(logits, r * GRID_CELLS, GRID_CELLS);
    let best = 0;
    for (let c = 1; c < GRID_CELLS; c++) if (lp[c] > lp[best]) best = c;
    res.push(pointAt(best, lp, offsets, r));
  }
  return res;
}

/**
 * `count` sampled points per row (GRPO's group), drawn with `rng` from the
 * probabilities read back, so WebGPU and WASM draw the same cells. Returns
 * [B][count]. `temperature` divides the logits before sampling; the
 * logProb reported is under temperature 1 (the policy that is trained).
 */
export async function samplePoints(
  rng: Random,
  out: Pick<GrounderOutput, 'logits' | 'offsets'>,
  count: number,
  temperature = 1,
): Promise<GroundedPoint[][]> {
  const [logits, offsets] = await Promise.all([out.logits.data() as Promise<Float32Array>, out.offsets.data() as Promise<Float32Array>]);
  const b = out.logits.shape[0];
  const res: GroundedPoint[][] = [];
  for (let r = 0; r < b; r++) {
    const lp = logSoftmaxRow(logits, r * GRID_CELLS, GRID_CELLS);
    const scaled = temperature === 1 ? lp : logSoftmaxRow(logits.subarray(r * GRID_CELLS, (r + 1) * GRID_CELLS).map((v) => v / temperature), 0, GRID_CELLS);
    const probs = Array.from(scaled, Math.exp);
    const row: GroundedPoint[] = [];
    for (let g = 0; g < count; g++) row.push(pointAt(sampleIndex(rng, probs), lp, offsets, r));
    res.push(row);
  }
  return res;
}

/** Inverse-CDF draw from (near-)normalised probabilities. */
export function sampleIndex(rng: Random, probs: ArrayLike<number>): number {
  let total = 0;
  for (let i = 0; i < probs.length; i++) total += probs[i];
  let u = rng.next() * total;
  for (let i = 0; i < probs.length; i++) {
    u -= probs[i];
    if (u < 0) return i;
  }
  // Rounding left u ≥ 0: the last index with mass.
  for (let i = probs.length - 1; i >= 0; i--) if (probs[i] > 0) return i;
  return probs.length - 1;
}

/** A heat-map row as a [rows][cols] grid (for the UI and the attention filter). */
export function heatmapGrid(probs: ArrayLike<number>, row = 0): number[][] {
  return Array.from({ length: GRID_ROWS }, (_, r) => Array.from({ length: GRID_COLS }, (_, c) => probs[row * GRID_CELLS + r * GRID_COLS + c]));
}

export { CELL, GRID_CELLS, GRID_COLS, GRID_ROWS };
