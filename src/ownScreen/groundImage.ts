/**
 * Grounding one instruction on a person's screenshot at any size: scale it
 * (tiles.ts), cut it into the grounder's screens (pixels.ts), run the
 * grounder on every tile in a few batches, and combine (combine.ts) into one
 * point in the screenshot's own pixels, with the tile and scale that won and
 * whether the grounder was confident. The only part here that runs tfjs.
 */
import * as tf from '../models/tf';
import { CANVAS_HEIGHT, CANVAS_WIDTH, CELL, GRID_CELLS, IMAGE_FLOATS, canvasFromRgba, validCells } from '../models/canvas';
import { grounderForward, type GrounderConfig } from '../models/grounder';
import { encodeInstructions, instructionTensors } from '../models/instructionBatch';
import type { ParamMap } from '../models/params';
import type { Tokenizer } from '../text/tokenizer';
import type { GroundOnceResult } from '../learn/groundOnce';
import { screenHeatmap } from '../learn/grounderSft';
import { combineTiles, CONFIDENT_MASS, softmaxOver, type TileScores } from './combine';
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
  /** The grounder's logit there (what picks the winner across tiles). */
  score: number;
  /** The tile's heat-map mass within one cell of it (the confidence). */
  mass: number;
}

export interface GroundImageResult {
  source: { width: number; height: number };
  plan: Omit<TilePlan, 'tiles'>;
  /** Every tile's rectangle in the screenshot's px, in tile order. */
  tiles: ImageRect[];
  /** The point in the screenshot's px (the best guess even when not confident). */
  point: { x: number; y: number };
  tile: number;
  confidence: number;
  confident: boolean;
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
}

async function scoreTiles(params: ParamMap, cfg: GrounderConfig, tok: Tokenizer, plan: TilePlan, screens: RgbaImage[], instruction: string): Promise<TileScores[]> {
  const valid = validCells(plan.platform);
  const out: TileScores[] = [];
  for (let at = 0; at < screens.length; at += TILE_BATCH) {
    const batch = screens.slice(at, at + TILE_BATCH);
    const n = batch.length;
    const images = new Float32Array(n * IMAGE_FLOATS);
    batch.forEach((s, i) => images.set(canvasFromRgba(s.rgba, s.width, s.height), i * IMAGE_FLOATS));
    const validRows = new Float32Array(n * GRID_CELLS);
    for (let i = 0; i < n; i++) validRows.set(valid, i * GRID_CELLS);
    const text = encodeInstructions(tok, cfg, [instruction], n);
    const o = tf.tidy(() => {
      const r = grounderForward(params, cfg, {
        images: tf.tensor4d(images, [n, CANVAS_HEIGHT, CANVAS_WIDTH, 3], 'float32'),
        ...instructionTensors(text, cfg),
        valid: tf.tensor2d(validRows, [n, GRID_CELLS], 'float32'),
      });
      return { logits: r.logits, offsets: r.offsets };
    });
    try {
      const [logits, offsets] = (await Promise.all([o.logits.data(), o.offsets.data()])) as [Float32Array, Float32Array];
      for (let i = 0; i < n; i++) out.push({ logits: logits.slice(i * GRID_CELLS, (i + 1) * GRID_CELLS), offsets: offsets.slice(i * GRID_CELLS * 2, (i + 1) * GRID_CELLS * 2) });
    } finally {
      tf.dispose([o.logits, o.offsets]);
    }
  }
  return out;
}

export async function groundImage(params: ParamMap, cfg: GrounderConfig, tok: Tokenizer, input: GroundImageInput, now: () => number = () => performance.now()): Promise<GroundImageResult> {
  const t0 = now();
  const src = input.image;
  if (src.rgba.length !== src.width * src.height * 4) throw new Error(`The screenshot has ${src.rgba.length} bytes; ${src.width}×${src.height} RGBA needs ${src.width * src.height * 4}.`);
  const plan = planTiles(src.width, src.height, input.scale);
  const scaled = resizeRgba(flattenOnWhite(src), plan.width, plan.height);
  const screens = plan.tiles.map((t) => cutTile(scaled, plan, t));
  const scores = await scoreTiles(params, cfg, tok, plan, screens, input.instruction);
  const combined = combineTiles(plan, scores);
  const best = combined.best;
  const source = { width: src.width, height: src.height };
  const winner = plan.tiles[best.tile];
  const probs = softmaxOver(scores[best.tile].logits, validCells(plan.platform));
  const { map, cols, rows } = screenHeatmap(probs, 0, plan.platform);
  const { tiles, ...planInfo } = plan;
  return {
    source,
    plan: planInfo,
    tiles: tiles.map((t) => tileInImage(plan, t, source)),
    point: toImagePoint(plan, winner, best.x, best.y, source),
    tile: best.tile,
    confidence: best.mass,
    confident: combined.confident,
    threshold: CONFIDENT_MASS,
    candidates: combined.perTile.map((c) => (c ? { tile: c.tile, ...toImagePoint(plan, plan.tiles[c.tile], c.x, c.y, source), score: c.score, mass: c.mass } : null)),
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
