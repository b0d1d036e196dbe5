/**
 * A fixture page as a world Screen, so the world's own verifier
 * (verifier.ts resolveRef) can say whether each instruction singles out its
 * target, and so chance levels are counted as the world's reading probe
 * counts them. Boxes come from the browser's layout (rasterize.ts); without
 * them every element gets the same one-pixel box, which is enough for the
 * styles that do not look at geometry (text, icon, colour, function).
 */
import { visibleElements } from '../world/verifier';
import { UNDRAWN_THEME } from '../world/theme';
import type { Screen, UIElement } from '../world/types';
import type { RealBox, RealPage } from './types';

/** Styles whose resolution needs no layout. */
export const LAYOUT_FREE_STYLES = ['text', 'icon', 'color', 'function'] as const;


export function screenOfPage(page: RealPage, boxes?: Readonly<Record<string, RealBox>>): Screen {
  const elements: UIElement[] = page.elements.map((e) => {
    const box = boxes ? boxes[e.id] : { x: 1, y: 1, w: 1, h: 1 };
    if (!box) throw new Error(`screenOfPage: no box for ${page.id}/${e.id}`);
    return {
      id: e.id,
      role: e.role,
      box,
      ...(e.text !== undefined ? { text: e.text } : {}),
      ...(e.icon !== undefined ? { icon: e.icon } : {}),
      ...(e.label !== undefined ? { label: e.label } : {}),
      ...(e.color !== undefined ? { color: e.color } : {}),
      ...(e.purpose !== undefined ? { purpose: e.purpose } : {}),
      state: {},
      interactive: e.interactive,
    };
  });
  return { platform: 'web', width: page.width, height: page.height, appId: 'real-screen', variant: 0, screenId: page.id, title: '', theme: UNDRAWN_THEME, elements };
}

/**
 * Chance of a click in the target's box, two ways: `controls`, clicking the
 * centre of a uniformly drawn visible control (the reading probe's chance,
 * readingProbe.ts); `area`, clicking a uniform point of the screen (the
 * target's share of the screen's area).
 */
export function chanceOf(screen: Screen, target: RealBox): { controls: number; area: number } {
  const controls = visibleElements(screen).filter((e) => e.interactive).length;
  return { controls: controls > 0 ? 1 / controls : 0, area: (target.w * target.h) / (screen.width * screen.height) };
}
