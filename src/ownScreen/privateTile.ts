/**
 * A person's screenshot with the target they marked → one grounder screen
 * for offsite tuning (issue 31's private set): the screenshot scaled as the
 * Playground grounded it (its text as tall as the world's), the tile that
 * holds the marked box best, and the box in that tile's px. Plain pixels and
 * geometry, no DOM, no tfjs: the page cuts the tiles, the worker trains on
 * them.
 */
import { readLoosely } from '../text/looseInstruction';
import type { Box, Platform } from '../world/types';
import { cutTile, flattenOnWhite, resizeRgba, type RgbaImage } from './pixels';
import { planTiles, type ScaleChoice, type Tile, type TilePlan } from './tiles';

export interface MarkedShot {
  /** The pixels read (maybe shrunk from the file: decodeImage.ts MAX_PIXELS). */
  image: RgbaImage;
  /** The file's own size, in whose px the box is given. */
  source: { width: number; height: number };
  scale: ScaleChoice;
  instruction: string;
  box: Box;
}

export interface PrivateTile {
  platform: Platform;
  rgba: Uint8Array;
  width: number;
  height: number;
  /** The instruction as the grounder reads it (quotes added as the Playground adds them). */
  instruction: string;
  /** The marked box in the tile's px, clipped to the tile. */
  box: Box;
}

const overlap = (a0: number, a1: number, b0: number, b1: number) => Math.max(0, Math.min(a1, b1) - Math.max(a0, b0));

/** The tile that holds the box wholly with its centre nearest the tile's centre; failing that, the one holding most of it. */
export function tileForBox(plan: TilePlan, box: Box): Tile {
  const inside = (t: Tile) => box.x >= t.x && box.y >= t.y && box.x + box.w <= t.x + plan.tileWidth && box.y + box.h <= t.y + plan.tileHeight;
  const off = (t: Tile) => Math.hypot(box.x + box.w / 2 - (t.x + plan.tileWidth / 2), box.y + box.h / 2 - (t.y + plan.tileHeight / 2));
  const area = (t: Tile) => overlap(box.x, box.x + box.w, t.x, t.x + plan.tileWidth) * overlap(box.y, box.y + box.h, t.y, t.y + plan.tileHeight);
  const whole = plan.tiles.filter(inside);
  const pool = whole.length > 0 ? whole : plan.tiles;
  return pool.reduce((a, b) => (whole.length > 0 ? (off(b) < off(a) ? b : a) : area(b) > area(a) ? b : a));
}

export function privateTile(s: MarkedShot): PrivateTile {
  const { image, source, box } = s;
  if (image.rgba.length !== image.width * image.height * 4) throw new Error(`The screenshot has ${image.rgba.length} bytes; ${image.width}×${image.height} RGBA needs ${image.width * image.height * 4}.`);
  if (!(box.w > 0 && box.h > 0) || box.x + box.w <= 0 || box.y + box.h <= 0 || box.x >= source.width || box.y >= source.height) {
    throw new Error(`The marked box (${box.x}, ${box.y}, ${box.w}×${box.h}) is empty or outside the ${source.width}×${source.height} screenshot; drag a box over the target.`);
  }
  const instruction = readLoosely(s.instruction);
  if (instruction === '') throw new Error('The instruction is empty; say what to click.');
  const read = image.width / source.width;
  const plan = planTiles(image.width, image.height, s.scale.kind === 'text' ? { kind: 'text', textPx: s.scale.textPx * read } : s.scale);
  // File px → scaled image px.
  const k = plan.width / source.width;
  const scaled: Box = { x: box.x * k, y: box.y * k, w: box.w * k, h: box.h * k };
  const tile = tileForBox(plan, scaled);
  const cut = cutTile(resizeRgba(flattenOnWhite(image), plan.width, plan.height), plan, tile);
  const x0 = Math.max(0, scaled.x - tile.x);
  const y0 = Math.max(0, scaled.y - tile.y);
  const x1 = Math.min(plan.tileWidth, scaled.x + scaled.w - tile.x);
  const y1 = Math.min(plan.tileHeight, scaled.y + scaled.h - tile.y);
  return { platform: plan.platform, rgba: cut.rgba, width: cut.width, height: cut.height, instruction, box: { x: x0, y: y0, w: x1 - x0, h: y1 - y0 } };
}
