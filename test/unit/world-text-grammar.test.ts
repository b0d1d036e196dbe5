import { describe, expect, it } from 'vitest';
import { Random } from '../../src/learn/random';
import {
  normalizeInstruction,
  parseInstruction,
  phrasingCount,
  printInstruction,
  refVariant,
  roleOfWord,
  iconOfWord,
  roundTrips,
} from '../../src/text/grammar';
import {
  ACTION_FORMS,
  ALL_ROLE_WORDS,
  AREAS,
  EDGES,
  REF_FORMS,
  ROLE_WORDS,
  baseForm,
  thirdPerson,
  type RefVariant,
} from '../../src/text/phrasings';
import { ICON_NAMES, ICON_WORDS } from '../../src/world/icons';
import type { ActionType, ColorName, Instruction, Position, Ref, Relation, Role } from '../../src/world/types';
import { REF_STYLES } from '../../src/world/types';

const ROLES = Object.keys(ROLE_WORDS) as Role[];
const COLORS: ColorName[] = ['red', 'orange', 'yellow', 'green', 'teal', 'blue', 'purple', 'pink', 'gray'];
const RELATIONS: Relation[] = ['next to', 'below', 'above', 'right of', 'left of'];
const POSITIONS: Position[] = [...EDGES, ...AREAS];
const ACTIONS = Object.keys(ACTION_FORMS) as ActionType[];

// Awkward strings on purpose: spaces, quotes, backslashes, digits, role and template words.
const TEXTS = [
  'Send',
  'Send button',
  'the red button',
  'text field',
  'Say "hi" to Bob',
  'C:\\temp\\new',
  'ends with backslash \\',
  '42',
  '',
  '  two  spaces ',
  "Don't save",
  'from the top',
  'click on',
  'into',
  'Ünïcödé ✓',
  'below "Subject"',
];
const PURPOSES = [
  'send the message',
  'close the dialog',
  'reply to the sender',
  'go to the previous screen',
  'search your mail',
  'switch the theme',
  'fix the layout',
  'pass the turn',
  'turn wifi on or off',
  'add 2 items to the cart',
  'open the text field labelled Subject',
];
const APPS = ['Mail', 'Music Player', 'Notes app', 'the app', 'App 2', 'Open'];

function randomRef(rng: Random): Ref {
  const style = rng.pick(REF_STYLES);
  const role = rng.pick(ROLES);
  switch (style) {
    case 'text':
      return rng.chance(0.5) ? { style, text: rng.pick(TEXTS) } : { style, text: rng.pick(TEXTS), role };
    case 'icon':
      return rng.chance(0.5) ? { style, icon: rng.pick(ICON_NAMES) } : { style, icon: rng.pick(ICON_NAMES), role };
    case 'position':
      return rng.chance(0.4)
        ? { style, role, position: rng.pick(POSITIONS) }
        : { style, role, position: rng.pick(POSITIONS), ordinal: rng.int(1, 25) };
    case 'relation':
      return { style, role, relation: rng.pick(RELATIONS), anchor: rng.pick(TEXTS) };
    case 'color':
      return { style, role, color: rng.pick(COLORS) };
    case 'function':
      return { style, purpose: rng.pick(PURPOSES) };
  }
}

function randomInstruction(rng: Random): Instruction {
  const action = rng.pick(ACTIONS);
  const i: Instruction = { action, phrasing: 0 };
  if (action === 'CLICK' || action === 'TYPE' || action === 'SELECT') i.ref = randomRef(rng);
  if (action === 'TYPE' || action === 'SELECT') i.value = rng.pick(TEXTS);
  if (action === 'SCROLL') i.direction = rng.chance(0.5) ? 'up' : 'down';
  if (action === 'OPEN_APP') i.app = rng.pick(APPS);
  i.phrasing = rng.int(0, phrasingCount(action, i.ref) - 1);
  return i;
}

/** One reference of each variant, to cover every form. */
const VARIANT_SAMPLES: Record<RefVariant, Ref> = {
  'text': { style: 'text', text: 'Send' },
  'text+role': { style: 'text', text: 'Send "now"', role: 'button' },
  'icon': { style: 'icon', icon: 'delete' },
  'icon+role': { style: 'icon', icon: 'star-outline', role: 'icon-button' },
  'position/region': { style: 'position', role: 'switch', position: 'bottom-right' },
  'position/edge': { style: 'position', role: 'radio', position: 'top', ordinal: 2 },
  'position/area': { style: 'position', role: 'list-item', position: 'center', ordinal: 13 },
  'relation': { style: 'relation', role: 'text-field', relation: 'below', anchor: 'Subject' },
  'color': { style: 'color', role: 'back-button', color: 'red' },
  'function': { style: 'function', purpose: 'send the message' },
};

describe('instruction grammar', () => {
  it('has at least three forms per action and per reference style, and the same count within a style', () => {
    for (const a of ACTIONS) expect(ACTION_FORMS[a].length).toBeGreaterThanOrEqual(3);
    for (const v of Object.keys(REF_FORMS) as RefVariant[]) expect(REF_FORMS[v].length).toBeGreaterThanOrEqual(3);
    for (const style of REF_STYLES) {
      const counts = (Object.keys(VARIANT_SAMPLES) as RefVariant[])
        .filter((v) => VARIANT_SAMPLES[v].style === style)
        .map((v) => REF_FORMS[v].length);
      expect(new Set(counts).size).toBe(1);
    }
  });

  it('round-trips every form of every action with every reference variant', () => {
    const seen = new Set<string>();
    for (const action of ACTIONS) {
      const refs = action === 'CLICK' || action === 'TYPE' || action === 'SELECT' ? Object.values(VARIANT_SAMPLES) : [undefined];
      for (const ref of refs) {
        for (let p = 0; p < phrasingCount(action, ref); p++) {
          const i: Instruction = { action, phrasing: p };
          if (ref) i.ref = ref;
          if (action === 'TYPE' || action === 'SELECT') i.value = 'hello world';
          if (action === 'SCROLL') i.direction = 'up';
          if (action === 'OPEN_APP') i.app = 'Music Player';
          const s = printInstruction(i);
          expect(parseInstruction(s), s).toEqual(i);
          seen.add(s);
        }
      }
    }
    // Different phrasings are different strings.
    const total = ACTIONS.reduce(
      (n, a) =>
        n +
        (a === 'CLICK' || a === 'TYPE' || a === 'SELECT'
          ? Object.values(VARIANT_SAMPLES).reduce((m, r) => m + phrasingCount(a, r), 0)
          : phrasingCount(a)),
      0,
    );
    expect(seen.size).toBe(total);
  });

  it('round-trips thousands of random instructions with awkward values', () => {
    const rng = new Random(7);
    let n = 0;
    for (let k = 0; k < 4000; k++) {
      const i = randomInstruction(rng);
      const s = printInstruction(i);
      expect(parseInstruction(s), s).toEqual(i);
      n++;
    }
    expect(n).toBe(4000);
  });

  it('reads the examples people write', () => {
    expect(parseInstruction('click the "Send" button')).toEqual({
      action: 'CLICK',
      ref: { style: 'text', text: 'Send', role: 'button' },
      phrasing: 0,
    });
    expect(parseInstruction('tap on "Send"')?.ref).toEqual({ style: 'text', text: 'Send' });
    expect(parseInstruction('tap the trash icon')?.ref).toEqual({ style: 'icon', icon: 'delete' });
    expect(parseInstruction('click the second button from the top')?.ref).toEqual({
      style: 'position',
      role: 'button',
      position: 'top',
      ordinal: 2,
    });
    expect(parseInstruction('press the switch at the bottom right')?.ref).toEqual({
      style: 'position',
      role: 'switch',
      position: 'bottom-right',
    });
    expect(parseInstruction('type "hi there" into the text field below "Subject"')).toMatchObject({
      action: 'TYPE',
      value: 'hi there',
      ref: { style: 'relation', role: 'text-field', relation: 'below', anchor: 'Subject' },
    });
    expect(parseInstruction('tap the switch next to "Wi-Fi"')?.ref).toMatchObject({ relation: 'next to', anchor: 'Wi-Fi' });
    expect(parseInstruction('click the red button')?.ref).toEqual({ style: 'color', role: 'button', color: 'red' });
    expect(parseInstruction('click the control that sends the message')?.ref).toEqual({
      style: 'function',
      purpose: 'send the message',
    });
    expect(parseInstruction('scroll down')).toEqual({ action: 'SCROLL', direction: 'down', phrasing: 0 });
    expect(parseInstruction('go back')).toEqual({ action: 'BACK', phrasing: 0 });
    expect(parseInstruction('launch Music Player')).toEqual({ action: 'OPEN_APP', app: 'Music Player', phrasing: 1 });
    expect(parseInstruction('the task is complete')).toEqual({ action: 'DONE', phrasing: 1 });
  });

  it('tolerates capitals, extra spaces and a final full stop, but keeps quoted text exactly', () => {
    expect(parseInstruction('  Click   The  "Send  it"   Button. ')).toEqual({
      action: 'CLICK',
      ref: { style: 'text', text: 'Send  it', role: 'button' },
      phrasing: 0,
    });
  });

  it('rejects what the language cannot say', () => {
    for (const s of [
      '',
      'dance',
      'click',
      'click the button',
      'type hello into the "To" text field',
      'click the "Send" gizmo',
      'click the zeroth button from the top',
      'click the 0th button from the top',
      'scroll sideways',
      'click the "unterminated button',
    ]) {
      expect(parseInstruction(s), s).toBeNull();
    }
  });

  it('maps role and icon words one to one', () => {
    for (const r of ROLES) expect(roleOfWord(ROLE_WORDS[r])).toBe(r);
    for (const icon of ICON_NAMES) expect(iconOfWord(ICON_WORDS[icon])).toBe(icon);
    expect(new Set(Object.values(ICON_WORDS)).size).toBe(ICON_NAMES.length);
    expect(new Set(ALL_ROLE_WORDS).size).toBe(ALL_ROLE_WORDS.length);
    expect(roleOfWord('gizmo')).toBeNull();
  });

  it('conjugates regular verbs reversibly', () => {
    const verbs = ['send', 'close', 'reply', 'go', 'search', 'switch', 'fix', 'pass', 'push', 'use', 'play', 'open', 'delete'];
    for (const v of verbs) expect(baseForm(thirdPerson(v))).toBe(v);
    expect(thirdPerson('reply')).toBe('replies');
    expect(thirdPerson('search')).toBe('searches');
    expect(thirdPerson('play')).toBe('plays');
    expect(baseForm('xyz')).toBeNull();
  });

  it('normalizes a sloppy instruction into one that round-trips', () => {
    const sloppy: Instruction = {
      action: 'CLICK',
      ref: { style: 'position', role: 'button', position: 'top', ordinal: 2.4 },
      value: 'ignored',
      app: 'ignored',
      phrasing: 1000,
    };
    const n = normalizeInstruction(sloppy);
    expect(n.value).toBeUndefined();
    expect(n.phrasing).toBeLessThan(phrasingCount('CLICK', n.ref));
    expect(roundTrips(n)).toBe(true);
    expect(roundTrips(normalizeInstruction({ action: 'OPEN_APP', app: '  My   "App" ', phrasing: 2 }))).toBe(true);
    expect(refVariant({ style: 'position', role: 'tab', position: 'top-left', ordinal: 1 })).toBe('position/area');
  });

  it('reports a purpose that does not conjugate back as not round-tripping', () => {
    const i: Instruction = { action: 'CLICK', ref: { style: 'function', purpose: 'focus the field' }, phrasing: 0 };
    expect(roundTrips(i)).toBe(false);
    expect(roundTrips({ ...i, phrasing: ACTION_FORMS.CLICK.length })).toBe(true);
  });
});
