/**
 * Goal marks: each line of the screen description whose quoted text the goal
 * also says is prefixed with a mark, "=" when the goal holds the whole text
 * and "+" when it shares a content word with it. Reading models have long
 * been helped by such exact-match features (DrQA's reader marks the passage
 * words that occur in the question): a small planner cannot learn to compare
 * every line with the goal on its own, so it learns each site's words by
 * heart and fails on sites it has not seen. The mark makes the comparison an
 * input, whatever the words are, and relabelled examples stay consistent
 * because the marks are computed after relabelling.
 */
import { parseInstruction } from './grammar';

/** Words too common to say that a line and the goal are about the same thing. */
const STOPWORDS = new Set([
  'the', 'and', 'for', 'with', 'from', 'into', 'onto', 'your', 'you', 'all', 'new', 'this', 'that', 'then', 'its', 'are', 'was', 'has', 'have', 'not', 'out', 'off', 'per', 'via', 'get', 'set', 'add', 'use', 'now', 'any', 'one', 'our', 'their', 'them', 'than', 'too', 'but', 'can',
]);

const words = (text: string): string[] => text.toLowerCase().match(/[a-z0-9]+/g) ?? [];

const QUOTED = /"([^"]*)"/g;

export type GoalMark = '=' | '+' | '';

/** The goal as the marks compare against it: its words joined, and as a set. */
interface GoalIndex {
  joined: string;
  vocabulary: ReadonlySet<string>;
}

const indexOf = (goalWords: readonly string[]): GoalIndex => ({ joined: ` ${goalWords.join(' ')} `, vocabulary: new Set(goalWords) });

/** The mark of one description line against the goal's words (see the file comment). */
export function goalMark(line: string, goalWords: readonly string[]): GoalMark {
  return markOf(line, indexOf(goalWords));
}

function markOf(line: string, { joined, vocabulary }: GoalIndex): GoalMark {
  let mark: GoalMark = '';
  for (const [, text] of line.matchAll(QUOTED)) {
    const ws = words(text);
    if (ws.length === 0) continue;
    if (joined.includes(` ${ws.join(' ')} `)) return '=';
    if (ws.some((w) => w.length >= 3 && !STOPWORDS.has(w) && vocabulary.has(w))) mark = '+';
  }
  return mark;
}

/** The screen description with each line that the goal names marked. */
export function markScreen(goal: string, screen: string): string {
  const index = indexOf(words(goal));
  return screen
    .split('\n')
    .map((line) => {
      const mark = markOf(line, index);
      return mark ? `${mark} ${line}` : line;
    })
    .join('\n');
}

/**
 * The quoted texts of the description that the goal holds whole (what makes
 * a line "="): the spans the planner's copy marks (copyMarks.ts) favour.
 * Texts with a quote or backslash are left out, since the instruction would
 * have to escape them.
 */
export function goalNamedTexts(goal: string, screen: string): string[] {
  const { joined } = indexOf(words(goal));
  const out = new Set<string>();
  for (const [, text] of screen.matchAll(QUOTED)) {
    const ws = words(text);
    if (ws.length > 0 && !/[\\"]/.test(text) && joined.includes(` ${ws.join(' ')} `)) out.add(text);
  }
  return [...out];
}

/**
 * The texts earlier instructions clicked or chose: the text a click or a
 * selection named its target by, and the option chosen. A goal-named text
 * stays goal-named after its step, so without this the copy marks go on
 * favouring it and the planner repeats the step ("click the "Clients"
 * link" again once in the Clients folder). Typed values are left in: a
 * search's next step is often a click on the result it typed.
 */
export function actedOnTexts(history: readonly string[]): Set<string> {
  const out = new Set<string>();
  for (const line of history) {
    const i = parseInstruction(line);
    if (!i || (i.action !== 'CLICK' && i.action !== 'SELECT')) continue;
    if (i.ref?.style === 'text') out.add(i.ref.text);
    if (i.action === 'SELECT' && i.value !== undefined) out.add(i.value);
  }
  return out;
}
