/**
 * The planner's view of a screen: one line per visible element, in paint
 * order, with role, words and state but no coordinates (like the HTML a web
 * planner reads).
 */
import { ICON_WORDS } from './icons';
import type { Screen, UIElement } from './types';

const TOGGLES = new Set(['checkbox', 'switch', 'radio']);
/** Roles named by their label (a field's "Subject"), whose text is their value. */
const LABELLED = new Set(['text-field', 'search-box', 'dropdown', 'slider', 'switch']);

export function describeElement(e: UIElement): string {
  const parts: string[] = [e.role];
  const name = LABELLED.has(e.role) ? (e.label ?? e.text) : (e.text ?? e.label);
  if (name) parts.push(JSON.stringify(name));
  if (e.icon && !name) parts.push(`icon=${ICON_WORDS[e.icon]}`);
  const st = e.state;
  if (TOGGLES.has(e.role)) parts.push(st.checked ? 'checked' : 'unchecked');
  if (st.selected) parts.push('selected');
  if (st.expanded) parts.push('expanded');
  if (st.focused) parts.push('focused');
  if (st.disabled) parts.push('disabled');
  if (st.level !== undefined) parts.push(`level=${Math.round(st.level * 100)}%`);
  else if (st.value && st.value !== name) parts.push(`value=${JSON.stringify(st.value)}`);
  return parts.join(' ');
}

export function describeScreen(screen: Screen): string {
  return screen.elements.map(describeElement).join('\n');
}
