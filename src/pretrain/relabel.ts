/**
 * Consistent relabelling of a planner example, so that the planner learns to
 * read the goal against the screen instead of learning each site's words by
 * heart: some words of the screen's texts are replaced by made-up words, the
 * same way in the goal, in the screen description, in the earlier
 * instructions and in the instruction to write. A "Compose" button may then
 * be called "Vurtel", and the step is still right only if the planner copies
 * what the screen says.
 *
 * Only words inside quoted spans of the description and instructions change
 * (role words, states and the grammar's own words are outside quotes), and
 * every whole-word occurrence in the goal, with its case pattern kept.
 */
import type { PlannerPromptParts } from '../models/plannerData';
import type { Random } from '../learn/random';

/** English letter frequencies (per mille), so made-up words look like words to the tokenizer's char fallback. */
const LETTERS = 'etaoinshrdlcumwfgypbvkjxqz';
const WEIGHTS = [127, 91, 82, 75, 70, 67, 63, 61, 60, 43, 40, 28, 28, 24, 24, 22, 20, 20, 19, 15, 10, 8, 2, 2, 1, 1];
const VOWELS = new Set('aeiou');

function letter(rng: Random, vowel: boolean | null): string {
  for (;;) {
    let u = rng.next() * 1000;
    let i = 0;
    while (i < WEIGHTS.length - 1 && u >= WEIGHTS[i]) u -= WEIGHTS[i++];
    const c = LETTERS[i];
    if (vowel === null || VOWELS.has(c) === vowel) return c;
  }
}

/** A pronounceable made-up word of `length` letters (consonant/vowel alternating, as most words roughly do). */
export function madeUpWord(rng: Random, length: number): string {
  let out = '';
  let vowel = rng.chance(0.3);
  for (let i = 0; i < length; i++) {
    out += letter(rng, vowel);
    vowel = rng.chance(0.15) ? vowel : !vowel;
  }
  return out;
}

/** `word` written with the case pattern of `like` (lower, Capitalised, UPPER). */
function withCase(word: string, like: string): string {
  if (like.length > 1 && like === like.toUpperCase() && like !== like.toLowerCase()) return word.toUpperCase();
  if (like[0] !== like[0].toLowerCase()) return word[0].toUpperCase() + word.slice(1);
  return word;
}

const WORD = /[A-Za-z][A-Za-z']*[A-Za-z]|[A-Za-z]/g;
const QUOTED = /"((?:[^"\\]|\\.)*)"/g;

function replaceWords(text: string, map: ReadonlyMap<string, string>): string {
  return text.replace(WORD, (w) => {
    const to = map.get(w.toLowerCase());
    return to === undefined ? w : withCase(to, w);
  });
}

function replaceQuoted(text: string, map: ReadonlyMap<string, string>): string {
  return text.replace(QUOTED, (_, inner: string) => `"${replaceWords(inner, map)}"`);
}

export interface RelabelOptions {
  /** Share of the screen's quoted words replaced (each distinct word independently). */
  wordShare: number;
}

/**
 * The example with some of its screen words replaced consistently (see the
 * file comment); deterministic from `rng`. Words of two letters or fewer
 * stay, as do words that appear in the goal only.
 */
export function relabel(parts: PlannerPromptParts, instruction: string, rng: Random, opts: RelabelOptions = { wordShare: 0.5 }): { parts: PlannerPromptParts; instruction: string } {
  const words = new Set<string>();
  for (const m of parts.screen.matchAll(QUOTED)) for (const w of m[1].match(WORD) ?? []) if (w.length > 2) words.add(w.toLowerCase());
  const map = new Map<string, string>();
  for (const w of [...words].sort()) {
    if (!rng.chance(opts.wordShare)) continue;
    map.set(w, madeUpWord(rng, Math.max(3, Math.min(10, w.length + rng.int(-2, 2)))));
  }
  if (map.size === 0) return { parts, instruction };
  return {
    parts: {
      goal: replaceWords(parts.goal, map),
      screen: replaceQuoted(parts.screen, map),
      history: parts.history.map((h) => replaceQuoted(h, map)),
    },
    instruction: replaceQuoted(instruction, map),
  };
}
