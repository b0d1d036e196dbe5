/** Things that hold other elements or form rows: card, dialog, nav bar, list item, menu item, tab. */
import type { Box, UIElement } from '../../types';
import { colorOf, tintOf } from '../palette';
import { childrenOf, inkFor, navBarFilled, titleDrawnByChild, type Painter } from '../painter';
import { chevron, circle, drawIcon, fillRound, hairline, roundRect, shadowRound, strokeRound } from '../shapes';
import { drawText, styleOf } from '../text';

export function paintCard(p: Painter, el: UIElement): void {
  const { ctx, colors } = p;
  const b = el.box;
  const r = p.screen.theme.corner;
  shadowRound(ctx, b, r, colors.surface, colors.shadow, 4, 1);
  strokeRound(ctx, b, r, colors.divider);
  let top = b.y;
  if (el.color) {
    // A coloured card carries its colour as a band along the top edge.
    ctx.save();
    roundRect(ctx, b, r);
    ctx.clip();
    ctx.fillStyle = colorOf(el.color, colors.dark);
    ctx.fillRect(b.x, b.y, b.w, 3);
    ctx.restore();
    top += 3;
  }
  if (el.text) {
    const pad = 5 * p.pad;
    const h = Math.min(12, b.h - 2);
    let x = b.x + pad;
    if (el.icon) {
      drawIcon(ctx, el.icon, x + 4.5, top + pad / 2 + h / 2, 9, colors.accent);
      x += 12;
    }
    drawText(p, el, el.text, { x, y: top + pad / 2, w: b.x + b.w - pad - x, h }, { color: colors.text });
  }
}

export function paintDialog(p: Painter, el: UIElement): void {
  const { ctx, colors, screen } = p;
  const b = el.box;
  ctx.fillStyle = colors.backdrop;
  ctx.fillRect(0, 0, screen.width, screen.height);
  const r = Math.max(screen.theme.corner, 6);
  shadowRound(ctx, b, r, colors.dark ? colors.raised : colors.surface, 'rgba(0,0,0,0.35)', 10, 3);
  if (el.text && !titleDrawnByChild(p.screen, el)) {
    const pad = 8 * p.pad;
    drawText(p, el, el.text, { x: b.x + pad, y: b.y + pad * 0.75, w: b.w - 2 * pad, h: Math.min(14, b.h - pad) }, { color: colors.text });
  }
}

/** The horizontal gap of a bar left free by its children, so a title never runs under a button. */
function freeSpan(bar: Box, kids: UIElement[]): { x0: number; x1: number } {
  let x0 = bar.x;
  let x1 = bar.x + bar.w;
  const mid = bar.x + bar.w / 2;
  for (const k of kids) {
    const c = k.box.x + k.box.w / 2;
    if (c < mid && k.box.x + k.box.w > x0 && k.box.x < mid) x0 = k.box.x + k.box.w;
    else if (c >= mid && k.box.x < x1 && k.box.x + k.box.w > mid) x1 = k.box.x;
  }
  return { x0, x1 };
}

export function paintNavBar(p: Painter, el: UIElement): void {
  const { ctx, colors, screen } = p;
  const b = el.box;
  const filled = navBarFilled(screen);
  if (filled) {
    const fill = el.color ? colorOf(el.color, colors.dark) : colors.accent;
    ctx.fillStyle = fill;
    ctx.fillRect(b.x, b.y, b.w, b.h);
  } else {
    ctx.fillStyle = colors.surface;
    ctx.fillRect(b.x, b.y, b.w, b.h);
    hairline(ctx, b.x, b.y + b.h - 1, b.w, colors.divider);
  }
  const ink = inkFor(p, { ...el, parent: undefined });
  const fg = filled ? colors.onAccent : ink.text;
  const kids = childrenOf(screen, el.id);
  const { x0, x1 } = freeSpan(b, kids);
  const pad = 5 * p.pad;
  let x = x0 + pad;
  const cy = b.y + b.h / 2;
  if (el.icon) {
    const s = Math.min(b.h * 0.6, 12);
    if (!filled) fillRound(ctx, { x, y: cy - s / 2 - 1, w: s + 2, h: s + 2 }, 3, colors.accent);
    drawIcon(ctx, el.icon, x + s / 2 + 1, cy, s * 0.8, colors.onAccent);
    x += s + 5;
  }
  if (el.text && x1 - pad > x && !titleDrawnByChild(p.screen, el)) {
    const style = el.icon ? { ...styleOf(p, el), weight: 700 as const } : undefined;
    drawText(p, el, el.text, { x, y: b.y, w: x1 - pad - x, h: b.h }, { color: fg, style });
  }
}

/** Leading avatar of a row: a tinted disc with the row's icon. Returns the x where the text starts. */
function leadingIcon(p: Painter, el: UIElement, size: number): number {
  const { ctx, colors } = p;
  const b = el.box;
  const pad = 6 * p.pad;
  if (!el.icon) return b.x + pad;
  const cx = b.x + pad + size / 2;
  const cy = b.y + b.h / 2;
  if (el.color) {
    circle(ctx, cx, cy, size / 2);
    ctx.fillStyle = tintOf(el.color, colors.dark, colors.surface);
    ctx.fill();
    drawIcon(ctx, el.icon, cx, cy, size * 0.62, colorOf(el.color, colors.dark));
  } else {
    drawIcon(ctx, el.icon, cx, cy, size * 0.75, colors.muted);
  }
  return b.x + pad + size + 5 * p.pad;
}

/** One or two lines ("title\nsubtitle") of a row's text, left-aligned from x. */
function rowText(p: Painter, el: UIElement, x: number, right: number, color: string): void {
  const b = el.box;
  const text = el.text ?? '';
  const nl = text.indexOf('\n');
  const style = styleOf(p, el);
  if (nl < 0 || b.h < style.size * 2.6) {
    drawText(p, el, text, { x, y: b.y, w: right - x, h: b.h }, { color });
    return;
  }
  const lineH = style.size * 1.3;
  const top = b.y + (b.h - 2 * lineH) / 2;
  drawText(p, el, text.slice(0, nl), { x, y: top, w: right - x, h: lineH }, { color, style: { weight: 600 } });
  drawText(p, el, text.slice(nl + 1), { x, y: top + lineH, w: right - x, h: lineH }, {
    color: p.colors.muted,
    style: { weight: 400, size: style.size - 0.5 },
  });
}

export function paintListItem(p: Painter, el: UIElement): void {
  const { ctx, colors } = p;
  const b = el.box;
  ctx.fillStyle = el.state.selected ? colors.accentTint : colors.surface;
  ctx.fillRect(b.x, b.y, b.w, b.h);
  const size = Math.min(b.h - 6, 16);
  // Layout may place the row's icon and second line as child elements; the row's
  // own text then goes beside the icon and above the second line, never under them.
  const kids = childrenOf(p.screen, el.id);
  const lead = kids.find((k) => k.role === 'image' && k.box.x < b.x + b.w / 3);
  let x = leadingIcon(p, el, size);
  if (lead) x = Math.max(x, lead.box.x + lead.box.w + 4 * p.pad);
  const below = kids.find((k) => k.role === 'text' && k.box.y >= b.y + b.h / 2 - 1 && k.box.x <= x + 2);
  hairline(ctx, el.icon || lead ? x : b.x, b.y + b.h - 1, b.x + b.w - (el.icon || lead ? x : b.x), colors.divider);
  const pad = 6 * p.pad;
  let right = b.x + b.w - pad;
  if (el.state.checked) {
    drawIcon(ctx, 'check', right - 4, b.y + b.h / 2, 9, colors.accent);
    right -= 12;
  } else if (el.interactive && p.screen.platform === 'mobile') {
    chevron(ctx, right - 2, b.y + b.h / 2, 2.4, 'right', colors.muted);
    right -= 8;
  }
  const beside = kids.filter((k) => k !== lead && k !== below && k.box.x > x + 4);
  if (beside.length > 0) right = Math.min(right, Math.min(...beside.map((k) => k.box.x)) - 3);
  if (!el.text) return;
  if (below && !el.text.includes('\n')) {
    drawText(p, el, el.text, { x, y: b.y + 1, w: right - x, h: below.box.y - b.y - 1 }, { color: colors.text });
  } else {
    rowText(p, el, x, right, colors.text);
  }
}

export function paintMenuItem(p: Painter, el: UIElement): void {
  const { ctx, colors } = p;
  const b = el.box;
  const bg = colors.dark ? colors.raised : colors.surface;
  ctx.fillStyle = el.state.selected ? colors.accentTint : bg;
  ctx.fillRect(b.x, b.y, b.w, b.h);
  const size = Math.min(b.h - 4, 11);
  const pad = 6 * p.pad;
  let x = b.x + pad;
  if (el.icon) {
    drawIcon(ctx, el.icon, x + size / 2, b.y + b.h / 2, size, el.color ? colorOf(el.color, colors.dark) : colors.muted);
    x += size + 5;
  }
  if (el.text) drawText(p, el, el.text, { x, y: b.y, w: b.x + b.w - pad - x, h: b.h }, { color: el.color ? colorOf(el.color, colors.dark) : colors.text });
}

export function paintTab(p: Painter, el: UIElement): void {
  const { ctx, colors } = p;
  const b = el.box;
  const ink = inkFor(p, el);
  const on = Boolean(el.state.selected);
  const color = on ? ink.accent : ink.muted;
  if (ink.text === colors.text) hairline(ctx, b.x, b.y + b.h - 1, b.w, colors.divider);
  const barH = 2;
  const area = { x: b.x + 2, y: b.y, w: b.w - 4, h: b.h - barH };
  if (el.icon && el.text && b.h >= 20) {
    const s = Math.min(10, b.h * 0.4);
    drawIcon(ctx, el.icon, b.x + b.w / 2, b.y + s / 2 + 2, s, color);
    drawText(p, el, el.text, { ...area, y: b.y + s + 3, h: b.h - s - 3 - barH }, { color, align: 'center' });
  } else if (el.text) {
    drawText(p, el, el.text, area, { color, align: 'center', style: on ? undefined : { weight: 500 } });
  } else if (el.icon) {
    drawIcon(ctx, el.icon, b.x + b.w / 2, b.y + (b.h - barH) / 2, Math.min(11, b.h * 0.6), color);
  }
  if (on) {
    const inset = Math.min(b.w * 0.18, 8);
    fillRound(ctx, { x: b.x + inset, y: b.y + b.h - barH, w: b.w - 2 * inset, h: barH }, 1, ink.accent);
  }
}
