/**
 * Print and parse low-level instructions. Both directions are compiled from
 * the same templates (phrasings.ts), so for every valid instruction x,
 * parseInstruction(printInstruction(x)) deep-equals x.
 *
 * `phrasing` of an instruction with a target packs two choices:
 * actionForm = phrasing % A and refForm = floor(phrasing / A), where A is the
 * number of forms of its action; phrasingCount() gives the range.
 *
 * Valid means: CLICK carries ref only; TYPE and SELECT carry ref and value;
 * SCROLL a direction; OPEN_APP an app; quoted strings (texts, anchors,
 * values) may hold anything; free text (app, purpose) is non-empty, single
 * spaced, without double quotes; ordinals are integers ≥ 1; edge positions
 * (top, bottom, left, right) take an ordinal only as "counted from" that
 * edge, corners and the centre as "the n-th inside". A purpose said with the
 * conjugating form round-trips when its first word is a regular verb
 * (writers check with `roundTrips`).
 */
import type { ActionType, Instruction, Position, Ref, Role } from '../world/types';
import type { IconName } from '../world/types';
import { ICON_WORDS } from '../world/icons';
import {
  ACTION_FORMS,
  AREA_WORDS,
  COLOR_WORDS,
  DIRECTION_WORDS,
  EDGE_WORDS,
  ORDINAL_WORDS,
  REF_ACTIONS,
  REF_FORMS,
  REGION_WORDS,
  RELATION_WORDS,
  ROLE_PLURALS,
  ROLE_WORDS,
  baseForm,
  thirdPerson,
  type RefVariant,
} from './phrasings';

export { ALL_ROLE_WORDS, ROLE_WORDS } from './phrasings';

type VocabKind = 'role' | 'roles' | 'icon' | 'color' | 'edge' | 'region' | 'area' | 'rel0' | 'rel1' | 'dir';
type SlotKind = VocabKind | 'q' | 'free' | 'free3' | 'ord' | 'ref';

interface Slot {
  field: string;
  kind: SlotKind;
}

interface Compiled {
  parts: (string | Slot)[];
  slots: Slot[];
  regex: RegExp;
}

interface Vocab {
  word: Map<string, string>; // value → word
  value: Map<string, string>; // lower-case word → value
  pattern: string;
}

function escapeRegex(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function vocab(table: Readonly<Record<string, string>>): Vocab {
  const word = new Map(Object.entries(table));
  const value = new Map([...word].map(([v, w]) => [w.toLowerCase(), v]));
  if (value.size !== word.size) throw new Error('phrasings: a vocabulary maps two values to one word');
  const words = [...value.keys()].sort((a, b) => b.length - a.length);
  return { word, value, pattern: `(${words.map(escapeRegex).join('|')})` };
}

const VOCABS: Record<VocabKind, Vocab> = {
  role: vocab(ROLE_WORDS),
  roles: vocab(ROLE_PLURALS),
  icon: vocab(ICON_WORDS),
  color: vocab(COLOR_WORDS),
  edge: vocab(EDGE_WORDS),
  region: vocab(REGION_WORDS),
  area: vocab(AREA_WORDS),
  rel0: vocab(RELATION_WORDS[0]),
  rel1: vocab(RELATION_WORDS[1]),
  dir: vocab(DIRECTION_WORDS),
};

const QUOTED = '"((?:[^"\\\\]|\\\\.)*)"';
const ORDINAL = `(${ORDINAL_WORDS.join('|')}|\\d+(?:st|nd|rd|th))`;

function slotPattern(kind: SlotKind): string {
  switch (kind) {
    case 'q':
      return QUOTED;
    case 'free':
    case 'free3':
    case 'ref':
      return '(.+)';
    case 'ord':
      return ORDINAL;
    default:
      return VOCABS[kind].pattern;
  }
}

function compile(template: string): Compiled {
  const parts: (string | Slot)[] = [];
  const re = /\{(\w+)(?::(\w+))?\}/g;
  let last = 0;
  for (let m = re.exec(template); m; m = re.exec(template)) {
    if (m.index > last) parts.push(template.slice(last, m.index));
    const field = m[1];
    parts.push({ field, kind: (m[2] ?? field) as SlotKind });
    last = m.index + m[0].length;
  }
  if (last < template.length) parts.push(template.slice(last));
  const slots = parts.filter((p): p is Slot => typeof p !== 'string');
  const source = parts.map((p) => (typeof p === 'string' ? escapeRegex(p) : slotPattern(p.kind))).join('');
  return { parts, slots, regex: new RegExp(`^${source}$`, 'i') };
}

const ACTION_TYPES = Object.keys(ACTION_FORMS) as ActionType[];
const COMPILED_ACTIONS = Object.fromEntries(
  ACTION_TYPES.map((a) => [a, ACTION_FORMS[a].map(compile)]),
) as Record<ActionType, Compiled[]>;
const VARIANTS = Object.keys(REF_FORMS) as RefVariant[];
const COMPILED_REFS = Object.fromEntries(VARIANTS.map((v) => [v, REF_FORMS[v].map(compile)])) as Record<
  RefVariant,
  Compiled[]
>;

export function hasRef(action: ActionType): boolean {
  return REF_ACTIONS.includes(action);
}

function isEdge(p: Position): boolean {
  return p === 'top' || p === 'bottom' || p === 'left' || p === 'right';
}

export function refVariant(ref: Ref): RefVariant {
  switch (ref.style) {
    case 'text':
      return ref.role ? 'text+role' : 'text';
    case 'icon':
      return ref.role ? 'icon+role' : 'icon';
    case 'position':
      if (ref.ordinal === undefined) return 'position/region';
      return isEdge(ref.position) ? 'position/edge' : 'position/area';
    default:
      return ref.style;
  }
}

/** How many phrasings an instruction of this action (and reference) has. */
export function phrasingCount(action: ActionType, ref?: Ref): number {
  const a = ACTION_FORMS[action].length;
  if (!hasRef(action) || !ref) return a;
  return a * REF_FORMS[refVariant(ref)].length;
}

function ordinalWord(n: number): string {
  if (n >= 1 && n <= ORDINAL_WORDS.length) return ORDINAL_WORDS[n - 1];
  const teen = n % 100 >= 11 && n % 100 <= 13;
  const suffix = teen ? 'th' : ['th', 'st', 'nd', 'rd'][n % 10] ?? 'th';
  return `${n}${suffix}`;
}

function parseOrdinal(word: string): number | null {
  const i = ORDINAL_WORDS.indexOf(word.toLowerCase());
  if (i >= 0) return i + 1;
  const n = parseInt(word, 10);
  return Number.isFinite(n) && n >= 1 ? n : null;
}

function quote(s: string): string {
  return `"${s.replace(/[\\"]/g, '\\$&')}"`;
}

function unquote(s: string): string {
  return s.replace(/\\(.)/g, '$1');
}

type Fields = Record<string, string | number | undefined>;

function render(kind: SlotKind, value: string | number | undefined): string {
  if (value === undefined) throw new Error(`printInstruction: missing ${kind}`);
  switch (kind) {
    case 'q':
      return quote(String(value));
    case 'free':
    case 'ref':
      return String(value);
    case 'free3': {
      const [verb, ...rest] = String(value).split(' ');
      return [thirdPerson(verb), ...rest].join(' ');
    }
    case 'ord':
      return ordinalWord(Number(value));
    default: {
      const w = VOCABS[kind].word.get(String(value));
      if (w === undefined) throw new Error(`printInstruction: no ${kind} word for ${String(value)}`);
      return w;
    }
  }
}

function decode(kind: SlotKind, text: string): string | number | null {
  switch (kind) {
    case 'q':
      return unquote(text);
    case 'free':
    case 'ref':
      return text;
    case 'free3': {
      const [word, ...rest] = text.split(' ');
      const verb = baseForm(word);
      return verb === null ? null : [verb, ...rest].join(' ');
    }
    case 'ord':
      return parseOrdinal(text);
    default:
      return VOCABS[kind].value.get(text.toLowerCase()) ?? null;
  }
}

function fill(form: Compiled, fields: Fields): string {
  return form.parts.map((p) => (typeof p === 'string' ? p : render(p.kind, fields[p.field]))).join('');
}

function match(form: Compiled, text: string): Record<string, string | number> | null {
  const m = form.regex.exec(text);
  if (!m) return null;
  const out: Record<string, string | number> = {};
  for (let i = 0; i < form.slots.length; i++) {
    const v = decode(form.slots[i].kind, m[i + 1]);
    if (v === null) return null;
    out[form.slots[i].field] = v;
  }
  return out;
}

function refFields(ref: Ref): Fields {
  return { ...ref } as unknown as Fields;
}

function printRef(ref: Ref, form: number): string {
  const forms = COMPILED_REFS[refVariant(ref)];
  return fill(forms[form % forms.length], refFields(ref));
}

const VARIANT_STYLE: Record<RefVariant, Ref['style']> = {
  'text': 'text',
  'text+role': 'text',
  'icon': 'icon',
  'icon+role': 'icon',
  'position/region': 'position',
  'position/edge': 'position',
  'position/area': 'position',
  'relation': 'relation',
  'color': 'color',
  'function': 'function',
};

function parseRef(text: string): { ref: Ref; form: number } | null {
  for (const v of VARIANTS) {
    const forms = COMPILED_REFS[v];
    for (let f = 0; f < forms.length; f++) {
      const fields = match(forms[f], text);
      if (fields) return { ref: { style: VARIANT_STYLE[v], ...fields } as Ref, form: f };
    }
  }
  return null;
}

export function printInstruction(i: Instruction): string {
  const forms = COMPILED_ACTIONS[i.action];
  const a = i.phrasing % forms.length;
  const fields: Fields = { value: i.value, direction: i.direction, app: i.app };
  if (hasRef(i.action)) {
    if (!i.ref) throw new Error(`printInstruction: ${i.action} needs a ref`);
    fields.ref = printRef(i.ref, Math.floor(i.phrasing / forms.length));
  }
  return fill(forms[a], fields);
}

/** Collapse runs of whitespace outside double-quoted strings; keep quoted text as is. */
function normalizeSpaces(s: string): string {
  let out = '';
  let inQuote = false;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (inQuote) {
      out += c;
      if (c === '\\' && i + 1 < s.length) out += s[++i];
      else if (c === '"') inQuote = false;
    } else if (/\s/.test(c)) {
      if (out.length > 0 && !out.endsWith(' ')) out += ' ';
    } else {
      out += c;
      if (c === '"') inQuote = true;
    }
  }
  return out.trimEnd();
}

function parseExact(text: string): Instruction | null {
  for (const action of ACTION_TYPES) {
    const forms = COMPILED_ACTIONS[action];
    for (let a = 0; a < forms.length; a++) {
      const fields = match(forms[a], text);
      if (!fields) continue;
      const out: Instruction = { action, phrasing: a };
      if (hasRef(action)) {
        const r = parseRef(String(fields.ref));
        if (!r) continue;
        out.ref = r.ref;
        out.phrasing = a + forms.length * r.form;
      }
      if (fields.value !== undefined) out.value = String(fields.value);
      if (fields.direction !== undefined) out.direction = fields.direction as 'up' | 'down';
      if (fields.app !== undefined) out.app = String(fields.app);
      return out;
    }
  }
  return null;
}

/** Case-insensitive in its fixed words, tolerant of extra spaces and a final full stop. */
export function parseInstruction(s: string): Instruction | null {
  const text = normalizeSpaces(s);
  const exact = parseExact(text);
  if (exact || !text.endsWith('.')) return exact;
  return parseExact(text.slice(0, -1).trimEnd());
}

function cleanFree(s: string): string {
  return s.replace(/"/g, '').replace(/\s+/g, ' ').trim();
}

function normalizeRef(ref: Ref): Ref {
  switch (ref.style) {
    case 'text':
      return ref.role ? { style: 'text', text: ref.text, role: ref.role } : { style: 'text', text: ref.text };
    case 'icon':
      return ref.role ? { style: 'icon', icon: ref.icon, role: ref.role } : { style: 'icon', icon: ref.icon };
    case 'position': {
      const out: Ref = { style: 'position', role: ref.role, position: ref.position };
      if (ref.ordinal !== undefined) out.ordinal = Math.max(1, Math.round(ref.ordinal));
      return out;
    }
    case 'relation':
      return { style: 'relation', role: ref.role, relation: ref.relation, anchor: ref.anchor };
    case 'color':
      return { style: 'color', role: ref.role, color: ref.color };
    case 'function':
      return { style: 'function', purpose: cleanFree(ref.purpose) };
  }
}

/**
 * The valid instruction closest to `i`: fields its action does not use are
 * dropped, free text is single-spaced, ordinals are whole, and the phrasing
 * wraps into range. Missing required fields are filled with neutral values.
 */
export function normalizeInstruction(i: Instruction): Instruction {
  const out: Instruction = { action: i.action, phrasing: 0 };
  if (hasRef(i.action)) out.ref = normalizeRef(i.ref ?? { style: 'text', text: '' });
  if (i.action === 'TYPE' || i.action === 'SELECT') out.value = i.value ?? '';
  if (i.action === 'SCROLL') out.direction = i.direction ?? 'down';
  if (i.action === 'OPEN_APP') out.app = cleanFree(i.app ?? '') || 'app';
  const n = phrasingCount(i.action, out.ref);
  out.phrasing = ((Math.floor(i.phrasing) % n) + n) % n;
  return out;
}

function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  const ka = Object.keys(a).filter((k) => (a as Record<string, unknown>)[k] !== undefined);
  const kb = Object.keys(b).filter((k) => (b as Record<string, unknown>)[k] !== undefined);
  if (ka.length !== kb.length) return false;
  return ka.every((k) => sameValue((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

/** Structural equality of two instructions (undefined fields count as absent). */
export function sameInstruction(a: Instruction, b: Instruction): boolean {
  return sameValue(a, b);
}

/** Whether printing then parsing gives `i` back; writers emit only such instructions. */
export function roundTrips(i: Instruction): boolean {
  try {
    const back = parseInstruction(printInstruction(i));
    return back !== null && sameInstruction(back, i);
  } catch {
    return false;
  }
}

/** The role a role word names ("text field" → 'text-field'), or null. */
export function roleOfWord(word: string): Role | null {
  return (VOCABS.role.value.get(word.toLowerCase()) as Role | undefined) ?? null;
}

/** The icon a spoken icon word names ("trash" → 'delete'), or null. */
export function iconOfWord(word: string): IconName | null {
  return (VOCABS.icon.value.get(word.toLowerCase()) as IconName | undefined) ?? null;
}

/**
 * The parser's tables as plain data, for ports of parseInstruction to other
 * languages (src/export writes them as grammar.json beside rewards.py): the
 * action forms in the order parseExact tries them, the reference forms in
 * the order parseRef tries them, each as literal pieces and slots, and the
 * vocabularies' lower-case word → value maps. A port builds its own regular
 * expressions from the pieces, so that its regex dialect is its own concern.
 */
export interface GrammarSpec {
  actions: { action: ActionType; forms: GrammarForm[] }[];
  refActions: ActionType[];
  refs: { variant: RefVariant; style: Ref['style']; forms: GrammarForm[] }[];
  vocabs: Record<VocabKind, Record<string, string>>;
  ordinals: string[];
}

export interface GrammarForm {
  /** Literal text (matched case-insensitively) or a slot. */
  parts: (string | { field: string; kind: string })[];
}

export function grammarSpec(): GrammarSpec {
  const form = (c: Compiled): GrammarForm => ({ parts: c.parts.map((p) => (typeof p === 'string' ? p : { field: p.field, kind: p.kind })) });
  return {
    actions: ACTION_TYPES.map((action) => ({ action, forms: COMPILED_ACTIONS[action].map(form) })),
    refActions: [...REF_ACTIONS],
    refs: VARIANTS.map((variant) => ({ variant, style: VARIANT_STYLE[variant], forms: COMPILED_REFS[variant].map(form) })),
    vocabs: Object.fromEntries(Object.entries(VOCABS).map(([k, v]) => [k, Object.fromEntries(v.value)])) as Record<VocabKind, Record<string, string>>,
    ordinals: [...ORDINAL_WORDS],
  };
}
