/**
 * The target's text, spelled out for the grounder's in-order match
 * (models/orderedMatch.ts): the letter classes of the text an instruction
 * names as its target, spaces left out but remembered.
 *
 * Taken on the host from the instruction as written, by the same grammar the
 * planner's output is parsed with: only text-style references name their
 * target's text ("click Sign in", "enter bob in the one labelled To" names
 * "To", not the typed value). Anything else, or an instruction that does not
 * parse, spells nothing, and the grounder then leaves that score flat.
 */
import { parseInstruction } from './grammar';
import { wordChars } from './tokenizer';

/** Letters matched per target: enough to tell the world's labels apart, few enough to keep the match cheap. */
export const SPELL_LETTERS = 10;

export interface Spelled {
  letters: Int32Array; // [SPELL_LETTERS] letter classes, 0 after the end
  afterSpace: Float32Array; // [SPELL_LETTERS] 1 where the letter starts a word after the first
}

/** The target text an instruction names, or null when it names none by its text. */
export function targetText(instruction: string): string | null {
  const ref = parseInstruction(instruction)?.ref;
  return ref?.style === 'text' && ref.text.trim() !== '' ? ref.text : null;
}

export function spellTarget(instruction: string, length = SPELL_LETTERS): Spelled {
  const out: Spelled = { letters: new Int32Array(length), afterSpace: new Float32Array(length) };
  const text = targetText(instruction);
  if (text === null) return out;
  let i = 0;
  let space = false;
  for (const ch of text) {
    if (i >= length) break;
    if (/\s/.test(ch)) {
      space = i > 0;
      continue;
    }
    out.letters[i] = wordChars(ch, 1)[0];
    out.afterSpace[i++] = space ? 1 : 0;
    space = false;
  }
  return out;
}
