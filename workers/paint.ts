/**
 * Screens → model input pixels with the real Canvas renderer, on an
 * OffscreenCanvas inside the worker (Node tests use the synthetic stand-in).
 */
import { loadWorldFonts } from '../src/world/render/fonts';
import { pixelsOf, renderToCanvas } from '../src/world/render/canvas';
import { canvasFromRgba } from '../src/models/canvas';
import type { Paint } from '../src/learn/stepCheck';

let fonts: Promise<number> | null = null;

export async function realPaint(): Promise<Paint> {
  await (fonts ??= loadWorldFonts());
  return (screen, glyphs) => canvasFromRgba(pixelsOf(renderToCanvas(screen, 1, glyphs ? { glyphs } : {})), screen.width, screen.height);
}
