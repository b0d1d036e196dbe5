/**
 * How grounded points are drawn and described: the true box in amber (as in
 * the GRPO view), the greedy point as a large ring, sampled points as small
 * numbered diamonds; a point inside the box is filled, one outside hollow,
 * so hits read without colour.
 */
import type { Box } from '../../world/types';

export const TRUTH_COLOUR = '#E69F00';
export const GREEDY_COLOUR = '#0072B2';
export const SAMPLE_COLOUR = '#D55E00';

export interface Mark {
  x: number;
  y: number;
}

export function inside(p: Mark, box: Box | null | undefined): boolean {
  return !!box && p.x >= box.x && p.x <= box.x + box.w && p.y >= box.y && p.y <= box.y + box.h;
}

export function diamond(x: number, y: number, r: number): string {
  return `M${x},${y - r}L${x + r},${y}L${x},${y + r}L${x - r},${y}Z`;
}

/** A number as the tables show it: 3 decimals, or 2 significant digits when small. */
export function num(v: number): string {
  if (v !== 0 && Math.abs(v) < 0.001) return v.toPrecision(2);
  return v.toFixed(3);
}

/** A probability as a percentage with sensible precision. */
export function pct(p: number): string {
  const v = p * 100;
  return `${v >= 10 ? v.toFixed(0) : v >= 1 ? v.toFixed(1) : v.toFixed(2)}%`;
}
