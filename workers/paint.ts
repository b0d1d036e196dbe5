/**
 * Screens → model input pixels with the real Canvas renderer, on an
 * OffscreenCanvas inside the worker (Node tests use the synthetic stand-in),
 * and → screenshots for the trainer export, from the same pixels.
 */
import { loadWorldFonts } from '../src/world/render/fonts';
import { screenImage, screenRgba, type ScreenRenderer } from '../src/world/render/screenImage';
import { canvasFromRgba } from '../src/models/canvas';
import type { Paint } from '../src/learn/stepCheck';

let fonts: Promise<number> | null = null;

export async function realPaint(): Promise<Paint> {
  await (fonts ??= loadWorldFonts());
  return (screen, glyphs) => canvasFromRgba(screenRgba(screen, glyphs ? { glyphs } : {}), screen.width, screen.height);
}

export async function realScreenImages(): Promise<ScreenRenderer> {
  await (fonts ??= loadWorldFonts());
  return async (screens) => screens.map(screenImage);
}
