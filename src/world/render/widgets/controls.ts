/** Two-state and ranged controls: checkbox, radio, switch, slider. */
import type { UIElement } from '../../types';
import { colorOf } from '../palette';
import { inkFor, type Painter } from '../painter';
import { checkMark, circle, fillRound, strokeRound } from '../shapes';
import { drawText } from '../text';

function onFill(p: Painter, el: UIElement): string {
  return el.color ? colorOf(el.color, p.colors.dark) : p.colors.accent;
}

/** Side of the square a control's glyph takes: most of a bare control's box, or fitted to a labelled row. */
function glyphSide(el: UIElement): number {
  const b = el.box;
  return Math.round(Math.max(5, el.text ? Math.min(b.h - 3, 9) : Math.min(b.w, b.h, 10) - 1));
}

function labelRight(p: Painter, el: UIElement, glyphRight: number): void {
  const b = el.box;
  if (el.text) drawText(p, el, el.text, { x: glyphRight + 4, y: b.y, w: b.x + b.w - glyphRight - 4, h: b.h }, { color: inkFor(p, el).text });
}

export function paintCheckbox(p: Painter, el: UIElement): void {
  const { ctx, colors } = p;
  const s = glyphSide(el);
  // Whole pixels keep the 1 px outline crisp at 1×.
  const x = Math.round(el.text ? el.box.x + 1 : el.box.x + (el.box.w - s) / 2);
  const y = Math.round(el.box.y + (el.box.h - s) / 2);
  const box = { x, y, w: s, h: s };
  if (el.state.checked) {
    const fill = onFill(p, el);
    fillRound(ctx, box, 1.5, fill);
    checkMark(ctx, x, y, s, colors.dark ? colors.surface : '#ffffff');
  } else {
    fillRound(ctx, box, 1.5, colors.surface);
    strokeRound(ctx, box, 1.5, colors.muted);
  }
  labelRight(p, el, x + s);
}

export function paintRadio(p: Painter, el: UIElement): void {
  const { ctx, colors } = p;
  const s = glyphSide(el);
  const cx = el.box.x + 1 + s / 2;
  const cy = el.box.y + el.box.h / 2;
  const on = Boolean(el.state.checked || el.state.selected);
  circle(ctx, cx, cy, s / 2 - 0.5);
  ctx.fillStyle = colors.surface;
  ctx.fill();
  ctx.lineWidth = on ? 1.4 : 1;
  ctx.strokeStyle = on ? onFill(p, el) : colors.muted;
  ctx.stroke();
  if (on) {
    circle(ctx, cx, cy, s * 0.24);
    ctx.fillStyle = onFill(p, el);
    ctx.fill();
  }
  labelRight(p, el, el.box.x + 1 + s);
}

export function paintSwitch(p: Painter, el: UIElement): void {
  const { ctx, colors } = p;
  const b = el.box;
  const th = Math.max(5, Math.min(b.h - 4, 9));
  const tw = th * 1.75;
  // With a label the toggle sits at the row's right end, as in settings lists; alone, it fills its box.
  const tx = el.text ? b.x + b.w - tw - 1 : b.x + (b.w - tw) / 2;
  const ty = b.y + (b.h - th) / 2;
  const on = Boolean(el.state.checked);
  fillRound(ctx, { x: tx, y: ty, w: tw, h: th }, th / 2, on ? onFill(p, el) : colors.dark ? '#4b5059' : '#c9ced6');
  const r = th / 2 - 1.2;
  const kx = on ? tx + tw - th / 2 : tx + th / 2;
  ctx.save();
  ctx.shadowColor = 'rgba(0,0,0,0.3)';
  ctx.shadowBlur = 1.5;
  ctx.shadowOffsetY = 0.5;
  circle(ctx, kx, ty + th / 2, r);
  ctx.fillStyle = '#ffffff';
  ctx.fill();
  ctx.restore();
  if (el.text) drawText(p, el, el.text, { x: b.x, y: b.y, w: tx - b.x - 4, h: b.h }, { color: inkFor(p, el).text });
}

export function paintSlider(p: Painter, el: UIElement): void {
  const { ctx, colors } = p;
  const b = el.box;
  const level = Math.min(1, Math.max(0, el.state.level ?? 0));
  const r = Math.max(2.5, Math.min(b.h / 2 - 1, 4.5));
  const x0 = b.x + r;
  const x1 = b.x + b.w - r;
  const cy = b.y + b.h / 2;
  const kx = x0 + level * (x1 - x0);
  const th = 2.5;
  fillRound(ctx, { x: x0, y: cy - th / 2, w: x1 - x0, h: th }, th / 2, colors.dark ? '#4b5059' : '#d5d9e0');
  fillRound(ctx, { x: x0, y: cy - th / 2, w: kx - x0, h: th }, th / 2, onFill(p, el));
  ctx.save();
  ctx.shadowColor = 'rgba(0,0,0,0.3)';
  ctx.shadowBlur = 1.5;
  ctx.shadowOffsetY = 0.5;
  circle(ctx, kx, cy, r);
  ctx.fillStyle = onFill(p, el);
  ctx.fill();
  ctx.restore();
  circle(ctx, kx, cy, r * 0.45);
  ctx.fillStyle = '#ffffff';
  ctx.fill();
}
