/** Hit testing: which element a point acts on. */
import type { Box, UIElement } from './types';

export function contains(box: Box, x: number, y: number): boolean {
  return x >= box.x && x < box.x + box.w && y >= box.y && y < box.y + box.h;
}

/** The topmost (last painted) interactive element under (x, y), if any. */
export function hitTest(elements: readonly UIElement[], x: number, y: number): UIElement | undefined {
  for (let i = elements.length - 1; i >= 0; i--) {
    const e = elements[i];
    if (e.interactive && contains(e.box, x, y)) return e;
  }
  return undefined;
}

/** The point an agent would click for an element: its centre, on whole pixels. */
export function centerOf(box: Box): { x: number; y: number } {
  return { x: Math.floor(box.x + box.w / 2), y: Math.floor(box.y + box.h / 2) };
}
