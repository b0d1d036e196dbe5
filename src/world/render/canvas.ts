/** Rendering a Screen onto a fresh OffscreenCanvas at an integer or fractional scale. */
import type { Screen } from '../types';
import { renderScreen } from './draw';
import type { RenderOptions } from './painter';

export interface Rendered {
  canvas: OffscreenCanvas;
  ctx: OffscreenCanvasRenderingContext2D;
}

export function renderToCanvas(screen: Screen, scale = 1, options: RenderOptions = {}): Rendered {
  const canvas = new OffscreenCanvas(Math.round(screen.width * scale), Math.round(screen.height * scale));
  // willReadFrequently keeps the canvas on the CPU path, which is what the pixel checks and training read back.
  const ctx = canvas.getContext('2d', { willReadFrequently: true });
  if (!ctx) throw new Error('renderToCanvas: no 2d context');
  ctx.setTransform(scale, 0, 0, scale, 0, 0);
  renderScreen(ctx, screen, options);
  return { canvas, ctx };
}

export function pixelsOf(r: Rendered): Uint8ClampedArray {
  return r.ctx.getImageData(0, 0, r.canvas.width, r.canvas.height).data;
}
