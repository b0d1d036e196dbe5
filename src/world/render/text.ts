/**
 * Text on widgets: which text an element shows, in which font, and drawing it
 * so that it always stays inside the element's box (clipped to the box and
 * squeezed with fillText's maxWidth when it is too long).
 */
import type { Box, Role, TextStyle, UIElement } from '../types';
import type { Glyph, Painter } from './painter';

/** The text an element paints, or undefined when it paints none. Fields show their value, else a placeholder. */
export function visibleText(el: UIElement): string | undefined {
  switch (el.role) {
    case 'text-field':
    case 'search-box':
    case 'dropdown':
      return el.state.value || el.text || el.label || undefined;
    case 'slider':
    case 'image':
      return undefined;
    default:
      return el.text || undefined;
  }
}

type Weight = TextStyle['weight'];

/** Default size (comfortable density) and weight of each role's text. */
const ROLE_TEXT: Record<Role, { size: number; weight: Weight }> = {
  'heading': { size: 10.5, weight: 700 },
  'nav-bar': { size: 9, weight: 600 },
  'dialog': { size: 9, weight: 700 },
  'card': { size: 8, weight: 600 },
  'button': { size: 7.5, weight: 600 },
  'tab': { size: 7.5, weight: 600 },
  'link': { size: 7.5, weight: 500 },
  'list-item': { size: 7.5, weight: 500 },
  'text': { size: 7.5, weight: 400 },
  'menu-item': { size: 7.5, weight: 400 },
  'option': { size: 7.5, weight: 400 },
  'text-field': { size: 7.5, weight: 400 },
  'search-box': { size: 7.5, weight: 400 },
  'dropdown': { size: 7.5, weight: 400 },
  'checkbox': { size: 7.5, weight: 400 },
  'switch': { size: 7.5, weight: 400 },
  'radio': { size: 7.5, weight: 400 },
  'icon-button': { size: 6.5, weight: 500 },
  'back-button': { size: 7.5, weight: 500 },
  'app-icon': { size: 6.5, weight: 500 },
  'slider': { size: 7, weight: 400 },
  'image': { size: 7, weight: 400 },
};

/** The element's text style: its own when given, else the theme font at the role's size for this density. */
export function styleOf(p: Painter, el: UIElement): TextStyle {
  if (el.style) return el.style;
  const d = ROLE_TEXT[el.role];
  const compact = p.screen.theme.density === 'compact';
  const mobileBoost = p.screen.platform === 'mobile' && el.role === 'heading' ? 1 : 0;
  return { family: p.screen.theme.font, size: d.size + mobileBoost - (compact ? 0.5 : 0), weight: d.weight };
}

export function fontString(s: TextStyle): string {
  return `${s.weight} ${s.size}px "${s.family}"`;
}

/** Cap height as a fraction of the font size (close for all three families); centres text on its caps. */
const CAP = 0.72;

export interface TextOptions {
  align?: 'left' | 'center' | 'right';
  color: string;
  style?: Partial<TextStyle>;
  underline?: boolean;
}

/** The style a line will be drawn in, shrunk so that its glyphs fit the area's height. */
export function fitStyle(p: Painter, el: UIElement, area: Box, override?: Partial<TextStyle>): TextStyle {
  const s = { ...styleOf(p, el), ...override };
  return { ...s, size: Math.max(4, Math.min(s.size, area.h * 0.8)) };
}

export function measure(p: Painter, text: string, style: TextStyle): number {
  p.ctx.font = fontString(style);
  return p.ctx.measureText(text).width;
}

/**
 * Where each character of a line lands, as fillText draws it: prefix widths
 * from measureText, squeezed to maxWidth about the alignment point; glyphs
 * whose centre the element's box clips away are left out.
 */
function reportGlyphs(p: Painter, el: UIElement, line: string, style: TextStyle, at: { x: number; align: 'left' | 'center' | 'right'; baseline: number; maxW: number }, sink: Glyph[]): void {
  const chars = [...line];
  const full = measure(p, line, style);
  if (full <= 0) return;
  const squeeze = Math.min(1, at.maxW / full);
  const left = at.align === 'left' ? at.x : at.align === 'center' ? at.x - (full * squeeze) / 2 : at.x - full * squeeze;
  const top = at.baseline - style.size * CAP;
  const b = el.box;
  let before = 0;
  let prefix = '';
  for (const ch of chars) {
    prefix += ch;
    const after = measure(p, prefix, style);
    const x = left + ((before + after) / 2) * squeeze;
    if (x >= b.x && x < b.x + b.w) sink.push({ element: el.id, char: ch, x, top: Math.max(top, b.y), bottom: Math.min(at.baseline, b.y + b.h) });
    before = after;
  }
}

/**
 * Draws one line of an element's text vertically centred in `area` and
 * returns the width it takes. The drawing is clipped to the element's box, so
 * no glyph pixel can land outside it.
 */
export function drawText(p: Painter, el: UIElement, text: string, area: Box, o: TextOptions): number {
  const { ctx } = p;
  const line = text.replace(/\s*\n\s*/g, ' ');
  const style = fitStyle(p, el, area, o.style);
  const maxW = Math.max(1, area.w);
  const width = Math.min(measure(p, line, style), maxW);
  if (p.options.hideTextOf === el.id) return width;
  const align = o.align ?? 'left';
  const x = align === 'left' ? area.x : align === 'center' ? area.x + area.w / 2 : area.x + area.w;
  const baseline = area.y + area.h / 2 + (style.size * CAP) / 2;
  ctx.save();
  ctx.beginPath();
  ctx.rect(el.box.x, el.box.y, el.box.w, el.box.h);
  ctx.clip();
  ctx.font = fontString(style);
  ctx.textAlign = align;
  ctx.textBaseline = 'alphabetic';
  ctx.fillStyle = o.color;
  ctx.fillText(line, x, baseline, maxW);
  if (p.options.glyphs) reportGlyphs(p, el, line, style, { x, align, baseline, maxW }, p.options.glyphs);
  if (o.underline) {
    const left = align === 'left' ? x : align === 'center' ? x - width / 2 : x - width;
    ctx.fillRect(left, Math.round(baseline + Math.max(1, style.size * 0.12)), width, Math.max(0.6, style.size / 12));
  }
  ctx.restore();
  return width;
}
