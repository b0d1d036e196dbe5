/**
 * Combining the grounder's answers over the tiles of one screenshot into one
 * point, and saying how sure it is. No DOM, no tfjs: the worker hands in
 * each tile's logits, spelled match and offsets as read back.
 *
 * Which tile wins: the cell with the highest score over all tiles, where a
 * cell's score is its logit plus SPELL_WEIGHT times the grounder's spelled
 * match there (how well the glyphs read around the cell spell the target's
 * text). Within one screen the logit is what the grounder learnt to rank by;
 * across tiles most of it is not comparable: its position prior and learned
 * residual score where a cell sits in its tile and what the tile looks like,
 * so menu items and headers in one tile outscore the asked-for button in
 * another. The spelled match is a mean log-probability of the target's
 * letters in order, the same yardstick on every tile. An instruction that
 * spells nothing (an icon, a colour) has a flat spelled map, and the logit
 * alone decides, as before.
 *
 * How sure: by how much the winning cell's logit beats the best logit the
 * same grounder gives the same instruction on a blank white screen (one more
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

/** One tile's readback: logits [GRID_CELLS] (padding cells at MASKED), in-cell offsets [GRID_CELLS, 2] in [0, 1], and the spelled match [GRID_CELLS] (absent: a grounder without a glyph reader). */
export interface TileScores {
  logits: Float32Array;
  offsets: Float32Array;
  spelled?: Float32Array;
}

/**
 * Logits per unit of spelled match in the score that picks the cell across
 * tiles. Chosen on made-up 1280×800 pages (test/fixtures/screenshotPages.ts,
 * "click the X button" at the 14-px setting), never on the five-button test
 * page: with the tiny base grounder the point landed on its button for
 * 17, 31, 32, 31 of 45 questions at weights 0, 3, 10, 30 (seeds 1–8), and
 * 23, 33, 33, 28 of 48 on the pages kept to check (seeds 101–108); see
 * docs/screenshot.md.
 */
export const SPELL_WEIGHT = 10;

/** A tile's best cell on the image. */
export interface TileChoice {
  tile: number;
  cell: number;
  /** The point in the tile's screen px. */
  x: number;
  y: number;
  /** What picks the cell across tiles: the logit plus SPELL_WEIGHT × the spelled match. */
  score: number;
  /** The grounder's logit there (what the confidence is measured on). */
  logit: number;
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
export function bestInTile(plan: Pick<TilePlan, 'platform' | 'width' | 'height'>, tile: Tile, s: TileScores, spellWeight = SPELL_WEIGHT): TileChoice | null {
  if (s.logits.length !== GRID_CELLS || s.offsets.length !== GRID_CELLS * 2) throw new Error(`bestInTile: ${s.logits.length} logits and ${s.offsets.length} offsets; the grounder's grid has ${GRID_CELLS} cells.`);
  if (s.spelled && s.spelled.length !== GRID_CELLS) throw new Error(`bestInTile: ${s.spelled.length} spelled-match values; the grounder's grid has ${GRID_CELLS} cells.`);
  const valid = validCells(plan.platform);
  if (!(spellWeight >= 0 && Number.isFinite(spellWeight))) throw new Error(`bestInTile: the spell weight must be a number ≥ 0; got ${spellWeight}.`);
  const score = (i: number) => s.logits[i] + (s.spelled ? spellWeight * s.spelled[i] : 0);
  let best = -1;
  for (let i = 0; i < GRID_CELLS; i++) {
    if (valid[i] === 0 || !cellShowsImage(plan, tile, i % GRID_COLS, Math.floor(i / GRID_COLS), CELL)) continue;
    if (best < 0 || score(i) > score(best)) best = i;
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
  return { tile: tile.index, cell: best, x: (c + s.offsets[best * 2]) * CELL, y: (r + s.offsets[best * 2 + 1]) * CELL, score: score(best), logit: s.logits[best], prob: probs[best], mass };
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

/** The winning cell over all tiles (highest score), with every tile's own best; `blank` is the same instruction on a blank screen. */
export function combineTiles(plan: Pick<TilePlan, 'platform' | 'width' | 'height' | 'tiles'>, scores: readonly TileScores[], blank: TileScores, threshold = CONFIDENT_MARGIN, spellWeight = SPELL_WEIGHT): Combined {
  if (scores.length !== plan.tiles.length) throw new Error(`combineTiles: ${scores.length} score sets for ${plan.tiles.length} tiles.`);
  const perTile = plan.tiles.map((t, i) => bestInTile(plan, t, scores[i], spellWeight));
  let best: TileChoice | null = null;
  for (const c of perTile) if (c && (!best || c.score > best.score)) best = c;
  if (!best) throw new Error('combineTiles: no tile shows the image (the plan is inconsistent).');
  const baseline = maxLogit(plan.platform, blank);
  const margin = best.logit - baseline;
  return { best, perTile, baseline, margin, confident: margin >= threshold };
}
