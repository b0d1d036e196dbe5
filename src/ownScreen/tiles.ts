/**
 * Where a person's screenshot is cut into the grounder's screens. The
 * grounder was trained on the world's screens, 200×128 (web) or 120×208
 * (mobile), whose body text is 7–8 px tall (world/theme.ts metricsFor).
 * Squeezing a 1280×800 screenshot into one such screen turns 14-px labels
 * into 2-px smudges, so by default the screenshot is scaled until its text
 * is about as tall as the world's ("native" scale) and cut into overlapping
 * screen-sized tiles, each grounded on its own. Plain geometry, no DOM, no
 * tfjs.
 */
import { SCREEN_SIZE, type Platform } from '../world/types';

/** The world's body text size in px (metricsFor: 8 normal, 7 compact). */
export const WORLD_TEXT_PX = 8;
/** The text size assumed for a screenshot when the person does not say: desktop web pages and apps mostly set 13–16 px. */
export const DEFAULT_TEXT_PX = 14;
/**
 * Tiles overlap by this much (px of the scaled image), so that any widget up
 * to this size (a world button is 12 px tall and 30–60 px wide) lies
 * wholly inside at least one tile.
 */
export const TILE_OVERLAP = { x: 64, y: 40 } as const;
/** At most this many tiles (about 10 s of the tiny grounder on WASM); beyond it the scale is lowered, and the answer says so. */
export const MAX_TILES = 48;

/**
 * How the screenshot is brought to the grounder: 'fit' squeezes all of it
 * into one screen (letterboxed, as before native scale), 'text' scales it so
 * that text of `textPx` becomes WORLD_TEXT_PX tall.
 */
export type ScaleChoice = { kind: 'fit' } | { kind: 'text'; textPx: number };

/** A tile: where the grounder's screen lies on the scaled image (x, y may be negative: the image is centred in a larger screen). */
export interface Tile {
  index: number;
  row: number;
  col: number;
  x: number;
  y: number;
}

export interface TilePlan {
  platform: Platform;
  /** Scaled image px per source image px. */
  scale: number;
  /** The scaled image's size. */
  width: number;
  height: number;
  tileWidth: number;
  tileHeight: number;
  rows: number;
  cols: number;
  tiles: Tile[];
  /** Why the scale differs from the one asked for (too many tiles), or null. */
  lowered: string | null;
}

/** Landscape images are cut into web screens, portrait ones into mobile screens. */
export function tilePlatform(width: number, height: number): Platform {
  return width >= height ? 'web' : 'mobile';
}

/** Start positions of tiles of length `tile` covering `length` with overlap at least `overlap`, evenly spread, the last flush with the end. */
export function tileStarts(length: number, tile: number, overlap: number): number[] {
  if (length <= tile) return [0 - Math.floor((tile - length) / 2)]; // 0 − …, not −…: no −0
  const stride = tile - overlap;
  const n = Math.ceil((length - tile) / stride) + 1;
  return Array.from({ length: n }, (_, i) => Math.round((i * (length - tile)) / (n - 1)));
}

const scaledLength = (length: number, scale: number) => Math.max(1, Math.round(length * scale));

/** The plan for an image of width × height: its scale, its scaled size and its tiles. */
export function planTiles(width: number, height: number, choice: ScaleChoice, platform: Platform = tilePlatform(width, height)): TilePlan {
  if (!(width >= 1 && height >= 1 && Number.isInteger(width) && Number.isInteger(height))) throw new Error(`planTiles: the image must be at least 1×1 whole pixels; got ${width}×${height}.`);
  const { width: tw, height: th } = SCREEN_SIZE[platform];
  const fitScale = Math.min(tw / width, th / height);
  if (choice.kind === 'text' && !(choice.textPx > 0 && Number.isFinite(choice.textPx))) throw new Error(`planTiles: textPx must be a positive number; got ${choice.textPx}.`);
  let scale = choice.kind === 'fit' ? fitScale : WORLD_TEXT_PX / choice.textPx;
  let lowered: string | null = null;
  const count = (s: number) => tileStarts(scaledLength(width, s), tw, TILE_OVERLAP.x).length * tileStarts(scaledLength(height, s), th, TILE_OVERLAP.y).length;
  if (count(scale) > MAX_TILES) {
    const asked = scale;
    // Lower the scale step by step (5% each) until the tiles fit the budget; never below fitting the whole image in one screen.
    while (count(scale) > MAX_TILES && scale * 0.95 > fitScale) scale *= 0.95;
    if (count(scale) > MAX_TILES) scale = fitScale;
    lowered = `At ×${asked.toFixed(2)} the image needs ${count(asked)} tiles, more than the ${MAX_TILES} grounded at most, so it was scaled by ×${scale.toFixed(2)} instead (text comes out smaller than the world's).`;
  }
  const w = scaledLength(width, scale);
  const h = scaledLength(height, scale);
  const xs = tileStarts(w, tw, TILE_OVERLAP.x);
  const ys = tileStarts(h, th, TILE_OVERLAP.y);
  const tiles: Tile[] = [];
  ys.forEach((y, row) => xs.forEach((x, col) => tiles.push({ index: tiles.length, row, col, x, y })));
  return { platform, scale, width: w, height: h, tileWidth: tw, tileHeight: th, rows: ys.length, cols: xs.length, tiles, lowered };
}

/** A point in a tile's screen px → the same point in the source image's px, kept inside the image. */
export function toImagePoint(plan: Pick<TilePlan, 'scale' | 'width' | 'height'>, tile: Pick<Tile, 'x' | 'y'>, px: number, py: number, source: { width: number; height: number }): { x: number; y: number } {
  const sx = Math.min(plan.width, Math.max(0, tile.x + px));
  const sy = Math.min(plan.height, Math.max(0, tile.y + py));
  return { x: Math.min(source.width, (sx * source.width) / plan.width), y: Math.min(source.height, (sy * source.height) / plan.height) };
}

/** A tile's rectangle in the source image's px (clipped to the image). */
export function tileInImage(plan: TilePlan, tile: Pick<Tile, 'x' | 'y'>, source: { width: number; height: number }): { x: number; y: number; width: number; height: number } {
  const a = toImagePoint(plan, tile, 0, 0, source);
  const b = toImagePoint(plan, tile, plan.tileWidth, plan.tileHeight, source);
  return { x: a.x, y: a.y, width: b.x - a.x, height: b.y - a.y };
}

/** Whether a tile's cell (of `cell` px, at col c, row r of the screen) shows any of the scaled image. */
export function cellShowsImage(plan: Pick<TilePlan, 'width' | 'height'>, tile: Pick<Tile, 'x' | 'y'>, c: number, r: number, cell: number): boolean {
  const x0 = tile.x + c * cell;
  const y0 = tile.y + r * cell;
  return x0 + cell > 0 && y0 + cell > 0 && x0 < plan.width && y0 < plan.height;
}
