/** Buttons and other pressable things: button, icon button, link, back button, app icon. */
import type { ColorName, UIElement } from '../../types';
import { COLOR_NAMES, colorOf, mix, onColor } from '../palette';
import { inkFor, type Painter } from '../painter';
import { circle, drawIcon, fillRound, roundRect, strokeRound } from '../shapes';
import { drawText, fitStyle, measure } from '../text';

const QUIET_WORDS = new Set(['cancel', 'close', 'back', 'not now', 'discard', 'skip', 'no', 'later', 'dismiss']);

type ButtonLook = 'filled' | 'tonal' | 'outlined';

/** A coloured button is always filled; otherwise the site variant picks the look, and dismissive words get the quiet one. */
function lookOf(p: Painter, el: UIElement): ButtonLook {
  if (el.color) return 'filled';
  if (el.text && QUIET_WORDS.has(el.text.trim().toLowerCase())) return 'outlined';
  return (['filled', 'tonal', 'filled', 'outlined'] as const)[p.screen.variant % 4];
}

export function paintButton(p: Painter, el: UIElement): void {
  const { ctx, colors } = p;
  const b = el.box;
  const radius = Math.min(p.screen.theme.corner, b.h / 2);
  const fill = el.color ? colorOf(el.color, colors.dark) : colors.accent;
  const look = lookOf(p, el);
  let ink: string;
  if (look === 'filled') {
    fillRound(ctx, b, radius, fill);
    ink = onColor(fill);
  } else if (look === 'tonal') {
    fillRound(ctx, b, radius, colors.accentTint);
    ink = colors.dark ? colors.accent : mix(colors.accent, '#000000', 0.15);
  } else {
    fillRound(ctx, b, radius, colors.surface);
    strokeRound(ctx, b, radius, colors.border);
    ink = colors.accent;
  }
  const iconSize = Math.min(b.h * 0.58, 11);
  if (!el.text) {
    if (el.icon) drawIcon(ctx, el.icon, b.x + b.w / 2, b.y + b.h / 2, iconSize, ink);
    return;
  }
  const style = fitStyle(p, el, b);
  const gap = el.icon ? iconSize + 2.5 : 0;
  // Padding shrinks before the label is squeezed, as a real button's would.
  const padX = Math.max(2, Math.min(6 * p.pad, (b.w - gap - measure(p, el.text, style)) / 2));
  const inner = { x: b.x + padX, y: b.y, w: b.w - 2 * padX, h: b.h };
  const textW = Math.min(measure(p, el.text, style), inner.w - gap);
  const left = b.x + (b.w - textW - gap) / 2;
  if (el.icon) drawIcon(ctx, el.icon, left + iconSize / 2, b.y + b.h / 2, iconSize, ink);
  drawText(p, el, el.text, { x: left + gap, y: b.y, w: textW, h: b.h }, { color: ink, style });
}

export function paintIconButton(p: Painter, el: UIElement): void {
  const { ctx, colors } = p;
  const b = el.box;
  const ink = inkFor(p, el);
  const cx = b.x + b.w / 2;
  if (el.color) {
    // A coloured icon button is a floating action button: a filled disc with a light glyph.
    const fill = colorOf(el.color, colors.dark);
    const r = Math.min(b.w, b.h) / 2;
    ctx.save();
    ctx.shadowColor = colors.shadow;
    ctx.shadowBlur = 3;
    ctx.shadowOffsetY = 1;
    circle(ctx, cx, b.y + b.h / 2, r - 0.5);
    ctx.fillStyle = fill;
    ctx.fill();
    ctx.restore();
    if (el.icon) drawIcon(ctx, el.icon, cx, b.y + b.h / 2, r * 1.1, onColor(fill));
    return;
  }
  const color = el.state.selected || el.state.checked ? ink.accent : ink.muted;
  if (el.text && b.h >= 16) {
    // Bottom-navigation style: glyph above, caption below.
    const labelH = Math.min(8, b.h * 0.38);
    const size = Math.min(b.h - labelH - 2, b.w * 0.6, 12);
    if (el.icon) drawIcon(ctx, el.icon, cx, b.y + (b.h - labelH) / 2 + 0.5, size, color);
    drawText(p, el, el.text, { x: b.x, y: b.y + b.h - labelH - 1, w: b.w, h: labelH }, { color, align: 'center' });
    return;
  }
  if (el.text) {
    const size = Math.min(b.h * 0.7, 11);
    if (el.icon) drawIcon(ctx, el.icon, b.x + size / 2 + 1, b.y + b.h / 2, size, color);
    drawText(p, el, el.text, { x: b.x + size + 3, y: b.y, w: b.w - size - 4, h: b.h }, { color });
    return;
  }
  if (el.icon) drawIcon(ctx, el.icon, cx, b.y + b.h / 2, Math.min(b.w, b.h) * 0.7, color);
}

export function paintLink(p: Painter, el: UIElement): void {
  const b = el.box;
  const ink = inkFor(p, el);
  // On a filled bar the link takes the bar's ink: its own colour could be the bar's.
  const onBar = ink.accent !== p.colors.accent;
  const color = el.color && !onBar ? colorOf(el.color, p.colors.dark) : ink.accent;
  let x = b.x;
  if (el.icon) {
    const size = Math.min(b.h * 0.8, 10);
    drawIcon(p.ctx, el.icon, x + size / 2, b.y + b.h / 2, size, color);
    x += size + 2;
  }
  if (el.text) {
    drawText(p, el, el.text, { x, y: b.y, w: b.x + b.w - x, h: b.h }, { color, underline: p.screen.platform === 'web' });
  }
}

export function paintBackButton(p: Painter, el: UIElement): void {
  const b = el.box;
  const ink = inkFor(p, el);
  const size = Math.min(b.h * 0.7, 12);
  if (!el.text) {
    drawIcon(p.ctx, el.icon ?? 'back', b.x + b.w / 2, b.y + b.h / 2, Math.min(size, b.w * 0.8), ink.text);
    return;
  }
  drawIcon(p.ctx, el.icon ?? 'back', b.x + size / 2, b.y + b.h / 2, size, ink.accent);
  drawText(p, el, el.text, { x: b.x + size + 1, y: b.y, w: b.w - size - 1, h: b.h }, { color: ink.accent });
}

/** Stable colour for an app without one, from its name (no randomness). */
function colorForName(name: string): ColorName {
  let h = 2166136261;
  for (let i = 0; i < name.length; i++) h = Math.imul(h ^ name.charCodeAt(i), 16777619);
  const hues = COLOR_NAMES.filter((c) => c !== 'gray');
  return hues[(h >>> 0) % hues.length];
}

export function paintAppIcon(p: Painter, el: UIElement): void {
  const { ctx } = p;
  const b = el.box;
  const labelH = el.text && b.h > b.w * 0.9 ? Math.min(9, b.h * 0.3) : 0;
  const side = Math.min(b.w, b.h - labelH) * 0.86;
  const x = b.x + (b.w - side) / 2;
  const y = b.y + (b.h - labelH - side) / 2;
  const base = colorOf(el.color ?? colorForName(el.text ?? el.id), false);
  const grad = ctx.createLinearGradient(x, y, x, y + side);
  grad.addColorStop(0, mix(base, '#ffffff', 0.18));
  grad.addColorStop(1, mix(base, '#000000', 0.08));
  ctx.save();
  ctx.shadowColor = 'rgba(0,0,0,0.25)';
  ctx.shadowBlur = 2;
  ctx.shadowOffsetY = 1;
  fillRound(ctx, { x, y, w: side, h: side }, side * 0.24, base);
  ctx.restore();
  roundRect(ctx, { x, y, w: side, h: side }, side * 0.24);
  ctx.fillStyle = grad;
  ctx.fill();
  if (el.icon) drawIcon(ctx, el.icon, x + side / 2, y + side / 2, side * 0.58, onColor(base));
  if (labelH > 0 && el.text) {
    const onWallpaper = p.screen.appId === 'launcher';
    drawText(p, el, el.text, { x: b.x, y: b.y + b.h - labelH, w: b.w, h: labelH }, {
      color: onWallpaper ? '#ffffff' : p.colors.text,
      align: 'center',
    });
  }
}
