/**
 * Screens → model input pixels with the real Canvas renderer, on an
 * OffscreenCanvas inside the worker (Node tests use the synthetic stand-in).
 */
import { loadWorldFonts } from '../src/world/render/fonts';
import { pixelsOf, renderToCanvas } from '../src/world/render/canvas';
import { canvasFromRgba } from '../src/models/canvas';
import type { GlyphPaint, Paint } from '../src/learn/stepCheck';
import type { Glyph } from '../src/world/cellLabels';

let fonts: Promise<number> | null = null;

export async function realPaint(): Promise<Paint> {
  await (fonts ??= loadWorldFonts());
  return (screen) => canvasFromRgba(pixelsOf(renderToCanvas(screen, 1)), screen.width, screen.height);
}

/** The same, also reporting every glyph drawn (grounder pretraining labels each cell with the letters it shows). */
export async function realGlyphPaint(): Promise<GlyphPaint> {
  await (fonts ??= loadWorldFonts());
  return (screen) => {
    const glyphs: Glyph[] = [];
    const pixels = canvasFromRgba(pixelsOf(renderToCanvas(screen, 1, { glyphs })), screen.width, screen.height);
    return { pixels, glyphs };
  };
}
