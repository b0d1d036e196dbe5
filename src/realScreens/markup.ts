/**
 * A small builder for a fixture page's markup: each call writes well-formed
 * XHTML (the SVG foreignObject parser is an XML parser) and registers the
 * element it marks, so the page's element list and its markup cannot drift
 * apart. Only classes, never style attributes: the app's CSP forbids inline
 * styles in the live DOM where the boxes are measured.
 */
import { ICON_PATHS } from '../world/icons';
import type { IconName } from '../world/types';
import type { RealElement } from './types';

export function escapeXml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** An inline SVG of one of the world's icons (Material Design paths), sized by CSS class `ico`. */
export function iconSvg(icon: IconName): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" class="ico" viewBox="0 0 24 24"><path d="${ICON_PATHS[icon]}"/></svg>`;
}

type Fields = Omit<RealElement, 'id'>;

export class Markup {
  readonly elements: RealElement[] = [];

  /**
   * Registers an element and returns its id (e0, e1, … in registration
   * order, not document order: a pattern registers its controls first so
   * that the distractor text written around them can name them).
   */
  register(fields: Fields): string {
    const id = `e${this.elements.length}`;
    this.elements.push({ id, ...fields });
    return id;
  }

  /** `<tag class="cls" data-rs="id">inner</tag>` for a registered element. */
  el(tag: string, cls: string, fields: Fields, inner: string): string {
    const id = this.register(fields);
    return `<${tag} class="${cls}" data-rs="${id}">${inner}</${tag}>`;
  }

  /** A plain container, not registered: layout only. */
  box(cls: string, inner: string, tag = 'div'): string {
    return `<${tag} class="${cls}">${inner}</${tag}>`;
  }

  heading(text: string, distractorOf?: string): string {
    return this.el('div', 'h', { role: 'heading', text, interactive: false, ...(distractorOf ? { distractorOf } : {}) }, escapeXml(text));
  }

  /** Body text; `distractorOf` when it repeats a control's words. */
  text(text: string, distractorOf?: string, cls = 'p'): string {
    return this.el('div', cls, { role: 'text', text, interactive: false, ...(distractorOf ? { distractorOf } : {}) }, escapeXml(text));
  }
}
