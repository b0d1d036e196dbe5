/**
 * The grounder's one input canvas for both platforms. Web screens (200×128)
 * and mobile screens (120×208) are both drawn at the top-left of a 200×208
 * canvas and the rest is left black; cells outside the screen are masked
 * out of the heat map (validCells). One shape for every image means mixed
 * batches, one compiled program per preset, and a point in canvas pixels is
 * a point in screen pixels, with no rescaling. The cost is padding (about
 * 40% of the cells of either platform), which was judged cheaper than
 * keeping two shapes through every training and sampling path.
 */
import { SCREEN_SIZE, type Platform } from '../world/types';

export const CELL = 8;
export const CANVAS_WIDTH = Math.max(SCREEN_SIZE.web.width, SCREEN_SIZE.mobile.width);
export const CANVAS_HEIGHT = Math.max(SCREEN_SIZE.web.height, SCREEN_SIZE.mobile.height);
export const GRID_COLS = CANVAS_WIDTH / CELL;
export const GRID_ROWS = CANVAS_HEIGHT / CELL;
export const GRID_CELLS = GRID_COLS * GRID_ROWS;
/**
 * The glyph grid: 2-px positions, four by four per cell. The grounder reads
 * which character is centred at each (a glyph is 4–6 px wide, so a cell
 * holds one or two and a cell-level label blurs them together); at 2 px a
 * glyph is never more than 1 px off a position's centre.
 */
export const GLYPH_STRIDE = 2;
export const GLYPH_COLS = CANVAS_WIDTH / GLYPH_STRIDE;
export const GLYPH_ROWS = CANVAS_HEIGHT / GLYPH_STRIDE;
export const GLYPH_POSITIONS = GLYPH_COLS * GLYPH_ROWS;
/** Floats in one image: [CANVAS_HEIGHT, CANVAS_WIDTH, 3], row-major, RGB in [0, 1]. */
export const IMAGE_FLOATS = CANVAS_HEIGHT * CANVAS_WIDTH * 3;

/** 1 for cells that lie on the platform's screen, 0 for the padding. */
export function validCells(platform: Platform): Float32Array {
  const { width, height } = SCREEN_SIZE[platform];
  const out = new Float32Array(GRID_CELLS);
  for (let r = 0; r < GRID_ROWS; r++) for (let c = 0; c < GRID_COLS; c++) out[r * GRID_COLS + c] = c * CELL < width && r * CELL < height ? 1 : 0;
  return out;
}

/** The cell containing a screen point. */
export function cellOfPoint(x: number, y: number): number {
  const c = Math.min(GRID_COLS - 1, Math.max(0, Math.floor(x / CELL)));
  const r = Math.min(GRID_ROWS - 1, Math.max(0, Math.floor(y / CELL)));
  return r * GRID_COLS + c;
}

/** A cell and an in-cell offset in [0, 1]² → a screen point. */
export function pointOfCell(cell: number, offsetX = 0.5, offsetY = 0.5): { x: number; y: number } {
  return { x: ((cell % GRID_COLS) + offsetX) * CELL, y: (Math.floor(cell / GRID_COLS) + offsetY) * CELL };
}

/**
 * Copies an RGB image of one platform's screen size (e.g. from the Canvas
 * renderer's ImageData, converted to floats) into a fresh canvas-sized array.
 */
export function placeOnCanvas(rgb: Float32Array, width: number, height: number): Float32Array {
  if (rgb.length !== width * height * 3) throw new Error(`placeOnCanvas: ${rgb.length} floats for ${width}×${height}×3`);
  const out = new Float32Array(IMAGE_FLOATS);
  for (let y = 0; y < Math.min(height, CANVAS_HEIGHT); y++) {
    out.set(rgb.subarray(y * width * 3, y * width * 3 + Math.min(width, CANVAS_WIDTH) * 3), y * CANVAS_WIDTH * 3);
  }
  return out;
}

/** RGBA bytes (ImageData.data) of a screen → canvas floats in [0, 1]; the browser's path. */
export function canvasFromRgba(rgba: Uint8ClampedArray | Uint8Array, width: number, height: number): Float32Array {
  const rgb = new Float32Array(width * height * 3);
  for (let i = 0, j = 0; i < rgba.length; i += 4, j += 3) {
    rgb[j] = rgba[i] / 255;
    rgb[j + 1] = rgba[i + 1] / 255;
    rgb[j + 2] = rgba[i + 2] / 255;
  }
  return placeOnCanvas(rgb, width, height);
}
