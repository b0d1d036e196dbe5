/**
 * How large a world screen is shown: whole-number-ish zooms of its 200×128
 * (web) or 120×208 (mobile) pixels that leave room for the tables beside it
 * at 1280×720 and use a 1920×1080 projector's space.
 */
import type { Platform } from '../../world/types';

export function screenZoom(platform: Platform, viewportWidth: number, viewportHeight: number): number {
  if (platform === 'web') return viewportWidth >= 1800 && viewportHeight >= 1000 ? 4 : 3;
  return viewportHeight >= 1000 ? 3 : 2;
}

/**
 * The most a zoomed screen may take across: the viewport less the page's and
 * a panel's padding, so that on a phone (390 px) it shrinks instead of
 * pushing the page sideways. Relative to the viewport, not the container,
 * because screens sit in shrink-to-fit flex items where a percentage has
 * nothing to resolve against.
 */
export const FIT_WIDTH = 'calc(100vw - 5.5rem)';
