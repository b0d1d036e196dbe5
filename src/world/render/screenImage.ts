/**
 * A world screen as the grounder sees it, and as a screenshot file. The
 * grounder's pixels (workers/paint.ts) and the trainer export's screenshots
 * (src/export) both come from screenRgba, so an exported image holds the
 * very RGB values the grounder was trained on, at the screen's own size
 * (no padding to the grounder's canvas; boxes are in these pixels).
 */
import { pixelHash } from './png';
import { pixelsOf, renderToCanvas } from './canvas';
import type { RenderOptions } from './painter';
import type { Screen } from '../types';
import { rgbPng } from '../../bytes/rgbPng';

/** One screenshot: PNG bytes, its size, and a hash of its RGB pixels (its file name in an export). */
export interface ScreenImage {
  png: Uint8Array;
  hash: string;
  width: number;
  height: number;
}

/** Renders screens into screenshots; the export is given one (the app's worker, or a headless page for the command line). */
export type ScreenRenderer = (screens: readonly Screen[]) => Promise<ScreenImage[]>;

/** The screen drawn at 1× on an OffscreenCanvas: RGBA bytes. Needs the world's fonts loaded (loadWorldFonts). */
export function screenRgba(screen: Screen, options: RenderOptions = {}): Uint8ClampedArray {
  return pixelsOf(renderToCanvas(screen, 1, options));
}

/** RGB pixels (alpha dropped, as canvasFromRgba drops it) as a screenshot. */
export function imageOfRgb(rgb: Uint8Array, width: number, height: number): ScreenImage {
  return { png: rgbPng(rgb, width, height), hash: pixelHash(rgb), width, height };
}

export function rgbOfRgba(rgba: Uint8ClampedArray | Uint8Array): Uint8Array {
  const rgb = new Uint8Array((rgba.length / 4) * 3);
  for (let i = 0, j = 0; i < rgba.length; i += 4, j += 3) {
    rgb[j] = rgba[i];
    rgb[j + 1] = rgba[i + 1];
    rgb[j + 2] = rgba[i + 2];
  }
  return rgb;
}

/** The screenshot of a screen with the app's renderer (in a browser, fonts loaded). */
export function screenImage(screen: Screen): ScreenImage {
  return imageOfRgb(rgbOfRgba(screenRgba(screen)), screen.width, screen.height);
}
