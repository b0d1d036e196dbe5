/**
 * Approximate text advance widths, so layout can size labels and buttons in
 * Node without a canvas. The numbers are per-character em fractions close to
 * the real fonts' metrics, rounded up a little so drawn text fits its box.
 */
import type { FontFamily, TextStyle } from './types';

const NARROW = new Set("iljtfI!.,:;'|()[]r ");
const WIDE = new Set('mwMW@%');
const CAPS_WIDE = new Set('ABCDGHKNOQRUVXY&');

/** Families differ in overall width; Roboto Slab is the widest of the three. */
const FAMILY_SCALE: Record<FontFamily, number> = {
  'Inter': 1.0,
  'Roboto Slab': 1.06,
  'Noto Sans': 0.98,
};

function charEm(ch: string): number {
  if (NARROW.has(ch)) return 0.3;
  if (WIDE.has(ch)) return 0.88;
  if (ch >= 'A' && ch <= 'Z') return CAPS_WIDE.has(ch) ? 0.72 : 0.64;
  if (ch >= '0' && ch <= '9') return 0.6;
  if (ch === '…') return 0.9;
  return 0.56;
}

// Layout measures the same few thousand labels over and over; remember their em widths.
const emCache = new Map<string, number>();

function emOf(text: string): number {
  let em = emCache.get(text);
  if (em === undefined) {
    em = 0;
    for (const ch of text) em += charEm(ch);
    if (emCache.size > 50_000) emCache.clear();
    emCache.set(text, em);
  }
  return em;
}

function pxOf(em: number, style: TextStyle): number {
  const weightScale = 1 + (style.weight - 400) / 3000;
  return Math.ceil(em * style.size * FAMILY_SCALE[style.family] * weightScale);
}

/** Width in px of `text` drawn in `style`, rounded up to a whole pixel. */
export function textWidth(text: string, style: TextStyle): number {
  return pxOf(emOf(text), style);
}

/** `text` cut with an ellipsis so it fits `maxWidth`; unchanged when it fits. */
export function fitText(text: string, maxWidth: number, style: TextStyle): string {
  if (textWidth(text, style) <= maxWidth) return text;
  const chars = [...text];
  const prefix = [0];
  for (const ch of chars) prefix.push(prefix[prefix.length - 1] + charEm(ch));
  for (let cut = chars.length - 1; cut > 0; cut--) {
    let end = cut;
    while (end > 0 && chars[end - 1] === ' ') end--;
    if (end > 0 && pxOf(prefix[end] + charEm('…'), style) <= maxWidth) return chars.slice(0, end).join('') + '…';
  }
  return '';
}

/** Greedy word wrap into lines no wider than `maxWidth` (long words are cut). */
export function wrapText(text: string, maxWidth: number, style: TextStyle): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const next = line ? `${line} ${word}` : word;
    if (textWidth(next, style) <= maxWidth) line = next;
    else {
      if (line) lines.push(line);
      line = fitText(word, maxWidth, style);
    }
  }
  if (line) lines.push(line);
  return lines;
}
