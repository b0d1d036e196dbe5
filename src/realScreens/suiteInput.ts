/**
 * What the page hands the worker for one rendered fixture page: its pixels
 * and, per instruction, the printed words, the target's box (from the DOM)
 * and its chance levels. Plain data, so it crosses to the worker as is.
 */
import { chanceOf, screenOfPage } from './screen';
import type { RealGrounding } from './score';
import type { RealPage, RenderedPage } from './types';

export type RealQuery = Omit<RealGrounding, 'point'>;

export interface RealScreenInput {
  pageId: string;
  width: number;
  height: number;
  rgba: Uint8Array;
  queries: RealQuery[];
}

export function suiteInput(page: RealPage, rendered: RenderedPage): RealScreenInput {
  if (rendered.pageId !== page.id) throw new Error(`suiteInput: ${rendered.pageId} is not ${page.id}`);
  const screen = screenOfPage(page, rendered.boxes);
  const queries = page.instructions.map((ins): RealQuery => {
    const box = rendered.boxes[ins.targetId];
    const chance = chanceOf(screen, box);
    return { pageId: page.id, look: page.look, pattern: page.pattern, style: ins.style, instruction: ins.text, box, chanceControls: chance.controls, chanceArea: chance.area };
  });
  return { pageId: page.id, width: rendered.width, height: rendered.height, rgba: rendered.rgba, queries };
}
