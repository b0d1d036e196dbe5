/**
 * The Node stand-in for the real renderer. Node has no Canvas, so unit tests
 * feed the grounder this deterministic painting of a Screen instead: theme
 * background, element boxes filled by colour or role, borders, a 3×5 glyph
 * per character of the element's text (each character its own fixed bitmap,
 * so text is readable in principle) and a 5×5 mark per icon, all at the
 * elements' true boxes. In the browser the grounder sees the real Canvas 2D
 * rendering (src/world/render) converted with canvasFromRgba; models trained
 * on one do not transfer to the other.
 */
import { PALETTE } from '../world/render/palette';
import { shownText } from '../world/cellLabels';
import { hashString } from '../learn/random';
import type { Screen, UIElement, Role } from '../world/types';
import type { Glyph } from '../world/render/painter';
import { CANVAS_HEIGHT, CANVAS_WIDTH, IMAGE_FLOATS } from './canvas';

type RGB = [number, number, number];

function hexRgb(hex: string): RGB {
  const n = parseInt(hex.slice(1), 16);
  return [((n >> 16) & 255) / 255, ((n >> 8) & 255) / 255, (n & 255) / 255];
}

/** Each role gets its own fill, so roles are visible as in real UIs (buttons filled, links bare …). */
function roleFill(role: Role, dark: boolean): RGB | null {
  const shade = (l: number): RGB => (dark ? [1 - l, 1 - l, 1 - l * 0.9] : [l, l, l * 0.98]);
  switch (role) {
    case 'button':
      return dark ? [0.25, 0.35, 0.6] : [0.75, 0.82, 0.95];
    case 'icon-button':
    case 'back-button':
      return shade(0.88);
    case 'text-field':
    case 'search-box':
    case 'dropdown':
      return shade(1);
    case 'checkbox':
    case 'radio':
    case 'switch':
      return shade(0.8);
    case 'tab':
    case 'nav-bar':
      return shade(0.9);
    case 'card':
    case 'dialog':
    case 'list-item':
    case 'menu-item':
    case 'option':
      return shade(0.97);
    case 'app-icon':
      return dark ? [0.3, 0.5, 0.4] : [0.6, 0.8, 0.7];
    case 'slider':
      return shade(0.7);
    case 'image':
      return shade(0.6);
    default:
      return null; // text, headings and links are drawn as text only
  }
}

class Painter {
  readonly data = new Float32Array(IMAGE_FLOATS);
  constructor(
    private readonly width: number,
    private readonly height: number,
  ) {}

  rect(x: number, y: number, w: number, h: number, c: RGB): void {
    const x0 = Math.max(0, Math.round(x));
    const y0 = Math.max(0, Math.round(y));
    const x1 = Math.min(this.width, Math.round(x + w));
    const y1 = Math.min(this.height, Math.round(y + h));
    for (let yy = y0; yy < y1; yy++) {
      for (let xx = x0; xx < x1; xx++) {
        const i = (yy * CANVAS_WIDTH + xx) * 3;
        this.data[i] = c[0];
        this.data[i + 1] = c[1];
        this.data[i + 2] = c[2];
      }
    }
  }

  outline(x: number, y: number, w: number, h: number, c: RGB): void {
    this.rect(x, y, w, 1, c);
    this.rect(x, y + h - 1, w, 1, c);
    this.rect(x, y, 1, h, c);
    this.rect(x + w - 1, y, 1, h, c);
  }

  /** A bitmap of `bits` (row-major, w×h) at (x, y), clipped to `clip`. */
  bitmap(bits: number, w: number, h: number, x: number, y: number, c: RGB, clip: { x: number; y: number; w: number; h: number }): void {
    for (let r = 0; r < h; r++) {
      for (let q = 0; q < w; q++) {
        if (!((bits >>> (r * w + q)) & 1)) continue;
        const px = x + q;
        const py = y + r;
        if (px < clip.x || py < clip.y || px >= clip.x + clip.w || py >= clip.y + clip.h) continue;
        this.rect(px, py, 1, 1, c);
      }
    }
  }
}

/** A fixed 3×5 bitmap per character (15 bits, never blank), from its code: same letter, same glyph. */
function glyphBits(ch: string): number {
  return (hashString(`glyph:${ch}`) & 0x7fff) | 0x2; // keep one pixel on so every glyph shows
}

function iconBits(icon: string): number {
  return (hashString(`icon:${icon}`) & 0x1ffffff) | 0x1000; // 5×5, centre pixel on
}

function paintElement(p: Painter, e: UIElement, dark: boolean, ink: RGB, glyphs?: Glyph[]): void {
  const { x, y, w, h } = e.box;
  const fill = e.color ? hexRgb(dark ? PALETTE[e.color].bright : PALETTE[e.color].base) : roleFill(e.role, dark);
  if (fill) p.rect(x, y, w, h, fill);
  if (e.interactive && fill) p.outline(x, y, w, h, dark ? [0.55, 0.55, 0.6] : [0.45, 0.47, 0.5]);
  const onFill: RGB = fill && (fill[0] + fill[1] + fill[2]) / 3 < 0.55 ? [1, 1, 1] : ink;
  if (e.state.checked) p.rect(x + 2, y + 2, Math.max(2, Math.min(w, h) - 4), Math.max(2, Math.min(w, h) - 4), onFill);
  if (e.state.selected || e.state.focused) p.rect(x, y + h - 2, w, 2, dark ? [0.5, 0.7, 1] : [0.15, 0.35, 0.85]);
  if (e.state.level !== undefined) p.rect(x, y + h / 2 - 1, w * e.state.level, 3, onFill);
  let cx = x + 2;
  if (e.icon) {
    p.bitmap(iconBits(e.icon), 5, 5, Math.round(x + 2), Math.round(y + h / 2 - 2.5), onFill, e.box);
    cx += 7;
  }
  // The text the reading labels describe (cellLabels.shownText: a field's value, else its text or label;
  // containers' titles are drawn by a child), squeezed to fit as the Canvas renderer's maxWidth does, so
  // that every labelled letter is on screen.
  const text = shownText(e);
  if (text) {
    const ty = Math.round(y + h / 2 - 2.5);
    const chars = [...text];
    const pitch = Math.min(4, Math.max(1, (x + w - 1 - cx) / chars.length));
    for (const ch of chars) {
      if (ch !== ' ') {
        const gx = Math.round(cx);
        p.bitmap(glyphBits(ch), 3, 5, gx, ty, onFill, e.box);
        if (glyphs && gx + 1.5 >= e.box.x && gx + 1.5 < e.box.x + e.box.w) glyphs.push({ element: e.id, char: ch, x: gx + 1.5, top: ty, bottom: ty + 5 });
      }
      cx += pitch;
    }
  }
}

/** The screen painted into a canvas-sized RGB array (see canvas.ts), deterministic; `glyphs` as for Paint. */
export function syntheticScreenImage(screen: Screen, glyphs?: Glyph[]): Float32Array {
  const p = new Painter(Math.min(screen.width, CANVAS_WIDTH), Math.min(screen.height, CANVAS_HEIGHT));
  const dark = screen.theme.mode === 'dark';
  p.rect(0, 0, screen.width, screen.height, dark ? [0.07, 0.075, 0.085] : [0.965, 0.97, 0.975]);
  const ink: RGB = dark ? [0.95, 0.95, 0.96] : [0.08, 0.09, 0.11];
  for (const e of screen.elements) paintElement(p, e, dark, ink, glyphs);
  return p.data;
}
