/** Static content: heading, text, image. */
import type { UIElement } from '../../types';
import { COLOR_NAMES, colorOf, mix } from '../palette';
import { inkFor, type Painter } from '../painter';
import { circle, drawIcon, roundRect } from '../shapes';
import { drawText } from '../text';

function textLike(p: Painter, el: UIElement, muted: boolean): void {
  const b = el.box;
  const ink = inkFor(p, el);
  const color = el.color ? colorOf(el.color, p.colors.dark) : muted ? ink.muted : ink.text;
  let x = b.x;
  if (el.icon) {
    const s = Math.min(b.h * 0.8, 11);
    drawIcon(p.ctx, el.icon, x + s / 2, b.y + b.h / 2, s, el.color ? color : ink.muted);
    x += s + 3;
  }
  if (el.text) drawText(p, el, el.text, { x, y: b.y, w: b.x + b.w - x, h: b.h }, { color });
}

export function paintHeading(p: Painter, el: UIElement): void {
  textLike(p, el, false);
}

export function paintText(p: Painter, el: UIElement): void {
  textLike(p, el, false);
}

export function paintImage(p: Painter, el: UIElement): void {
  const { ctx, colors } = p;
  const b = el.box;
  let h = 0;
  for (let i = 0; i < el.id.length; i++) h = (h * 31 + el.id.charCodeAt(i)) >>> 0;
  const name = el.color ?? COLOR_NAMES[h % (COLOR_NAMES.length - 1)];
  const base = colorOf(name, false);
  ctx.save();
  roundRect(ctx, b, Math.min(p.screen.theme.corner, 4));
  ctx.clip();
  const grad = ctx.createLinearGradient(b.x, b.y, b.x + b.w, b.y + b.h);
  grad.addColorStop(0, mix(base, '#ffffff', colors.dark ? 0.35 : 0.55));
  grad.addColorStop(1, mix(base, '#ffffff', colors.dark ? 0.0 : 0.15));
  ctx.fillStyle = grad;
  ctx.fillRect(b.x, b.y, b.w, b.h);
  if (el.icon) {
    drawIcon(ctx, el.icon, b.x + b.w / 2, b.y + b.h / 2, Math.min(b.w, b.h) * 0.5, 'rgba(255,255,255,0.9)');
  } else {
    // A little landscape: sun and two hills, so it reads as a photo.
    circle(ctx, b.x + b.w * 0.72, b.y + b.h * 0.3, Math.min(b.w, b.h) * 0.12);
    ctx.fillStyle = 'rgba(255,255,255,0.85)';
    ctx.fill();
    ctx.beginPath();
    ctx.moveTo(b.x, b.y + b.h);
    ctx.lineTo(b.x + b.w * 0.35, b.y + b.h * 0.45);
    ctx.lineTo(b.x + b.w * 0.6, b.y + b.h * 0.75);
    ctx.lineTo(b.x + b.w * 0.75, b.y + b.h * 0.6);
    ctx.lineTo(b.x + b.w, b.y + b.h);
    ctx.closePath();
    ctx.fillStyle = mix(base, '#000000', 0.25);
    ctx.fill();
  }
  ctx.restore();
}
