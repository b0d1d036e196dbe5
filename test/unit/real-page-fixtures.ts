/**
 * Real training pages "drawn" in Node, which has no DOM: every marked
 * element gets its own box and the pixels a seed-dependent grey. The
 * browser draws the real ones (src/realScreens/rasterize.ts).
 */
import { realPage } from '../../src/realScreens/pages';
import type { RenderedPage } from '../../src/realScreens/types';

export function fakeRender(seed: number): RenderedPage {
  const page = realPage(seed);
  const boxes = Object.fromEntries(page.elements.map((e, i) => [e.id, { x: (i * 23) % 170, y: (i * 11) % 110, w: 24, h: 12 }]));
  return { pageId: page.id, width: page.width, height: page.height, rgba: new Uint8Array(page.width * page.height * 4).fill(40 + (seed % 150)), boxes };
}
