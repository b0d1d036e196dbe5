/**
 * The texts a screen shows, as the word-matching reading is trained and
 * probed on them (models/wordMatch.ts): each distinct text once, encoded as
 * an instruction's tokens are (so a text quoted in an instruction gets the
 * same vector), and for every cell which of them it shows. Texts are told
 * apart case-folded, as the letter classes are.
 */
import { GRID_CELLS } from '../models/canvas';
import type { Tokenizer } from '../text/tokenizer';
import { shownText, type CellLabels } from '../world/cellLabels';
import type { Screen } from '../world/types';

/** Texts per screen the reading is asked to tell apart; a cell of a later text is left out of the loss. */
export const MAX_SCREEN_TEXTS = 48;

const WORDLIKE = /[\p{L}\p{N}]/u;

export interface ScreenTexts {
  /** [MAX_SCREEN_TEXTS × tokens × charLength] letter classes of each text's tokens. */
  chars: Int32Array;
  /** [MAX_SCREEN_TEXTS × tokens]: 1 on each text's word tokens (bos, punctuation and padding 0). */
  weights: Float32Array;
  /** [MAX_SCREEN_TEXTS]: 1 where there is a k-th text. */
  present: Float32Array;
  /** [GRID_CELLS]: 0 for a cell with no text, k + 1 for the k-th text, −1 for a text past the cap. */
  cellText: Int32Array;
  /** How many distinct texts the screen shows (may exceed the cap). */
  count: number;
}

export function screenTexts(screen: Screen, labels: CellLabels, tok: Tokenizer, tokens: number, charLength: number): ScreenTexts {
  const out: ScreenTexts = {
    chars: new Int32Array(MAX_SCREEN_TEXTS * tokens * charLength),
    weights: new Float32Array(MAX_SCREEN_TEXTS * tokens),
    present: new Float32Array(MAX_SCREEN_TEXTS),
    cellText: new Int32Array(GRID_CELLS),
    count: 0,
  };
  const index = new Map<string, number>();
  for (let c = 0; c < GRID_CELLS; c++) {
    const el = labels.element[c];
    if (!labels.valid[c] || el < 0 || !labels.hasText[c]) continue;
    const text = shownText(screen.elements[el]) ?? '';
    const key = text.trim().toLowerCase().replace(/\s+/g, ' ');
    let k = index.get(key);
    if (k === undefined) {
      k = index.size;
      index.set(key, k);
      if (k < MAX_SCREEN_TEXTS) {
        const enc = tok.encodeWithChars(text, tokens, charLength);
        out.chars.set(enc.chars, k * tokens * charLength);
        // Word tokens only: an instruction's labels mark the words of a quoted text, never its punctuation.
        const detail = tok.encodeDetailed(text);
        const n = Math.min(detail.ids.length, tokens - 1);
        for (let t = 0; t < n; t++) if (WORDLIKE.test(detail.pieces[detail.pieceOf[t]])) out.weights[k * tokens + t + 1] = 1;
        out.present[k] = 1;
      }
    }
    out.cellText[c] = k < MAX_SCREEN_TEXTS ? k + 1 : -1;
  }
  out.count = index.size;
  return out;
}
