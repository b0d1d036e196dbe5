/**
 * An instruction as a person types it, read in the world's grammar. The
 * grammar (grammar.ts) names a target's text in quotes, 'click the "Cancel"
 * button', and the grounder's spelled match (models/orderedMatch.ts) reads
 * the target's letters only from an instruction that parses; "click the
 * Cancel button", as people write it, parses as nothing, and the grounder
 * then has only its other, weaker cues. So an instruction that does not
 * parse is tried again with its target text quoted; the first form that
 * parses is used, and the caller says what it read.
 */
import { ALL_ROLE_WORDS, parseInstruction } from './grammar';

/** The instruction in a form the grammar parses: as written when it does, else with its target quoted, else as written. */
export function readLoosely(instruction: string): string {
  const s = instruction.trim().replace(/\s+/g, ' ').replace(/[.!]+$/, '');
  if (parseInstruction(s)) return s;
  for (const candidate of quotedForms(s)) if (parseInstruction(candidate)) return candidate;
  return s;
}

const VERB = /^(click on|tap on|click|tap|press)\s+(.+)$/i;
const roles = [...ALL_ROLE_WORDS].sort((a, b) => b.length - a.length);

/**
 * Forms with the target text quoted: with its role word kept ("the "X"
 * button"), then alone ("X"). Only a text that looks like a label (it
 * begins with a capital or was quoted) is taken for one: "tap the search
 * icon" names an icon, and quoting it would ask for the words "search icon".
 */
function quotedForms(s: string): string[] {
  const m = VERB.exec(s);
  if (!m) return [];
  const verb = m[1].toLowerCase();
  const rest = m[2].replace(/^the\s+/i, '');
  const out: string[] = [];
  for (const role of roles) {
    const tail = ` ${role}`;
    if (rest.toLowerCase().endsWith(tail) && rest.length > tail.length) {
      const text = unquote(rest.slice(0, -tail.length));
      if (text) out.push(`${verb} the "${text}" ${role}`);
      break;
    }
  }
  const text = unquote(rest);
  if (text) out.push(`${verb} "${text}"`);
  return out;
}

function unquote(t: string): string | null {
  const quoted = /^["“'].*["”']$/.test(t);
  const text = t.replace(/^["“']|["”']$/g, '').trim().replace(/"/g, '');
  return text && (quoted || /^\p{Lu}|^\d/u.test(text)) ? text : null;
}
