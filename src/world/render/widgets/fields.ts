/** Inputs that show text: text field, search box, dropdown, and the options of an open dropdown. */
import type { UIElement } from '../../types';
import { colorOf } from '../palette';
import type { Painter } from '../painter';
import { chevron, drawIcon, fillRound, strokeRound } from '../shapes';
import { drawText, fitStyle, measure, visibleText } from '../text';

/** Greedy word wrap by measured width; a word longer than the line stays whole (drawText squeezes it). */
function wrapLines(p: Painter, el: UIElement, text: string, width: number, area: { x: number; y: number; w: number; h: number }): string[] {
  const style = fitStyle(p, el, area);
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const next = line ? `${line} ${word}` : word;
    if (line && measure(p, next, style) > width) {
      lines.push(line);
      line = word;
    } else line = next;
  }
  if (line) lines.push(line);
  return lines;
}

/** Draws a field's value (or its placeholder, muted) from x to right, with a caret after it when focused. */
function fieldText(p: Painter, el: UIElement, x: number, right: number): void {
  const b = el.box;
  const text = visibleText(el);
  const hasValue = Boolean(el.state.value);
  const color = hasValue ? p.colors.text : p.colors.muted;
  // Tall fields (a message body) wrap their text from the top, like a textarea.
  const tall = b.h > 26;
  const lineH = Math.min(b.h, 13);
  const area = { x, y: tall ? b.y + 2 : b.y + (b.h - lineH) / 2, w: Math.max(1, right - x), h: lineH };
  let width = 0;
  if (text && tall) {
    const rows = Math.max(1, Math.floor((b.h - 4) / (lineH - 2)));
    const lines = wrapLines(p, el, text, area.w, area).slice(0, rows);
    lines.forEach((l, i) => {
      area.y = b.y + 2 + i * (lineH - 2);
      width = drawText(p, el, l, area, { color });
    });
  } else if (text) {
    width = drawText(p, el, text, area, { color });
  }
  if (el.state.focused && el.role !== 'dropdown') {
    const style = fitStyle(p, el, area);
    const cx = Math.min(right - 1, hasValue ? x + width + 1 : x - 1.5);
    p.ctx.fillStyle = p.colors.accent;
    p.ctx.fillRect(Math.round(cx), area.y + area.h / 2 - style.size * 0.6, 1, style.size * 1.2);
  }
}

export function paintTextField(p: Painter, el: UIElement): void {
  const { ctx, colors } = p;
  const b = el.box;
  const r = Math.min(p.screen.theme.corner, 5);
  fillRound(ctx, b, r, colors.surface);
  const focused = Boolean(el.state.focused);
  strokeRound(ctx, b, r, focused ? colors.accent : colors.border, focused ? 1.5 : 1);
  const pad = 5 * p.pad;
  let x = b.x + pad;
  if (el.icon) {
    const s = Math.min(b.h * 0.6, 10);
    drawIcon(ctx, el.icon, x + s / 2, b.y + Math.min(b.h, 26) / 2, s, colors.muted);
    x += s + 3;
  }
  fieldText(p, el, x, b.x + b.w - pad);
}

export function paintSearchBox(p: Painter, el: UIElement): void {
  const { ctx, colors } = p;
  const b = el.box;
  const r = b.h / 2;
  const focused = Boolean(el.state.focused);
  if (p.screen.variant % 2 === 0) {
    fillRound(ctx, b, r, colors.raised);
    if (focused) strokeRound(ctx, b, r, colors.accent, 1.5);
  } else {
    fillRound(ctx, b, r, colors.surface);
    strokeRound(ctx, b, r, focused ? colors.accent : colors.border, focused ? 1.5 : 1);
  }
  const s = Math.min(b.h * 0.6, 10);
  const x = b.x + Math.max(4, r * 0.7);
  drawIcon(ctx, el.icon ?? 'search', x + s / 2, b.y + b.h / 2, s, colors.muted);
  fieldText(p, el, x + s + 3, b.x + b.w - r * 0.8);
}

export function paintDropdown(p: Painter, el: UIElement): void {
  const { ctx, colors } = p;
  const b = el.box;
  const r = Math.min(p.screen.theme.corner, 5);
  const open = Boolean(el.state.expanded);
  fillRound(ctx, b, r, colors.surface);
  strokeRound(ctx, b, r, open || el.state.focused ? colors.accent : colors.border, open ? 1.5 : 1);
  const pad = 5 * p.pad;
  const chevX = b.x + b.w - pad - 3;
  chevron(ctx, chevX, b.y + b.h / 2, 2.6, open ? 'up' : 'down', open ? colors.accent : colors.muted);
  let x = b.x + pad;
  if (el.icon) {
    const s = Math.min(b.h * 0.6, 10);
    drawIcon(ctx, el.icon, x + s / 2, b.y + b.h / 2, s, colors.muted);
    x += s + 3;
  }
  fieldText(p, el, x, chevX - 6);
}

export function paintOption(p: Painter, el: UIElement): void {
  const { ctx, colors } = p;
  const b = el.box;
  const on = Boolean(el.state.selected || el.state.checked);
  ctx.fillStyle = on ? colors.accentTint : colors.dark ? colors.raised : colors.surface;
  ctx.fillRect(b.x, b.y, b.w, b.h);
  const pad = 6 * p.pad;
  let right = b.x + b.w - pad;
  if (on) {
    drawIcon(ctx, 'check', right - 4, b.y + b.h / 2, Math.min(9, b.h * 0.7), colors.accent);
    right -= 11;
  }
  let x = b.x + pad;
  if (el.color) {
    // A colour option shows its swatch, so "pick the green one" is visible.
    fillRound(ctx, { x, y: b.y + b.h / 2 - 3.5, w: 7, h: 7 }, 3.5, colorOf(el.color, colors.dark));
    x += 10;
  }
  if (el.text) drawText(p, el, el.text, { x, y: b.y, w: right - x, h: b.h }, { color: colors.text, style: on ? { weight: 600 } : undefined });
}
