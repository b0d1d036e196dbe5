/**
 * Combining the grounder's answers over the tiles of one screenshot into one
 * point, and saying how sure it is. No DOM, no tfjs: the worker hands in
 * each tile's logits and offsets as read back.
 *
 * Which tile wins: the cell with the highest logit over all tiles, i.e. the
 * arg-max of one softmax over every tile's cells together. A logit is
 * comparable across tiles (the instruction, and so the weight of each kind
 * of match, is the same for all; only what the tile shows differs), while a
 * tile's own softmax is not: a tile showing nothing alike can still put
 * most of its mass on its least-bad cell.
 *
 * How sure: by how much the winning logit beats the best logit the same
 * grounder gives the same instruction on a blank white screen (one more
 * tile in the batch). A logit alone drifts with the model and the
 * instruction; the blank screen is the baseline of both, so a near-empty or
 * 1×1 image scores about 0 and an image with something like the target on
 * it scores well above. The heat-map mass near the point is no measure of
 * this: the grounder's map on a blank screen is as peaked as on a real one
 * (its position prior), 0.21 of the mass in one 3×3 block. See
 * CONFIDENT_MARGIN for how the threshold was chosen.
 */
import { CELL, GRID_CELLS, GRID_COLS, validCells } from '../models/canvas';
import { cellShowsImage, type Tile, type TilePlan } from './tiles';

/** One tile's readback: logits [GRID_CELLS] (padding cells at MASKED) and in-cell offsets [GRID_CELLS, 2] in [0, 1]. */
export interface TileScores {
  logits: Float32Array;
  offsets: Float32Array;
}

/** A tile's best cell on the image. */
export interface TileChoice {
  tile: number;
  cell: number;
  /** The point in the tile's screen px. */
  x: number;
  y: number;
  /** The raw logit: comparable across tiles. */
  score: number;
  /** The tile's softmax mass of this cell alone. */
  prob: number;
  /** The tile's softmax mass within one cell of it (how focused the map is there; not the confidence, see above). */
  mass: number;
}

/**
 * The margin over a blank screen (in logits) below which the answer is
 * "nothing confident". Chosen from the tiny base grounder's margins
 * measured in the browser (WASM): see docs/screenshot.md for the
 * figures, blank, noise and 1×1 images against world screens and the
 * 5-button fixture page.
 */
export const CONFIDENT_MARGIN = 5;

/** Softmax of one tile's logits over its screen cells (0 on the canvas padding). */
export function softmaxOver(logits: Float32Array, valid: Float32Array): Float64Array {
  let max = -Infinity;
  for (let i = 0; i < GRID_CELLS; i++) if (valid[i] > 0) max = Math.max(max, logits[i]);
  const out = new Float64Array(GRID_CELLS);
  let z = 0;
  for (let i = 0; i < GRID_CELLS; i++) if (valid[i] > 0) z += out[i] = Math.exp(logits[i] - max);
  for (let i = 0; i < GRID_CELLS; i++) out[i] /= z;
  return out;
}

/** The tile's best cell among those that show the image (its white margin cannot win), or null when none does. */
export function bestInTile(plan: Pick<TilePlan, 'platform' | 'width' | 'height'>, tile: Tile, s: TileScores): TileChoice | null {
  if (s.logits.length !== GRID_CELLS || s.offsets.length !== GRID_CELLS * 2) throw new Error(`bestInTile: ${s.logits.length} logits and ${s.offsets.length} offsets; the grounder's grid has ${GRID_CELLS} cells.`);
  const valid = validCells(plan.platform);
  let best = -1;
  for (let i = 0; i < GRID_CELLS; i++) {
    if (valid[i] === 0 || !cellShowsImage(plan, tile, i % GRID_COLS, Math.floor(i / GRID_COLS), CELL)) continue;
    if (best < 0 || s.logits[i] > s.logits[best]) best = i;
  }
  if (best < 0) return null;
  const probs = softmaxOver(s.logits, valid);
  const c = best % GRID_COLS;
  const r = Math.floor(best / GRID_COLS);
  let mass = 0;
  for (let dr = -1; dr <= 1; dr++) {
    for (let dc = -1; dc <= 1; dc++) {
      const cc = c + dc;
      const rr = r + dr;
      if (cc < 0 || cc >= GRID_COLS || rr < 0) continue;
      const j = rr * GRID_COLS + cc;
      if (j < GRID_CELLS) mass += probs[j];
    }
  }
  return { tile: tile.index, cell: best, x: (c + s.offsets[best * 2]) * CELL, y: (r + s.offsets[best * 2 + 1]) * CELL, score: s.logits[best], prob: probs[best], mass };
}

export interface Combined {
  best: TileChoice;
  /** Every tile's best cell, in tile order (null for a tile that shows none of the image). */
  perTile: (TileChoice | null)[];
  /** The best logit on a blank screen, and by how much the winner beats it. */
  baseline: number;
  margin: number;
  confident: boolean;
}

/** The best logit over a screen's cells: the baseline, when the screen is blank. */
export function maxLogit(platform: TilePlan['platform'], s: TileScores): number {
  const valid = validCells(platform);
  let max = -Infinity;
  for (let i = 0; i < GRID_CELLS; i++) if (valid[i] > 0) max = Math.max(max, s.logits[i]);
  return max;
}

/** The winning cell over all tiles (highest logit), with every tile's own best; `blank` is the same instruction on a blank screen. */
export function combineTiles(plan: Pick<TilePlan, 'platform' | 'width' | 'height' | 'tiles'>, scores: readonly TileScores[], blank: TileScores, threshold = CONFIDENT_MARGIN): Combined {
  if (scores.length !== plan.tiles.length) throw new Error(`combineTiles: ${scores.length} score sets for ${plan.tiles.length} tiles.`);
  const perTile = plan.tiles.map((t, i) => bestInTile(plan, t, scores[i]));
  let best: TileChoice | null = null;
  for (const c of perTile) if (c && (!best || c.score > best.score)) best = c;
  if (!best) throw new Error('combineTiles: no tile shows the image (the plan is inconsistent).');
  const baseline = maxLogit(plan.platform, blank);
  const margin = best.score - baseline;
  return { best, perTile, baseline, margin, confident: margin >= threshold };
}
