/**
 * The app framework: an app is data (a seeded initial state) plus a pure
 * view from state to a widget tree whose handlers return the next state.
 * The world (env.ts) lays the tree out (layout.ts), hit-tests actions on the
 * laid-out elements and applies the handlers; apps never see pixels.
 *
 * HOW TO ADD AN APP (copy src/world/apps/settings.ts for mobile or
 * src/world/apps/mail.ts for web):
 *  1. Write src/world/apps/<name>.ts exporting `<NAME>_APP = defineApp<State, Variant>({...})`:
 *     - `State` is plain JSON (no classes, Maps, functions); `init(rng)` builds
 *       it from word lists in src/world/data/ using only the given Random.
 *     - `variants`: at least two, each with a Theme, field-label placement
 *       and whatever wording/layout switches your view reads (see MailVariant).
 *     - `view(state, variant)` returns a View: screenId (changes on
 *       navigation; scroll and focus reset then), title, nav bar (onBack for
 *       sub-pages), side (web only), body (scrolls), footer (fixed), and at
 *       most one overlay (dialog or menu, each with onDismiss).
 *     - Give every interactive widget a stable id derived from the data
 *       (`mail-${id}`), not from its position, so oracles can name targets.
 *     - Handlers are pure: `(s) => ({ ...s, x: 1 })`, never mutate `s`.
 *  2. Add one import line and one entry to APPS in src/world/apps/index.ts.
 *  3. Write src/world/tasks/<name>.ts (copy tasks/settings.ts): each
 *     `defineTemplate<State>({...})` has id '<app>.<what>', sample(rng, state)
 *     picking params from the initial state such that the goal is NOT yet
 *     true (return null when impossible), several goal phrasings, goal(params,
 *     state) and plan(params, state) as Intents naming element ids
 *     (click / type / select / back); the oracle scrolls to off-screen
 *     targets and prepends OPEN_APP on mobile by itself.
 *  4. Add one import line and one spread entry to TEMPLATES in
 *     src/world/tasks/index.ts. test/unit/world-core-tasks.test.ts then checks
 *     every template over 20 seeds and the layout invariants of every screen
 *     the oracle visits.
 */
import type { ColorName, Domain, IconName, Platform, Theme } from './types';
import type { Random } from '../learn/random';
import type { TextTone } from './theme';

/** A state transition. Handlers must be pure and return a new object. */
export type Update<S> = (s: S) => S;

export type Widget<S> =
  | { kind: 'column'; children: Widget<S>[]; gap?: number }
  | { kind: 'row'; children: Widget<S>[]; gap?: number; justify?: 'start' | 'end' | 'between' }
  | { kind: 'text'; text: string; tone?: TextTone; heading?: boolean; wrap?: boolean; grow?: boolean; color?: ColorName }
  | { kind: 'button'; id: string; text: string; onClick: Update<S>; primary?: boolean; color?: ColorName; purpose?: string; grow?: boolean }
  | { kind: 'icon-button'; id: string; icon: IconName; onClick: Update<S>; purpose: string; color?: ColorName; selected?: boolean }
  | { kind: 'link'; id: string; text: string; onClick: Update<S>; selected?: boolean; purpose?: string }
  | { kind: 'text-field'; id: string; label: string; value: string; onType: (s: S, text: string) => S; multiline?: boolean }
  | { kind: 'search-box'; id: string; label: string; value: string; onType: (s: S, text: string) => S; grow?: boolean }
  | { kind: 'checkbox'; id: string; text: string; checked: boolean; onToggle: Update<S> }
  | { kind: 'switch'; id: string; text: string; checked: boolean; onToggle: Update<S>; icon?: IconName; purpose?: string }
  | { kind: 'radio-group'; id: string; label: string; options: string[]; value: string; onSelect: (s: S, option: string) => S }
  | { kind: 'dropdown'; id: string; label: string; options: string[]; value: string; onSelect: (s: S, option: string) => S }
  | { kind: 'tabs'; id: string; tabs: string[]; value: string; onSelect: (s: S, tab: string) => S }
  | {
      kind: 'list-item';
      id: string;
      text: string;
      secondary?: string;
      icon?: IconName;
      strong?: boolean;
      selected?: boolean;
      onClick: Update<S>;
      trailing?: Widget<S>[];
    }
  | { kind: 'slider'; id: string; label: string; level: number; onSet: (s: S, level: number) => S; icon?: IconName }
  | { kind: 'card'; id: string; children: Widget<S>[]; onClick?: Update<S> }
  | { kind: 'image'; id: string; icon: IconName; size?: number }
  | { kind: 'spacer'; h: number };

export interface NavBar<S> {
  title: string;
  onBack?: Update<S>;
  center?: Widget<S>; // e.g. a search box, takes the free width
  actions?: Widget<S>[]; // right-aligned, usually icon buttons
}

export interface DialogOverlay<S> {
  kind: 'dialog';
  id: string;
  title: string;
  body: Widget<S>[];
  actions: Widget<S>[]; // buttons, right-aligned at the bottom
  onDismiss: Update<S>;
}

export interface MenuOverlay<S> {
  kind: 'menu';
  id: string;
  anchor: string; // id of the element the menu drops from
  items: { id: string; text: string; icon?: IconName; onClick: Update<S> }[];
  onDismiss: Update<S>;
}

export interface View<S> {
  screenId: string;
  title: string;
  nav?: NavBar<S>;
  side?: Widget<S>[]; // fixed left column (web)
  sideWidth?: number;
  body: Widget<S>[]; // scrolls
  footer?: Widget<S>[]; // fixed at the bottom
  overlay?: DialogOverlay<S> | MenuOverlay<S>;
}

/** What every variant has; apps extend it with their own wording and layout switches. */
export interface AppVariant {
  theme: Theme;
  labels: 'left' | 'above'; // where a text field's or dropdown's label goes
}

export interface AppDef<S, V extends AppVariant = AppVariant> {
  id: string;
  name: string; // shown under the launcher icon; OPEN_APP accepts it or the id
  icon: IconName;
  domain: Domain;
  platform: Platform;
  variants: V[];
  init(rng: Random): S;
  view(state: S, variant: V): View<S>;
}

/** Apps as the world holds them: state type erased, since they share one registry. */
export type AnyApp = AppDef<unknown, AppVariant>;

/** Checks an app against its own state type, then erases it for the registry. */
export function defineApp<S, V extends AppVariant>(def: AppDef<S, V>): AnyApp {
  if (def.variants.length < 2) throw new Error(`app ${def.id}: needs at least two variants`);
  return def as unknown as AnyApp;
}
