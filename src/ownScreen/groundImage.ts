/**
 * Grounding one instruction on a person's screenshot at any size: scale it
 * (tiles.ts), cut it into the grounder's screens (pixels.ts), run the
 * grounder on every tile in a few batches, and combine (combine.ts) into one
 * point in the screenshot's own pixels, with the tile and scale that won and
 * whether the grounder was confident. The only part here that runs tfjs.
 */
import * as tf from '../models/tf';
import { CANVAS_HEIGHT, CANVAS_WIDTH, CELL, GRID_CELLS, IMAGE_FLOATS, canvasFromRgba, validCells } from '../models/canvas';
import { encodeScreens, groundOnScreens, type GrounderConfig, type ScreenFeatures } from '../models/grounder';
import { encodeInstructions, instructionTensors } from '../models/instructionBatch';
import type { ParamMap } from '../models/params';
import type { Tokenizer } from '../text/tokenizer';
import type { GroundOnceResult } from '../learn/groundOnce';
import { screenHeatmap } from '../learn/grounderSft';
import { readLoosely } from '../text/looseInstruction';
import { FeatureCache, pixelKey } from './featureCache';
import { combineTiles, CONFIDENT_MARGIN, softmaxOver, type TileScores } from './combine';
import { cutTile, flattenOnWhite, resizeRgba, type RgbaImage } from './pixels';
import { planTiles, tileInImage, toImagePoint, type ScaleChoice, type TilePlan } from './tiles';

/** Tiles per forward pass: bounds the activations' memory (a tiny-preset tile is a few MB of them). */
const TILE_BATCH = 8;

export interface ImageRect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** A tile's best candidate, in the screenshot's px. */
export interface ImageCandidate {
  tile: number;
  x: number;
  y: number;
  /** What picks the winner across tiles: the logit plus SPELL_WEIGHT × the spelled match (combine.ts). */
  score: number;
  /** The grounder's logit there. */
  logit: number;
  /** The tile's heat-map mass within one cell of it. */
  mass: number;
  /** log of the tile's softmax at its cell: the score within the tile alone. */
  logProb: number;
}

export interface GroundImageResult {
  /** The instruction as the grounder read it: as typed, or with its target text quoted (text/looseInstruction.ts). */
  instruction: string;
  source: { width: number; height: number };
  plan: Omit<TilePlan, 'tiles'>;
  /** Every tile's rectangle in the screenshot's px, in tile order. */
  tiles: ImageRect[];
  /** The point in the screenshot's px (the best guess even when not confident). */
  point: { x: number; y: number };
  tile: number;
  /** By how much the winning logit beats the best one on a blank screen (combine.ts): about 0 for an empty image. */
  confidence: number;
  confident: boolean;
  /** The confidence from which an answer counts as confident (CONFIDENT_MARGIN). */
  threshold: number;
  /** Every tile's best candidate (null where a tile shows none of the image). */
  candidates: (ImageCandidate | null)[];
  /** The winning tile as the grounder saw it, and its heat map with the point in tile px. */
  tileScreen: RgbaImage;
  tileAnswer: GroundOnceResult;
  ms: number;
}

export interface GroundImageInput {
  image: RgbaImage;
  instruction: string;
  scale: ScaleChoice;
  /** The file's own size when `image` was shrunk on reading (a huge image): points and the scale are given in its px. */
  original?: { width: number; height: number };
  /** Logits per unit of spelled match when tiles are compared (default SPELL_WEIGHT). */
  spellWeight?: number;
}

/** Where the tiles' encodings are kept between instructions, and the name of the model they are of. */
export interface GroundImageCache {
  features: FeatureCache;
  model: string;
}

/** The tiles' encodings, one entry per batch of TILE_BATCH screens (kept: the caller disposes them). */
function encodeTiles(params: ParamMap, cfg: GrounderConfig, plan: TilePlan, screens: RgbaImage[]): ScreenFeatures[] {
  const valid = validCells(plan.platform);
  const out: ScreenFeatures[] = [];
  for (let at = 0; at < screens.length; at += TILE_BATCH) {
    const batch = screens.slice(at, at + TILE_BATCH);
    const n = batch.length;
    const images = new Float32Array(n * IMAGE_FLOATS);
    batch.forEach((s, i) => images.set(canvasFromRgba(s.rgba, s.width, s.height), i * IMAGE_FLOATS));
    out.push(tf.tidy(() => encodeScreens(params, cfg, tf.tensor4d(images, [n, CANVAS_HEIGHT, CANVAS_WIDTH, 3], 'float32'), validRows(valid, n))));
  }
  return out;
}

function validRows(valid: Float32Array, n: number): tf.Tensor2D {
  const rows = new Float32Array(n * GRID_CELLS);
  for (let i = 0; i < n; i++) rows.set(valid, i * GRID_CELLS);
  return tf.tensor2d(rows, [n, GRID_CELLS], 'float32');
}

/** The instruction over every encoded tile: logits, offsets and the spelled match per tile, read back. */
async function scoreTiles(params: ParamMap, cfg: GrounderConfig, tok: Tokenizer, plan: TilePlan, batches: ScreenFeatures[], instruction: string): Promise<TileScores[]> {
  const valid = validCells(plan.platform);
  const out: TileScores[] = [];
  for (const features of batches) {
    const n = features.cells.shape[0];
    const text = encodeInstructions(tok, cfg, [instruction], n);
    const o = tf.tidy(() => {
      const r = groundOnScreens(params, cfg, features, 1, { ...instructionTensors(text, cfg), valid: validRows(valid, n) });
      return { logits: r.logits, offsets: r.offsets, spelled: r.spelled };
    });
    try {
      const [logits, offsets, spelled] = (await Promise.all([o.logits.data(), o.offsets.data(), o.spelled?.data()])) as [Float32Array, Float32Array, Float32Array | undefined];
      const cells = (i: number) => [i * GRID_CELLS, (i + 1) * GRID_CELLS] as const;
      for (let i = 0; i < n; i++) out.push({ logits: logits.slice(...cells(i)), offsets: offsets.slice(i * GRID_CELLS * 2, (i + 1) * GRID_CELLS * 2), ...(spelled ? { spelled: spelled.slice(...cells(i)) } : {}) });
    } finally {
      tf.dispose([o.logits, o.offsets, ...(o.spelled ? [o.spelled] : [])]);
    }
  }
  return out;
}

/** Without `cache` the tiles' encodings are freed at once; with it they are kept for the next instruction on the same screenshot, scale and model. */
export async function groundImage(params: ParamMap, cfg: GrounderConfig, tok: Tokenizer, input: GroundImageInput, cache?: GroundImageCache, now: () => number = () => performance.now()): Promise<GroundImageResult> {
  const t0 = now();
  const src = input.image;
  if (src.rgba.length !== src.width * src.height * 4) throw new Error(`The screenshot has ${src.rgba.length} bytes; ${src.width}×${src.height} RGBA needs ${src.width * src.height * 4}.`);
  const instruction = readLoosely(input.instruction);
  const source = input.original ?? { width: src.width, height: src.height };
  const read = src.width / source.width;
  // Text of textPx in the file is textPx·read in the pixels read.
  const plan = planTiles(src.width, src.height, input.scale.kind === 'text' ? { kind: 'text', textPx: input.scale.textPx * read } : input.scale);
  const scaled = resizeRgba(flattenOnWhite(src), plan.width, plan.height);
  const screens = plan.tiles.map((t) => cutTile(scaled, plan, t));
  // One more screen, blank: the baseline of the confidence.
  const blank = cutTile({ rgba: new Uint8Array(0), width: 0, height: 0 }, plan, { x: 0, y: 0 });
  const key = `${cache?.model}|${pixelKey(src.rgba, src.width, src.height)}|${plan.platform}|${plan.width}x${plan.height}`;
  let batches = cache?.features.get(key) ?? null;
  if (!batches) {
    batches = encodeTiles(params, cfg, plan, [...screens, blank]);
    cache?.features.set(key, batches);
  }
  let scores: TileScores[];
  try {
    scores = await scoreTiles(params, cfg, tok, plan, batches, instruction);
  } finally {
    if (!cache) tf.dispose(batches);
  }
  const combined = combineTiles(plan, scores.slice(0, screens.length), scores[screens.length], CONFIDENT_MARGIN, input.spellWeight);
  const best = combined.best;
  const winner = plan.tiles[best.tile];
  const probs = softmaxOver(scores[best.tile].logits, validCells(plan.platform));
  const { map, cols, rows } = screenHeatmap(probs, 0, plan.platform);
  const { tiles, ...planInfo } = plan;
  return {
    instruction,
    source,
    // The scale from the file's own px.
    plan: { ...planInfo, scale: planInfo.width / source.width },
    tiles: tiles.map((t) => tileInImage(plan, t, source)),
    point: toImagePoint(plan, winner, best.x, best.y, source),
    tile: best.tile,
    confidence: combined.margin,
    confident: combined.confident,
    threshold: CONFIDENT_MARGIN,
    candidates: combined.perTile.map((c) => (c ? { tile: c.tile, ...toImagePoint(plan, plan.tiles[c.tile], c.x, c.y, source), score: c.score, logit: c.logit, mass: c.mass, logProb: Math.log(c.prob) } : null)),
    tileScreen: screens[best.tile],
    tileAnswer: {
      heat: map,
      cols,
      rows,
      cellSize: CELL,
      width: plan.tileWidth,
      height: plan.tileHeight,
      greedy: { x: best.x, y: best.y, cell: best.cell, prob: best.prob },
      sampled: [],
    },
    ms: now() - t0,
  };
}
