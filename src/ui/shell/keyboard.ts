/** The lab's keyboard shortcuts: space = run/pause, → = step one phase, on the Loop view only. */
import type { ViewName } from '../url';

export type KeyCommand = 'toggle-run' | 'step-phase';

/** What a key event looks like to the map: enough of KeyboardEvent to test without a DOM. */
export interface KeyPress {
  key: string;
  ctrlKey?: boolean;
  metaKey?: boolean;
  altKey?: boolean;
  shiftKey?: boolean;
  repeat?: boolean;
  target: { tagName?: string; isContentEditable?: boolean; getAttribute?(name: string): string | null } | null;
  /** The view on show. */
  view: ViewName;
}

/**
 * Where the shortcuts act: the view with the run's controls. Elsewhere Space
 * scrolls the page (the Data view is long) and → pages through what the view
 * shows; a run started or stepped from there would be a surprise.
 */
export const SHORTCUT_VIEWS: readonly ViewName[] = ['loop'];

/** Elements where the key already means something: typing, choosing, or (for space) pressing the focused control. */
const TYPING = new Set(['INPUT', 'TEXTAREA', 'SELECT']);
const SPACE_ACTIVATES = new Set(['BUTTON', 'A', 'SUMMARY']);
const ROLES_THAT_TAKE_KEYS = new Set(['textbox', 'slider', 'spinbutton', 'combobox', 'listbox', 'tab', 'menuitem']);

export function keyCommand(e: KeyPress): KeyCommand | null {
  if (!SHORTCUT_VIEWS.includes(e.view)) return null;
  if (e.ctrlKey || e.metaKey || e.altKey || e.repeat) return null;
  const t = e.target;
  const tag = t?.tagName?.toUpperCase() ?? '';
  if (TYPING.has(tag) || t?.isContentEditable) return null;
  const role = t?.getAttribute?.('role') ?? null;
  if (role && ROLES_THAT_TAKE_KEYS.has(role)) return null;
  if (e.key === ' ' || e.key === 'Spacebar') return SPACE_ACTIVATES.has(tag) || e.shiftKey ? null : 'toggle-run';
  if (e.key === 'ArrowRight' && !e.shiftKey) return 'step-phase';
  return null;
}

/** The shortcuts as the help line shows them. */
export const SHORTCUTS: readonly { keys: string; does: string }[] = [
  { keys: 'Space', does: 'run / pause' },
  { keys: '→', does: 'step one phase' },
];
