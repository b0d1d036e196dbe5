/**
 * Grammar-constrained decoding for the planner: which tokens may come next
 * so that the completion stays a prefix of an instruction that parses, and
 * every quoted span is copied whole from what the screen shows or the goal
 * says (the planner then cannot garble "Hollow Key" into "Hollow Wol").
 *
 * The instruction language (phrasings.ts) is compiled into templates (an
 * action form with each reference form put in for `{ref}`), each a list of
 * parts; every part is a trie of the strings allowed there: a literal, a
 * closed vocabulary (roles, icons, colours, ordinals…), or a per-screen set
 * (the screen's texts, spans of the goal, the screen's purposes). Decoding
 * walks the set of (template, part, trie node) states character by
 * character; a token is allowed when its characters leave some state alive,
 * eos when some state is complete. Tokenizer pieces are walked as a trie of
 * their own, so one pass per step covers the whole vocabulary.
 */
import {
  ACTION_FORMS,
  AREA_WORDS,
  COLOR_WORDS,
  DIRECTION_WORDS,
  EDGE_WORDS,
  ORDINAL_WORDS,
  REF_FORMS,
  REGION_WORDS,
  RELATION_WORDS,
  ROLE_PLURALS,
  ROLE_WORDS,
  baseForm,
  thirdPerson,
} from './phrasings';
import { ICON_WORDS } from '../world/icons';
import type { ActionType } from '../world/types';
import { CHARSET, SPECIAL, type Tokenizer } from './tokenizer';
import { tokenTrie, type TokenNode } from './tokenTrie';

const SPELLABLE = new Set(CHARSET);

/** What a quoted span or a free slot may say on one screen. */
export interface ConstraintSource {
  goal: string;
  /** Texts the screen shows: element texts, labels and values. */
  screenTexts: readonly string[];
  /** What the screen's elements do, in words ("send the message"): the function style's purposes. */
  purposes: readonly string[];
  /** Values a SELECT may choose that the screen does not show as text: a closed dropdown's options, a slider's percentages. */
  choices?: readonly string[];
  /**
   * The screen's visible elements as a reference may name them: the texts
   * and icon word that pick each out, and the role words that may call it.
   * A reference that gives both a role and a text (or an icon) must then
   * name one of these elements, not a text of one and the role of another.
   * Absent: role, text and icon are chosen independently.
   */
  referents?: readonly Referent[];
}

export interface Referent {
  texts: readonly string[];
  icon?: string;
  roleWords: readonly string[];
  /** The targeted actions the element can take (world/actionRoles.ts); absent: any. */
  actions?: readonly ActionType[];
  /** Texts an earlier step clicked this element by, with one of its role words: a click by them again is refused. */
  clickedBy?: readonly string[];
}

class Node {
  readonly next = new Map<string, Node>();
  end = false;
  /** Fewest characters from here to the end of one of the trie's strings (filled by trieOf). */
  toEnd = Infinity;
}

function fillToEnd(n: Node): number {
  let best = n.end ? 0 : Infinity;
  for (const m of n.next.values()) best = Math.min(best, 1 + fillToEnd(m));
  n.toEnd = best;
  return best;
}

function trieOf(strings: Iterable<string>): Node {
  const root = new Node();
  for (const s of strings) {
    let n = root;
    for (const c of s) {
      let m = n.next.get(c);
      if (!m) n.next.set(c, (m = new Node()));
      n = m;
    }
    n.end = true;
  }
  fillToEnd(root);
  return root;
}

const quote = (s: string) => `"${s.replace(/[\\"]/g, '\\$&')}"`;

/**
 * Spans of the goal that start at a word's first letter and end at a word's
 * last (so "Nico Park, 617-9526 (Mobile)" offers "Park" and "617-9526",
 * not "Park,"), each also with its first letter capitalised.
 */
export function goalSpans(goal: string, maxLength = 48): string[] {
  const isWord = (c: string | undefined) => c !== undefined && /[\p{L}\p{N}]/u.test(c);
  const starts: number[] = [];
  const ends: number[] = [];
  for (let i = 0; i < goal.length; i++) {
    if (isWord(goal[i]) && !isWord(goal[i - 1])) starts.push(i);
    if (isWord(goal[i]) && !isWord(goal[i + 1])) ends.push(i + 1);
  }
  const out = new Set<string>();
  for (const s of starts) {
    for (const e of ends) {
      if (e <= s || e - s > maxLength) continue;
      const span = goal.slice(s, e);
      out.add(span);
      out.add(span[0].toUpperCase() + span.slice(1));
    }
  }
  return [...out];
}

type Part = Node;
interface Template {
  parts: Part[];
  /** after[k]: fewest characters the parts after part k take. */
  after: number[];
}

const vocabTrie = (words: readonly string[]): Node => trieOf(words);

/** Closed vocabularies of the slot kinds (phrasings.ts), as tries built once. */
const CLOSED: Record<string, Node> = {
  role: vocabTrie(Object.values(ROLE_WORDS)),
  roles: vocabTrie(Object.values(ROLE_PLURALS)),
  icon: vocabTrie(Object.values(ICON_WORDS)),
  color: vocabTrie(Object.values(COLOR_WORDS)),
  edge: vocabTrie(Object.values(EDGE_WORDS)),
  region: vocabTrie(Object.values(REGION_WORDS)),
  area: vocabTrie(Object.values(AREA_WORDS)),
  rel0: vocabTrie(Object.values(RELATION_WORDS[0])),
  rel1: vocabTrie(Object.values(RELATION_WORDS[1])),
  dir: vocabTrie(Object.values(DIRECTION_WORDS)),
  ord: vocabTrie(ORDINAL_WORDS),
};

interface SlotSets {
  quotedText: Node; // {text:q}, {anchor:q}
  quotedValue: Node; // {value:q} of a SELECT
  typedValue: Node; // {value:q} of a TYPE
  purpose: Node; // {purpose:free}
  purpose3: Node; // {purpose:free3}
  app: Node; // {app:free}
  /** The role-and-text (or role-and-icon) stretch of a template filled from one element that can take the template's action; null without referents. */
  paired: ((stretch: string, action: ActionType) => Node) | null;
}

const SLOT = /\{(\w+)(?::(\w+))?\}/g;

/**
 * The stretch of a template from its role slot to its text or icon slot
 * (either order, with the words between: `{text:q} {role:role}`, `{role:role}
 * with the {icon:icon} icon`), or null when it has not both.
 */
export function pairedStretch(template: string): string | null {
  const role = template.indexOf('{role:role}');
  const named = ['{text:q}', '{icon:icon}'].map((slot) => ({ slot, at: template.indexOf(slot) })).find((x) => x.at >= 0);
  if (role < 0 || !named) return null;
  const start = Math.min(role, named.at);
  const end = Math.max(role + '{role:role}'.length, named.at + named.slot.length);
  return template.slice(start, end);
}

/** Every filling of `stretch` by one referent that can take `action`: its texts (or icon) with each of its role words. */
function fillStretch(stretch: string, action: ActionType, referents: readonly Referent[]): string[] {
  const out = new Set<string>();
  const byIcon = stretch.includes('{icon:icon}');
  for (const r of referents) {
    if (r.actions && !r.actions.includes(action)) continue;
    // An icon may be clicked again (a second "plus"); a text, once clicked by, not (plannerConstraint.ts says why).
    const texts = action === 'CLICK' && r.clickedBy ? r.texts.filter((t) => !r.clickedBy?.includes(t)) : r.texts;
    const names = byIcon ? (r.icon ? [r.icon] : []) : texts.map(quote);
    for (const name of names) {
      for (const word of r.roleWords) out.add(stretch.replace(byIcon ? '{icon:icon}' : '{text:q}', name).replace('{role:role}', word));
    }
  }
  return [...out];
}

/** Template strings, each with its action, with every reference form put in for {ref}. */
function templateStrings(): { action: ActionType; text: string }[] {
  const out: { action: ActionType; text: string }[] = [];
  for (const [action, forms] of Object.entries(ACTION_FORMS) as [ActionType, readonly string[]][]) {
    for (const form of forms) {
      if (!form.includes('{ref}')) {
        out.push({ action, text: form });
        continue;
      }
      for (const refForms of Object.values(REF_FORMS)) for (const r of refForms) out.push({ action, text: form.replace('{ref}', r) });
    }
  }
  return out;
}
const TEMPLATE_STRINGS = templateStrings();

/** The templates' fixed words, one trie each, shared by every screen's constraint (tries are never changed once built). */
const LITERALS = new Map<string, Node>();
function literal(text: string): Node {
  let n = LITERALS.get(text);
  if (!n) LITERALS.set(text, (n = trieOf([text])));
  return n;
}

function compile({ action, text: template }: { action: ActionType; text: string }, sets: SlotSets): Template | null {
  const stretch = sets.paired ? pairedStretch(template) : null;
  // The paired stretch becomes one slot, {paired}, filled from the screen's elements.
  const form = stretch ? template.replace(stretch, '{paired}') : template;
  const parts: Part[] = [];
  let last = 0;
  for (const m of form.matchAll(SLOT)) {
    if (m.index > last) parts.push(literal(form.slice(last, m.index)));
    const [field, kind = field] = [m[1], m[2]];
    let part: Node;
    if (field === 'paired' && stretch && sets.paired) part = sets.paired(stretch, action);
    else if (kind === 'q') part = field === 'value' ? (action === 'TYPE' ? sets.typedValue : sets.quotedValue) : sets.quotedText;
    else if (kind === 'free') part = field === 'app' ? sets.app : sets.purpose;
    else if (kind === 'free3') part = sets.purpose3;
    else part = CLOSED[kind];
    if (!part || part.next.size === 0) return null; // nothing can fill this slot on this screen
    parts.push(part);
    last = m.index + m[0].length;
  }
  if (last < form.length) parts.push(literal(form.slice(last)));
  const after = parts.map((_, k) => parts.slice(k + 1).reduce((a, p) => a + p.toEnd, 0));
  return { parts, after };
}

/** A live position: template t, part k, at `node` of that part's trie. */
interface State {
  t: number;
  k: number;
  node: Node;
}

/**
 * The constraint for one screen and goal. `start()` gives the state set
 * before the first token; `allowed(states)` the tokens that may follow (a
 * 0/1 mask over the vocabulary, eos included when the text so far is a
 * whole instruction); `advance(states, id)` the states after a token.
 */
export class InstructionConstraint {
  private readonly templates: Template[];
  private readonly tokens: TokenNode;
  private readonly cache = new Map<string, Uint8Array>();

  constructor(
    private readonly tok: Tokenizer,
    source: ConstraintSource,
  ) {
    // Only what the tokenizer can spell (CHARSET): a span with any other character could never be finished.
    const spellable = (t: string) => [...t].every((ch) => SPELLABLE.has(ch));
    const texts = [...new Set(source.screenTexts.filter((t) => t.trim() !== '' && spellable(t)))];
    const spans = goalSpans(source.goal).filter(spellable);
    const purposes = [...new Set(source.purposes.map((p) => p.replace(/\s+/g, ' ').trim()).filter((p) => p !== '' && !p.includes('"')))];
    const sets: SlotSets = {
      quotedText: trieOf(texts.map(quote)),
      quotedValue: trieOf([...new Set([...texts, ...spans, ...(source.choices ?? []).filter(spellable)])].map(quote)),
      // What is typed comes from the goal: no step of the world's tasks types a text the screen shows and the goal does not say.
      typedValue: trieOf(spans.map(quote)),
      purpose: trieOf(purposes),
      purpose3: trieOf(
        purposes.flatMap((p) => {
          const [verb, ...rest] = p.split(' ');
          const said = thirdPerson(verb);
          return baseForm(said) === verb ? [[said, ...rest].join(' ')] : [];
        }),
      ),
      app: trieOf([...texts, ...spans].filter((t) => !t.includes('"') && t.trim() === t && !/\s\s/.test(t))),
      paired: null,
    };
    const referents = source.referents?.map((r) => ({ ...r, texts: r.texts.filter((t) => t.trim() !== '' && spellable(t)) }));
    if (referents) {
      const filled = new Map<string, Node>();
      sets.paired = (stretch, action) => {
        const key = `${action} ${stretch}`;
        let n = filled.get(key);
        if (!n) filled.set(key, (n = trieOf(fillStretch(stretch, action, referents))));
        return n;
      };
    }
    this.templates = TEMPLATE_STRINGS.map((t) => compile(t, sets)).filter((t): t is Template => t !== null);
    this.tokens = tokenTrie(tok);
  }

  start(): State[] {
    return this.closure(this.templates.map((_, t) => ({ t, k: 0, node: this.templates[t].parts[0] })));
  }

  /** Adds, for every state at the end of a part's string, the start of the next part. */
  private closure(states: State[]): State[] {
    const out: State[] = [];
    const seen = new Set<string>();
    const stack = [...states];
    while (stack.length > 0) {
      const s = stack.pop() as State;
      out.push(s);
      const parts = this.templates[s.t].parts;
      if (s.node.end && s.k + 1 < parts.length) {
        const key = `${s.t}:${s.k + 1}`;
        if (!seen.has(key)) {
          seen.add(key);
          stack.push({ t: s.t, k: s.k + 1, node: parts[s.k + 1] });
        }
      }
    }
    return out;
  }

  private step(states: readonly State[], c: string): State[] {
    const moved: State[] = [];
    for (const s of states) {
      const n = s.node.next.get(c);
      if (n) moved.push({ t: s.t, k: s.k, node: n });
    }
    return moved.length === 0 ? moved : this.closure(moved);
  }

  /** Fewest characters (so at most that many tokens) that finish an instruction from `states`. */
  private toFinish(states: readonly State[]): number {
    let best = Infinity;
    for (const s of states) best = Math.min(best, s.node.toEnd + this.templates[s.t].after[s.k]);
    return best;
  }

  /** True when the text so far is a whole instruction. */
  complete(states: readonly State[]): boolean {
    return states.some((s) => s.node.end && s.k === this.templates[s.t].parts.length - 1);
  }

  advance(states: readonly State[], id: number): State[] {
    let cur = states as State[];
    for (const c of this.tok.tokenString(id)) {
      cur = this.step(cur, c);
      if (cur.length === 0) break;
    }
    return cur;
  }

  /**
   * Allowed next tokens from `states` when `budget` tokens may still follow
   * this one (eos included): a token is allowed only if what it leaves can
   * be finished within that budget, as single characters if need be, so a
   * completion never runs out of room. Memoised by `key` (the tokens so
   * far), since a group's samples share their prefixes.
   */
  allowed(states: readonly State[], key: string, budget: number): Uint8Array {
    const hit = this.cache.get(key);
    if (hit) return hit;
    const mask = new Uint8Array(this.tok.size);
    if (this.complete(states)) mask[SPECIAL.eos] = 1;
    const walk = (node: TokenNode, cur: State[]) => {
      for (const [c, child] of node.next) {
        const after = this.step(cur, c);
        if (after.length === 0) continue;
        if (child.ids.length > 0 && this.toFinish(after) + 1 <= budget) for (const id of child.ids) mask[id] = 1;
        walk(child, after);
      }
    };
    walk(this.tokens, states as State[]);
    this.cache.set(key, mask);
    return mask;
  }
}

/** The per-row driver plannerDecode uses: states follow the tokens chosen. */
export interface RowConstraint {
  /** Allowed next tokens (1) after the tokens generated so far in this row, `length` tokens in all (eos included). */
  allowed(generated: readonly number[], length: number): Uint8Array;
}

/** Tokens a CoT trace leaves free for the instruction after `</think>`. */
const COT_RESERVE = 16;

/**
 * A RowConstraint for one prompt. With `cot`, a completion may open with a
 * `<think>` trace: free text, closed while COT_RESERVE tokens remain; the
 * grammar applies after `</think>`.
 */
export function rowConstraint(tok: Tokenizer, source: ConstraintSource, opts: { cot?: boolean } = {}): RowConstraint {
  const c = new InstructionConstraint(tok, source);
  const free = new Uint8Array(tok.size).fill(1);
  for (const id of [SPECIAL.pad, SPECIAL.bos, SPECIAL.eos, SPECIAL.sep, SPECIAL.unk, SPECIAL.think]) free[id] = 0;
  const closeOnly = new Uint8Array(tok.size);
  closeOnly[SPECIAL.endThink] = 1;
  const memo = new Map<string, State[]>();
  const statesAfter = (ids: readonly number[]): State[] => {
    const key = ids.join(',');
    const hit = memo.get(key);
    if (hit) return hit;
    const states = ids.length === 0 ? c.start() : c.advance(statesAfter(ids.slice(0, -1)), ids[ids.length - 1]);
    memo.set(key, states);
    return states;
  };
  return {
    allowed(generated, length) {
      let body = generated;
      if (opts.cot && body[0] === SPECIAL.think) {
        const close = body.indexOf(SPECIAL.endThink);
        if (close < 0) return length - generated.length > COT_RESERVE ? free : closeOnly;
        body = body.slice(close + 1);
      }
      const budget = length - generated.length - 1;
      const mask = c.allowed(statesAfter(body), `${budget}|${body.join(',')}`, budget);
      if (opts.cot && generated.length === 0) {
        const withThink = mask.slice();
        withThink[SPECIAL.think] = 1;
        return withThink;
      }
      return mask;
    },
  };
}
