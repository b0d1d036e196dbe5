/**
 * What every widget painter receives: the 2D context, the screen (painters
 * may look at an element's neighbours, e.g. a nav bar keeps its title clear
 * of its buttons), the theme resolved to colours, and render options.
 */
import type { Screen, UIElement } from '../types';
import type { ThemeColors } from './palette';

export type Ctx2D = CanvasRenderingContext2D | OffscreenCanvasRenderingContext2D;

export interface RenderOptions {
  /** Draw everything except this element's text (measured, not painted): the text-in-box check diffs against it. */
  hideTextOf?: string;
  /** When given, every character drawn is reported here: where each glyph lands, which only the painter knows (per-cell letter labels). */
  glyphs?: Glyph[];
}

/** One character as drawn, in screen px: the x of its centre and the band of its line (cap height to baseline). */
export interface Glyph {
  /** The element whose text it is. */
  element: string;
  char: string;
  x: number;
  top: number;
  bottom: number;
}

export interface Painter {
  ctx: Ctx2D;
  screen: Screen;
  colors: ThemeColors;
  options: RenderOptions;
  /** 1 for comfortable density, smaller for compact: scales inner padding. */
  pad: number;
}

export type WidgetPainter = (p: Painter, el: UIElement) => void;

/** Elements whose parent is `id`, in paint order. */
export function childrenOf(screen: Screen, id: string): UIElement[] {
  return screen.elements.filter((e) => e.parent === id);
}

/** Layout gives bars and dialogs their title as a heading child too; then the child draws it, once. */
export function titleDrawnByChild(screen: Screen, el: UIElement): boolean {
  return childrenOf(screen, el.id).some((k) => (k.role === 'heading' || k.role === 'text') && k.text === el.text);
}

/** Whether a nav bar is painted in the accent colour (app bars) rather than the surface colour (variant-dependent). */
export function navBarFilled(screen: Screen): boolean {
  return screen.platform === 'mobile' ? screen.variant % 2 === 0 : screen.variant % 3 === 2;
}

export interface Ink {
  text: string;
  muted: string;
  accent: string;
}

const ON_WALLPAPER: Ink = { text: '#ffffff', muted: 'rgba(255,255,255,0.8)', accent: '#ffffff' };

/** Foreground colours for an element: the theme's, or light ones on a filled nav bar or the home screen's wallpaper. */
export function inkFor(p: Painter, el: UIElement): Ink {
  const parent = el.parent ? p.screen.elements.find((e) => e.id === el.parent) : undefined;
  if (!parent && p.screen.appId === 'launcher') return ON_WALLPAPER;
  if (parent?.role === 'nav-bar' && navBarFilled(p.screen)) {
    const on = p.colors.onAccent;
    return { text: on, muted: on === '#ffffff' ? 'rgba(255,255,255,0.78)' : 'rgba(26,26,26,0.7)', accent: on };
  }
  return { text: p.colors.text, muted: p.colors.muted, accent: p.colors.accent };
}
