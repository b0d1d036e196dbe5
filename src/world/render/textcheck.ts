/**
 * Checks that every element's text is really painted, legibly, and only
 * inside its own box: render the screen with and without that one element's
 * text and compare the pixels.
 */
import type { Box, Role, Screen, UIElement } from '../types';
import { pixelsOf, renderToCanvas } from './canvas';
import { visibleText } from './text';
import { titleDrawnByChild, type Glyph } from './painter';

export interface TextCheck {
  id: string;
  inside: number; // changed pixels inside the box
  outside: number; // changed pixels outside it (must be 0)
  contrast: number; // largest luma change (0–1) the text makes
  occluded: boolean; // behind a dialog or under a later opaque element, so no legible pixels are expected
  glyphs: number; // glyphs the renderer reported for this element's text (spaces left out)
  offInk: number; // of those, how many have none of the text's pixels within GLYPH_REACH of where they were reported
}

/** How far (px) from a reported glyph's centre and line band the text's own pixels must be found. */
export const GLYPH_REACH = 2;

/** Roles painted opaque over their whole box. */
const OPAQUE: ReadonlySet<Role> = new Set<Role>(['dialog', 'card', 'nav-bar', 'list-item', 'menu-item', 'option']);

function contains(outer: Box, inner: Box): boolean {
  return outer.x <= inner.x && outer.y <= inner.y && outer.x + outer.w >= inner.x + inner.w && outer.y + outer.h >= inner.y + inner.h;
}

/** Behind a later dialog (dimmed, mostly hidden) or wholly under a later opaque element: no legible text is expected. */
function occluded(screen: Screen, i: number): boolean {
  const box = screen.elements[i].box;
  return screen.elements.slice(i + 1).some((e) => e.role === 'dialog' || (OPAQUE.has(e.role) && contains(e.box, box)));
}

/** Minimum luma change for text to count as legible. */
export const MIN_TEXT_CONTRAST = 0.25;

function luma(d: Uint8ClampedArray, i: number): number {
  return (0.299 * d[i] + 0.587 * d[i + 1] + 0.114 * d[i + 2]) / 255;
}

export function checkTexts(screen: Screen): TextCheck[] {
  const glyphs: Glyph[] = [];
  const full = pixelsOf(renderToCanvas(screen, 1, { glyphs }));
  const W = screen.width;
  const out: TextCheck[] = [];
  screen.elements.forEach((el: UIElement, index) => {
    if (!visibleText(el) || titleDrawnByChild(screen, el)) return;
    const bare = pixelsOf(renderToCanvas(screen, 1, { hideTextOf: el.id }));
    const b = el.box;
    let inside = 0;
    let outside = 0;
    let contrast = 0;
    for (let i = 0; i < full.length; i += 4) {
      if (full[i] === bare[i] && full[i + 1] === bare[i + 1] && full[i + 2] === bare[i + 2]) continue;
      const px = (i / 4) % W;
      const py = Math.floor(i / 4 / W);
      if (px + 1 > b.x && px < b.x + b.w && py + 1 > b.y && py < b.y + b.h) {
        inside++;
        contrast = Math.max(contrast, Math.abs(luma(full, i) - luma(bare, i)));
      } else {
        outside++;
      }
    }
    // Every glyph reported for this text must sit on pixels the text changed, or labels made from them would lie.
    const own = glyphs.filter((g) => g.element === el.id && g.char.trim() !== '');
    const changedNear = (g: Glyph): boolean => {
      for (let py = Math.max(0, Math.floor(g.top - GLYPH_REACH)); py <= Math.min(screen.height - 1, g.bottom + GLYPH_REACH); py++) {
        for (let px = Math.max(0, Math.floor(g.x - GLYPH_REACH)); px <= Math.min(W - 1, g.x + GLYPH_REACH); px++) {
          const i = (py * W + px) * 4;
          if (full[i] !== bare[i] || full[i + 1] !== bare[i + 1] || full[i + 2] !== bare[i + 2]) return true;
        }
      }
      return false;
    };
    const offInk = own.filter((g) => !changedNear(g)).length;
    out.push({ id: el.id, inside, outside, contrast, occluded: occluded(screen, index), glyphs: own.length, offInk });
  });
  return out;
}

export function textCheckFailures(checks: TextCheck[]): string[] {
  return checks.flatMap((c) => {
    const f: string[] = [];
    if (c.outside > 0) f.push(`${c.id}: ${c.outside} text pixels outside its box`);
    if (!c.occluded && c.inside === 0) f.push(`${c.id}: no text pixels inside its box`);
    if (!c.occluded && c.inside > 0 && c.contrast < MIN_TEXT_CONTRAST) f.push(`${c.id}: text contrast ${c.contrast.toFixed(2)}`);
    if (!c.occluded && c.offInk > 0) f.push(`${c.id}: ${c.offInk} of ${c.glyphs} reported glyphs on none of the text's pixels`);
    if (!c.occluded && c.inside > 0 && c.glyphs === 0) f.push(`${c.id}: text painted but no glyph reported`);
    return f;
  });
}
