/**
 * The surface forms of the instruction language: the words for roles,
 * colours, positions and relations, and the templates each action and each
 * reference style can be said with. grammar.ts compiles these both ways, so
 * a form written here is printable and parseable at once.
 *
 * Template slots are `{field:kind}`; `{ref}` stands for a whole reference.
 * Kinds: q (a double-quoted string), free (plain words to the end), free3
 * (plain words whose first verb is said in the third person), ord (ordinal),
 * and the vocabularies below (role, roles, icon, color, edge, region, area,
 * rel0, rel1, dir).
 *
 * Rules that keep the language unambiguous (tested in world-text-grammar):
 * every action form starts with its own literal verb; no reference form
 * starts with "on"; texts, anchors and typed values are always quoted; role
 * words only follow a fixed delimiter (a quote, "the", an ordinal, a colour
 * or a region word), and the vocabularies share no word.
 */
import type { ActionType, ColorName, Position, Relation, Role } from '../world/types';

/** One spoken word (or words) per role; injective, so a role word names one Role. */
export const ROLE_WORDS: Readonly<Record<Role, string>> = {
  'button': 'button',
  'icon-button': 'icon button',
  'link': 'link',
  'text-field': 'text field',
  'search-box': 'search box',
  'checkbox': 'checkbox',
  'switch': 'switch',
  'radio': 'radio button',
  'dropdown': 'dropdown',
  'option': 'option',
  'tab': 'tab',
  'list-item': 'list item',
  'menu-item': 'menu item',
  'dialog': 'dialog',
  'slider': 'slider',
  'card': 'card',
  'nav-bar': 'navigation bar',
  'back-button': 'back button',
  'app-icon': 'app icon',
  'heading': 'heading',
  'text': 'text',
  'image': 'image',
};

export const ROLE_PLURALS: Readonly<Record<Role, string>> = {
  'button': 'buttons',
  'icon-button': 'icon buttons',
  'link': 'links',
  'text-field': 'text fields',
  'search-box': 'search boxes',
  'checkbox': 'checkboxes',
  'switch': 'switches',
  'radio': 'radio buttons',
  'dropdown': 'dropdowns',
  'option': 'options',
  'tab': 'tabs',
  'list-item': 'list items',
  'menu-item': 'menu items',
  'dialog': 'dialogs',
  'slider': 'sliders',
  'card': 'cards',
  'nav-bar': 'navigation bars',
  'back-button': 'back buttons',
  'app-icon': 'app icons',
  'heading': 'headings',
  'text': 'texts',
  'image': 'images',
};

/** Every role word, singular then plural, e.g. for a tokenizer's vocabulary. */
export const ALL_ROLE_WORDS: readonly string[] = [...Object.values(ROLE_WORDS), ...Object.values(ROLE_PLURALS)];

export const COLOR_WORDS: Readonly<Record<ColorName, string>> = {
  red: 'red',
  orange: 'orange',
  yellow: 'yellow',
  green: 'green',
  teal: 'teal',
  blue: 'blue',
  purple: 'purple',
  pink: 'pink',
  gray: 'gray',
};

export type Edge = 'top' | 'bottom' | 'left' | 'right';
export type Area = 'top-left' | 'top-right' | 'bottom-left' | 'bottom-right' | 'center';

export const EDGES: readonly Edge[] = ['top', 'bottom', 'left', 'right'];
export const AREAS: readonly Area[] = ['top-left', 'top-right', 'bottom-left', 'bottom-right', 'center'];

export const EDGE_WORDS: Readonly<Record<Edge, string>> = { top: 'top', bottom: 'bottom', left: 'left', right: 'right' };
export const AREA_WORDS: Readonly<Record<Area, string>> = {
  'top-left': 'top left',
  'top-right': 'top right',
  'bottom-left': 'bottom left',
  'bottom-right': 'bottom right',
  'center': 'center',
};
export const REGION_WORDS: Readonly<Record<Position, string>> = { ...EDGE_WORDS, ...AREA_WORDS };

/** Two ways to say each relation; the templates pick one table each. */
export const RELATION_WORDS: readonly Readonly<Record<Relation, string>>[] = [
  { 'next to': 'next to', 'below': 'below', 'above': 'above', 'right of': 'to the right of', 'left of': 'to the left of' },
  { 'next to': 'beside', 'below': 'directly below', 'above': 'directly above', 'right of': 'just right of', 'left of': 'just left of' },
];

export const DIRECTION_WORDS: Readonly<Record<'up' | 'down', string>> = { up: 'up', down: 'down' };

export const ORDINAL_WORDS: readonly string[] = [
  'first', 'second', 'third', 'fourth', 'fifth', 'sixth', 'seventh', 'eighth', 'ninth', 'tenth',
];

/** Actions whose instruction names a target element. */
export const REF_ACTIONS: readonly ActionType[] = ['CLICK', 'TYPE', 'SELECT'];

export const ACTION_FORMS: Readonly<Record<ActionType, readonly string[]>> = {
  CLICK: ['click {ref}', 'tap {ref}', 'tap on {ref}', 'press {ref}', 'click on {ref}'],
  TYPE: ['type {value:q} into {ref}', 'enter {value:q} in {ref}', 'fill {ref} with {value:q}', 'put {value:q} in {ref}'],
  SELECT: ['select {value:q} in {ref}', 'choose {value:q} from {ref}', 'set {ref} to {value:q}', 'pick {value:q} from {ref}'],
  SCROLL: ['scroll {direction:dir}', 'scroll {direction:dir} the page', 'scroll {direction:dir} a little'],
  BACK: ['go back', 'navigate back', 'return to the previous screen'],
  OPEN_APP: ['open the {app:free} app', 'launch {app:free}', 'switch to the {app:free} app'],
  DONE: ['you are done', 'the task is complete', 'finish the task'],
};

/**
 * Sub-kinds of a reference that are said differently: a text or icon with or
 * without its role, a position as a region, as an ordinal from an edge, or as
 * an ordinal inside a corner or the centre. Every sub-kind of a style has the
 * same number of forms, so the phrasing count depends on the style only.
 */
export type RefVariant =
  | 'text'
  | 'text+role'
  | 'icon'
  | 'icon+role'
  | 'position/region'
  | 'position/edge'
  | 'position/area'
  | 'relation'
  | 'color'
  | 'function';

export const REF_FORMS: Readonly<Record<RefVariant, readonly string[]>> = {
  'text': ['{text:q}', 'the one labelled {text:q}', 'where it says {text:q}', 'the element that says {text:q}'],
  'text+role': [
    'the {text:q} {role:role}',
    'the {role:role} labelled {text:q}',
    'the {role:role} that says {text:q}',
    'the {role:role} named {text:q}',
  ],
  'icon': ['the {icon:icon} icon', 'the {icon:icon} symbol', 'the icon showing the {icon:icon}'],
  'icon+role': ['the {icon:icon} {role:role}', 'the {role:role} with the {icon:icon} icon', 'the {role:role} showing the {icon:icon}'],
  'position/region': [
    'the {role:role} at the {position:region}',
    'the {role:role} in the {position:region} of the screen',
    'the {position:region} {role:role}',
  ],
  'position/edge': [
    'the {ordinal:ord} {role:role} from the {position:edge}',
    'the {ordinal:ord} {role:role} counting from the {position:edge}',
    'the {role:role} {ordinal:ord} from the {position:edge}',
  ],
  'position/area': [
    'the {ordinal:ord} {role:role} in the {position:area}',
    'the {ordinal:ord} {role:role} at the {position:area}',
    'the {ordinal:ord} of the {role:roles} in the {position:area}',
  ],
  'relation': [
    'the {role:role} {relation:rel0} {anchor:q}',
    'the {role:role} that is {relation:rel0} {anchor:q}',
    'the {role:role} {relation:rel1} {anchor:q}',
  ],
  'color': ['the {color:color} {role:role}', 'the {role:role} in {color:color}', 'the {role:role} that is {color:color}'],
  'function': [
    'the control that {purpose:free3}',
    'the one used to {purpose:free}',
    'whatever lets you {purpose:free}',
    'the element you use to {purpose:free}',
  ],
};

/** "send" → "sends", "reply" → "replies", "push" → "pushes". */
export function thirdPerson(verb: string): string {
  if (/(s|sh|ch|x|z|o)$/i.test(verb)) return verb + 'es';
  if (/[^aeiou]y$/i.test(verb)) return verb.slice(0, -1) + 'ies';
  return verb + 's';
}

/**
 * The inverse of thirdPerson for regular verbs: "closes" → "close" but
 * "passes" → "pass". Exact for verbs not ending in a single s or z (use
 * `thirdPerson(baseForm(w)) === w` and `baseForm(thirdPerson(v)) === v` to check).
 */
export function baseForm(word: string): string | null {
  const candidates: string[] = [];
  if (/[^aeiou]ies$/i.test(word)) candidates.push(word.slice(0, -3) + 'y');
  if (/(ss|sh|ch|x|zz|o)es$/i.test(word)) candidates.push(word.slice(0, -2));
  if (/s$/i.test(word)) candidates.push(word.slice(0, -1));
  for (const c of candidates) if (c.length > 0 && thirdPerson(c) === word) return c;
  return null;
}
