/** Shape primitives shared by the widget painters: rounded boxes, shadows, icons, chevrons, check marks. */
import { ICON_PATHS } from '../icons';
import type { Box, IconName } from '../types';
import type { Ctx2D } from './painter';

export function roundRect(ctx: Ctx2D, b: Box, r: number): void {
  ctx.beginPath();
  ctx.roundRect(b.x, b.y, b.w, b.h, Math.max(0, Math.min(r, b.w / 2, b.h / 2)));
}

export function fillRound(ctx: Ctx2D, b: Box, r: number, color: string): void {
  roundRect(ctx, b, r);
  ctx.fillStyle = color;
  ctx.fill();
}

/** A 1 px outline drawn inside the box, so it never spills over a neighbour. */
export function strokeRound(ctx: Ctx2D, b: Box, r: number, color: string, width = 1): void {
  const i = width / 2;
  roundRect(ctx, { x: b.x + i, y: b.y + i, w: b.w - width, h: b.h - width }, r - i);
  ctx.strokeStyle = color;
  ctx.lineWidth = width;
  ctx.stroke();
}

/** A soft drop shadow under a rounded box (cards, dialogs, menus). */
export function shadowRound(ctx: Ctx2D, b: Box, r: number, fill: string, shadow: string, blur: number, dy: number): void {
  ctx.save();
  ctx.shadowColor = shadow;
  ctx.shadowBlur = blur;
  ctx.shadowOffsetY = dy;
  fillRound(ctx, b, r, fill);
  ctx.restore();
}

export function hairline(ctx: Ctx2D, x: number, y: number, w: number, color: string): void {
  ctx.fillStyle = color;
  ctx.fillRect(x, y, w, 1);
}

const pathCache = new Map<IconName, Path2D>();

function iconPath(icon: IconName): Path2D {
  let path = pathCache.get(icon);
  if (!path) {
    path = new Path2D(ICON_PATHS[icon]);
    pathCache.set(icon, path);
  }
  return path;
}

/** Draws a Material icon (24×24 view box) as a size×size square centred at (cx, cy). */
export function drawIcon(ctx: Ctx2D, icon: IconName, cx: number, cy: number, size: number, color: string): void {
  ctx.save();
  ctx.translate(cx - size / 2, cy - size / 2);
  ctx.scale(size / 24, size / 24);
  ctx.fillStyle = color;
  ctx.fill(iconPath(icon));
  ctx.restore();
}

/** A chevron of half-width s centred at (cx, cy), pointing down, up or right. */
export function chevron(ctx: Ctx2D, cx: number, cy: number, s: number, dir: 'down' | 'up' | 'right', color: string): void {
  ctx.beginPath();
  if (dir === 'right') {
    ctx.moveTo(cx - s / 2, cy - s);
    ctx.lineTo(cx + s / 2, cy);
    ctx.lineTo(cx - s / 2, cy + s);
  } else {
    const d = dir === 'up' ? -1 : 1;
    ctx.moveTo(cx - s, cy - (d * s) / 2);
    ctx.lineTo(cx, cy + (d * s) / 2);
    ctx.lineTo(cx + s, cy - (d * s) / 2);
  }
  ctx.strokeStyle = color;
  ctx.lineWidth = Math.max(1, s / 2.5);
  ctx.lineCap = 'round';
  ctx.lineJoin = 'round';
  ctx.stroke();
}

/** A check mark fitted into a box of side s with top-left (x, y). */
export function checkMark(ctx: Ctx2D, x: number, y: number, s: number, color: string): void {
  ctx.beginPath();
  ctx.moveTo(x + s * 0.22, y + s * 0.52);
  ctx.lineTo(x + s * 0.42, y + s * 0.72);
  ctx.lineTo(x + s * 0.78, y + s * 0.3);
  ctx.strokeStyle = color;
  ctx.lineWidth = Math.max(1.2, s * 0.16);
  ctx.lineCap = 'round';
  ctx.lineJoin = 'round';
  ctx.stroke();
}

export function circle(ctx: Ctx2D, cx: number, cy: number, r: number): void {
  ctx.beginPath();
  ctx.arc(cx, cy, r, 0, Math.PI * 2);
}
