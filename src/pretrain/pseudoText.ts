/**
 * Screens whose words are made up. A small reader trained only on the
 * training sites' screens learns their words as wholes (a word's shape
 * stands for its letter bag) and then cannot read a held-out site's words;
 * on a screen of invented words the only way to its letters is to read them
 * one by one, and that carries over to any site. Each word is replaced by
 * letters drawn with English letter frequencies, keeping its length, its
 * capitals and its digits' places; the same word becomes the same made-up
 * word everywhere on the screen, so a nav bar's title and its heading child
 * still agree and the layout's labels and writers see one consistent screen.
 */
import type { Random } from '../learn/random';
import type { Screen, UIElement } from '../world/types';
import type { PoolScreen } from './grounderScreens';

// Relative frequency of each letter in English text, in per mille.
const LETTERS = 'etaoinshrdlcumwfgypbvkjxqz';
const PER_MILLE = [127, 91, 82, 75, 70, 67, 63, 61, 60, 43, 40, 28, 28, 24, 24, 22, 20, 20, 19, 15, 10, 8, 2, 2, 1, 1];
const TOTAL = PER_MILLE.reduce((a, b) => a + b, 0);

function drawLetter(rng: Random): string {
  let u = rng.next() * TOTAL;
  for (let i = 0; i < LETTERS.length; i++) {
    u -= PER_MILLE[i];
    if (u < 0) return LETTERS[i];
  }
  return LETTERS[LETTERS.length - 1];
}

function inventWord(rng: Random, word: string): string {
  let out = '';
  for (const ch of word) {
    if (ch >= '0' && ch <= '9') out += String(Math.floor(rng.next() * 10));
    else if (ch >= 'a' && ch <= 'z') out += drawLetter(rng);
    else if (ch >= 'A' && ch <= 'Z') out += drawLetter(rng).toUpperCase();
    else out += ch;
  }
  return out;
}

/** A rewriter that maps every ASCII word to one made-up word, the same each time it is seen. */
export function wordInventor(rng: Random): (text: string) => string {
  const seen = new Map<string, string>();
  return (text) =>
    text.replace(/[A-Za-z0-9]+/g, (word) => {
      let made = seen.get(word);
      if (made === undefined) {
        made = inventWord(rng, word);
        seen.set(word, made);
      }
      return made;
    });
}

/** The screen with every text it shows (texts, labels, field values, title) in made-up words; its targets follow by id. */
export function inventedScreen(rng: Random, s: PoolScreen): PoolScreen {
  const invent = wordInventor(rng);
  const opt = (t: string | undefined) => (t === undefined ? undefined : invent(t));
  const elements: UIElement[] = s.screen.elements.map((el) => ({
    ...el,
    text: opt(el.text),
    label: opt(el.label),
    state: el.state.value === undefined ? el.state : { ...el.state, value: invent(el.state.value) },
  }));
  const screen: Screen = { ...s.screen, title: invent(s.screen.title), elements };
  const byId = new Map(elements.map((el) => [el.id, el]));
  const targets = s.targets.map((t) => ({ element: byId.get(t.element.id) as UIElement, step: t.step }));
  return { taskId: s.taskId, screen, targets };
}
