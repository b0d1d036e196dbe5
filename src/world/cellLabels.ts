/**
 * Dense per-cell labels the layout knows for free: for every 8-px cell of
 * the grounder's canvas, what is under it. They come from the Screen's
 * boxes, texts, icons and colours, never from pixels, so they label the
 * Canvas renderer's screens and the Node stand-in's alike (the pretraining
 * recipe stays painter-agnostic).
 *
 * A cell belongs to the topmost element (last in paint order) whose box
 * holds the cell's centre; an element too small to hold any centre claims
 * the cell of its own centre. Per cell:
 * - letters: the letter classes (tokenizer's WORD_CHAR_CLASSES) of the text
 *   that element shows, as a bag: a cell must say which word it is part of,
 *   not which glyph it shows, so one label works whatever the font;
 * - role: the role of the topmost interactive element over the cell;
 * - icon: the icon of the element, or of the interactive element, over it;
 * - colour: the named colour of the element or interactive element over it.
 * "Nothing" is class 0 of role, icon and colour.
 */
import { CELL, CANVAS_HEIGHT, CANVAS_WIDTH, GLYPH_COLS, GLYPH_POSITIONS, GLYPH_ROWS, GLYPH_STRIDE, GRID_CELLS, GRID_COLS, GRID_ROWS } from '../models/canvas';
import type { Glyph } from './render/painter';
import { WORD_CHAR_CLASSES, wordChars } from '../text/tokenizer';
import { ICON_NAMES } from './icons';
import { COLOR_NAMES } from './render/palette';
import type { Box, ColorName, IconName, Role, Screen, UIElement } from './types';
import { visibleElements } from './verifier';

/** Every role, in a fixed order: class k + 1 of the role label (0 = no interactive element). */
export const ROLE_LIST = [
  'button',
  'icon-button',
  'link',
  'text-field',
  'search-box',
  'checkbox',
  'switch',
  'radio',
  'dropdown',
  'option',
  'tab',
  'list-item',
  'menu-item',
  'dialog',
  'slider',
  'card',
  'nav-bar',
  'back-button',
  'app-icon',
  'heading',
  'text',
  'image',
] as const satisfies readonly Role[];

export const ROLE_CLASSES = ROLE_LIST.length + 1;
export const ICON_CLASSES = ICON_NAMES.length + 1;
export const COLOR_CLASSES = COLOR_NAMES.length + 1;
export const LETTER_CLASSES = WORD_CHAR_CLASSES;

export const roleClass = (role: Role | undefined): number => (role === undefined ? 0 : ROLE_LIST.indexOf(role as (typeof ROLE_LIST)[number]) + 1);
export const iconClass = (icon: IconName | undefined): number => (icon === undefined ? 0 : ICON_NAMES.indexOf(icon) + 1);
export const colorClass = (color: ColorName | undefined): number => (color === undefined ? 0 : COLOR_NAMES.indexOf(color) + 1);

/** Containers whose title is drawn by a child: their own cells show no text of theirs. */
const CONTAINERS: ReadonlySet<Role> = new Set(['nav-bar', 'card', 'dialog']);

/** The text an element shows on screen (fields: value, else text or placeholder), as the renderer chooses it. */
export function shownText(el: UIElement): string | undefined {
  if (CONTAINERS.has(el.role) || el.role === 'slider' || el.role === 'image') return undefined;
  const t = el.role === 'text-field' || el.role === 'search-box' || el.role === 'dropdown' ? el.state.value || el.text || el.label : el.text;
  return t && t.trim() !== '' ? t : undefined;
}

/** Letter classes present in a text (each word's letters, pad class 0 never set), as a 0/1 bag. */
export function letterBag(text: string): Uint8Array {
  const bag = new Uint8Array(LETTER_CLASSES);
  for (const word of text.split(/\s+/)) for (const c of wordChars(word, word.length)) if (c > 0) bag[c] = 1;
  return bag;
}

export interface CellLabels {
  /** [GRID_CELLS]: index into screen.elements of the element that owns the cell, -1 for none. */
  element: Int32Array;
  /** [GRID_CELLS × LETTER_CLASSES] 0/1 letter bag of the owning element's shown text (all 0 when none). */
  letters: Uint8Array;
  /** [GRID_CELLS]: 1 where the owning element shows text. */
  hasText: Uint8Array;
  /** [GRID_CELLS]: role class of the topmost interactive element over the cell (0 = none). */
  role: Int32Array;
  /** [GRID_CELLS]: icon class (0 = none). */
  icon: Int32Array;
  /** [GRID_CELLS]: colour class (0 = none). */
  color: Int32Array;
  /** [GRID_CELLS]: 1 for cells on the screen (the rest of the canvas is padding). */
  valid: Uint8Array;
}

function holds(b: Box, x: number, y: number): boolean {
  return x >= b.x && x < b.x + b.w && y >= b.y && y < b.y + b.h;
}

/** The cells whose centres lie in the box, or the box centre's cell when none does. */
function cellsOf(b: Box): number[] {
  const out: number[] = [];
  const c0 = Math.max(0, Math.floor((b.x - CELL / 2) / CELL));
  const r0 = Math.max(0, Math.floor((b.y - CELL / 2) / CELL));
  for (let r = r0; r < GRID_ROWS && r * CELL + CELL / 2 < b.y + b.h; r++) {
    for (let c = c0; c < GRID_COLS && c * CELL + CELL / 2 < b.x + b.w; c++) if (holds(b, c * CELL + CELL / 2, r * CELL + CELL / 2)) out.push(r * GRID_COLS + c);
  }
  if (out.length === 0) {
    const cx = b.x + b.w / 2;
    const cy = b.y + b.h / 2;
    if (cx >= 0 && cy >= 0 && cx < CANVAS_WIDTH && cy < CANVAS_HEIGHT) out.push(Math.floor(cy / CELL) * GRID_COLS + Math.floor(cx / CELL));
  }
  return out;
}

/** Labels of every cell of the screen, from its layout alone. */
export function cellLabels(screen: Screen): CellLabels {
  const n = GRID_CELLS;
  const out: CellLabels = {
    element: new Int32Array(n).fill(-1),
    letters: new Uint8Array(n * LETTER_CLASSES),
    hasText: new Uint8Array(n),
    role: new Int32Array(n),
    icon: new Int32Array(n),
    color: new Int32Array(n),
    valid: new Uint8Array(n),
  };
  for (let r = 0; r < GRID_ROWS; r++) for (let c = 0; c < GRID_COLS; c++) out.valid[r * GRID_COLS + c] = c * CELL < screen.width && r * CELL < screen.height ? 1 : 0;
  const visible = new Set(visibleElements(screen).map((e) => e.id));
  // Paint order: later elements overwrite earlier ones, as they do on screen.
  screen.elements.forEach((el, index) => {
    if (!visible.has(el.id)) return;
    const text = shownText(el);
    const bag = text ? letterBag(text) : null;
    for (const cell of cellsOf(el.box)) {
      if (!out.valid[cell]) continue;
      out.element[cell] = index;
      out.hasText[cell] = bag ? 1 : 0;
      out.letters.fill(0, cell * LETTER_CLASSES, (cell + 1) * LETTER_CLASSES);
      if (bag) out.letters.set(bag, cell * LETTER_CLASSES);
      if (el.interactive) {
        out.role[cell] = roleClass(el.role);
        out.icon[cell] = iconClass(el.icon);
        out.color[cell] = colorClass(el.color);
      } else {
        // A label or image inside a button keeps the button's role; its own icon and colour show.
        if (el.icon) out.icon[cell] = iconClass(el.icon);
        if (el.color) out.color[cell] = colorClass(el.color);
      }
    }
  });
  return out;
}

/**
 * Which character is centred at each position of the glyph grid (letter
 * class, 0 = none; position j's window is centred at x = GLYPH_STRIDE·(j + 1),
 * so a glyph belongs to the position whose centre is within a half stride of
 * its own), from the glyphs the painter reports drawing:
 * unlike the other labels these need the painter, since only it knows where
 * a font puts each character. A position whose centre two glyphs share
 * keeps the later one.
 */
export function glyphLabels(glyphs: readonly Glyph[]): Int32Array {
  const out = new Int32Array(GLYPH_POSITIONS);
  for (const g of glyphs) {
    const k = wordChars(g.char, 1)[0];
    if (!(k > 0)) continue;
    const col = Math.floor(g.x / GLYPH_STRIDE - 0.5);
    const row = Math.floor((g.top + g.bottom) / 2 / GLYPH_STRIDE - 0.5);
    if (col >= 0 && col < GLYPH_COLS && row >= 0 && row < GLYPH_ROWS) out[row * GLYPH_COLS + col] = k;
  }
  return out;
}
