/**
 * The planner's view of a screen: one line per visible element, in paint
 * order, with role, words and state but no coordinates (like the HTML a web
 * planner reads).
 *
 * Two forms. `describeScreen` is the compact one the planner reads: each
 * role is one token of the shared vocabulary ("field", not "text-field"),
 * an icon is named by its words alone, and a caption that only repeats the
 * label of the field beside it is left out, so every screen of every split
 * fits the prompt whole (the verbose form cut 353 of 400 cross-site screens
 * at 192 tokens). `describeScreenVerbose` is the original form: the
 * vocabulary was built from it (text/corpus.ts) and checkpoints depend on
 * that vocabulary, so it stays as it was.
 */
import { ICON_WORDS } from './icons';
import type { Role, Screen, UIElement } from './types';

const TOGGLES = new Set(['checkbox', 'switch', 'radio']);
/** Roles named by their label (a field's "Subject"), whose text is their value. */
const LABELLED = new Set(['text-field', 'search-box', 'dropdown', 'slider', 'switch']);

/** One vocabulary token per role, at the start of a line (tokenizer test checks). */
export const ROLE_TOKENS: Readonly<Record<Role, string>> = {
  'button': 'button',
  'icon-button': 'icon',
  'link': 'link',
  'text-field': 'field',
  'search-box': 'search',
  'checkbox': 'checkbox',
  'switch': 'switch',
  'radio': 'radio',
  'dropdown': 'dropdown',
  'option': 'option',
  'tab': 'tab',
  'list-item': 'item',
  'menu-item': 'menu',
  'dialog': 'dialog',
  'slider': 'slider',
  'card': 'card',
  'nav-bar': 'nav',
  'back-button': 'back',
  'app-icon': 'app',
  'heading': 'heading',
  'text': 'text',
  'image': 'image',
};

function nameOf(e: UIElement): string | undefined {
  return LABELLED.has(e.role) ? (e.label ?? e.text) : (e.text ?? e.label);
}

function stateWords(e: UIElement, name: string | undefined): string[] {
  const parts: string[] = [];
  const st = e.state;
  if (TOGGLES.has(e.role)) parts.push(st.checked ? 'checked' : 'unchecked');
  if (st.selected) parts.push('selected');
  if (st.expanded) parts.push('expanded');
  if (st.focused) parts.push('focused');
  if (st.disabled) parts.push('disabled');
  if (st.level !== undefined) parts.push(`level=${Math.round(st.level * 100)}%`);
  else if (st.value && st.value !== name) parts.push(`value=${JSON.stringify(st.value)}`);
  return parts;
}

/** The verbose line of one element: `text-field "Subject" focused`, `icon-button icon=trash`. */
export function describeElement(e: UIElement): string {
  const parts: string[] = [e.role];
  const name = nameOf(e);
  if (name) parts.push(JSON.stringify(name));
  if (e.icon && !name) parts.push(`icon=${ICON_WORDS[e.icon]}`);
  return [...parts, ...stateWords(e, name)].join(' ');
}

/**
 * The choices of a closed dropdown, as the HTML a web planner reads lists a
 * <select>'s <option>s: without them "Sort by best rating" could only be
 * turned into `select "Top rated"` on a site whose options the planner had
 * learnt by heart. An open one shows its options as elements of their own.
 */
function choiceWords(e: UIElement): string[] {
  return e.role === 'dropdown' && e.options && !e.state.expanded ? ['options', ...e.options.map((o) => JSON.stringify(o))] : [];
}

/** The compact line of one element: `field "Subject" focused`, `icon trash`. */
export function describeElementCompact(e: UIElement): string {
  const parts: string[] = [ROLE_TOKENS[e.role]];
  const name = nameOf(e);
  if (name) parts.push(JSON.stringify(name));
  if (e.icon && !name) parts.push(ICON_WORDS[e.icon]);
  return [...parts, ...stateWords(e, name), ...choiceWords(e)].join(' ');
}

/** Captions (plain text elements) that say exactly the name of a labelled element on the same screen. */
function repeatedCaptions(screen: Screen): Set<UIElement> {
  const labels = new Set(screen.elements.filter((e) => LABELLED.has(e.role)).map(nameOf).filter((n): n is string => n !== undefined));
  return new Set(screen.elements.filter((e) => e.role === 'text' && e.text !== undefined && labels.has(e.text)));
}

export function describeScreen(screen: Screen): string {
  const skip = repeatedCaptions(screen);
  return screen.elements
    .filter((e) => !skip.has(e))
    .map(describeElementCompact)
    .join('\n');
}

export function describeScreenVerbose(screen: Screen): string {
  return screen.elements.map(describeElement).join('\n');
}
