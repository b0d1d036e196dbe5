/**
 * The contract of the GUI world: what a screen is, what an action is, what a
 * task and an oracle step are. Every other part (renderer, instruction
 * writers, verifier, tasks, agents) is written against these types, so they
 * change rarely and only on purpose.
 */
import type { KnownIcon } from './icons';

export type Platform = 'web' | 'mobile';

/**
 * Fixed screen sizes. Multiples of 8 so that an 8-pixel cell grid tiles them
 * exactly (web 25×16 cells, mobile 15×26 cells): small enough to train on in
 * a browser, large enough for 7–9 px text to stay readable.
 */
export const SCREEN_SIZE: Readonly<Record<Platform, { width: number; height: number }>> = {
  web: { width: 200, height: 128 },
  mobile: { width: 120, height: 208 },
};

export type Domain =
  | 'mail'
  | 'shopping'
  | 'settings'
  | 'travel'
  | 'contacts'
  | 'calendar'
  | 'notes'
  | 'files'
  | 'music'
  | 'news';

/** Widget kinds the world draws and the grounder must find. */
export type Role =
  | 'button'
  | 'icon-button'
  | 'link'
  | 'text-field'
  | 'search-box'
  | 'checkbox'
  | 'switch'
  | 'radio'
  | 'dropdown'
  | 'option'
  | 'tab'
  | 'list-item'
  | 'menu-item'
  | 'dialog'
  | 'slider'
  | 'card'
  | 'nav-bar'
  | 'back-button'
  | 'app-icon'
  | 'heading'
  | 'text'
  | 'image';

/** Named colours, as a person would say them ("the red button"). */
export type ColorName =
  | 'red'
  | 'orange'
  | 'yellow'
  | 'green'
  | 'teal'
  | 'blue'
  | 'purple'
  | 'pink'
  | 'gray';

/** Axis-aligned box in screen pixels; (x, y) is the top-left corner. */
export interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

export interface ElementState {
  checked?: boolean; // checkbox, switch, radio
  selected?: boolean; // tab, option, list item
  focused?: boolean; // text field, search box
  disabled?: boolean;
  expanded?: boolean; // dropdown, menu
  value?: string; // text in a field, chosen option of a dropdown
  level?: number; // slider position in [0, 1]
}

/** Font families shipped as @fontsource packages. */
export type FontFamily = 'Inter' | 'Roboto Slab' | 'Noto Sans';

export interface TextStyle {
  family: FontFamily;
  size: number; // px
  weight: 400 | 500 | 600 | 700;
}

export interface Theme {
  mode: 'light' | 'dark';
  accent: ColorName;
  font: FontFamily;
  density: 'compact' | 'comfortable';
  corner: number; // corner radius of buttons and cards, px
}

/** One element on a screen, laid out. Elements are listed in paint order. */
export interface UIElement {
  id: string; // unique on its screen, stable across re-layouts of the same state
  role: Role;
  box: Box;
  text?: string; // visible text
  icon?: IconName; // visible icon
  label?: string; // the label that names it on screen (a field's "Subject")
  color?: ColorName; // distinctive fill, when it has one
  purpose?: string; // what it does, in words: "send the message"
  options?: readonly string[]; // a dropdown's choices, open or closed (an HTML <select>'s <option>s)
  state: ElementState;
  interactive: boolean; // can be the target of an action
  parent?: string; // id of the containing card / dialog / list / nav bar
  style?: TextStyle; // how its text is drawn; the theme's default when absent
}

export interface Screen {
  platform: Platform;
  width: number;
  height: number;
  appId: string; // 'launcher' on the mobile home screen
  variant: number; // visual variant of the site/app
  screenId: string; // e.g. 'inbox', 'compose'
  title: string;
  theme: Theme;
  elements: UIElement[];
}

/** Names of the icons the world can draw (see icons.ts for their paths and spoken words). */
export type IconName = KnownIcon;

export type ActionType = 'CLICK' | 'TYPE' | 'SELECT' | 'SCROLL' | 'BACK' | 'OPEN_APP' | 'DONE';

/**
 * What an agent does. TYPE and SELECT may carry a point: the element under it
 * is focused (or opened) first, so one instruction is one action, as in
 * Mind2Web's TYPE/SELECT steps. Without a point they act on the focused element.
 */
export type Action =
  | { type: 'CLICK'; x: number; y: number }
  | { type: 'TYPE'; text: string; x?: number; y?: number }
  | { type: 'SELECT'; option: string; x?: number; y?: number }
  | { type: 'SCROLL'; direction: 'up' | 'down' }
  | { type: 'BACK' }
  | { type: 'OPEN_APP'; app: string }
  | { type: 'DONE' };

export type RefStyle = 'text' | 'icon' | 'position' | 'relation' | 'color' | 'function';

export const REF_STYLES: readonly RefStyle[] = ['text', 'icon', 'position', 'relation', 'color', 'function'];

export type Position = 'top' | 'bottom' | 'left' | 'right' | 'top-left' | 'top-right' | 'bottom-left' | 'bottom-right' | 'center';
export type Relation = 'next to' | 'below' | 'above' | 'right of' | 'left of';

/** How an instruction refers to its target element. */
export type Ref =
  | { style: 'text'; text: string; role?: Role }
  | { style: 'icon'; icon: IconName; role?: Role }
  | { style: 'position'; role: Role; position: Position; ordinal?: number }
  | { style: 'relation'; role: Role; relation: Relation; anchor: string }
  | { style: 'color'; role: Role; color: ColorName }
  | { style: 'function'; purpose: string };

/**
 * A low-level instruction as data. `phrasing` picks one of the surface forms
 * of its action/style, so print() then parse() gives back the same value.
 */
export interface Instruction {
  action: ActionType;
  ref?: Ref; // CLICK, TYPE, SELECT: the target
  value?: string; // TYPE text, SELECT option
  direction?: 'up' | 'down'; // SCROLL
  app?: string; // OPEN_APP
  phrasing: number;
}

/** One step of a task as the oracle solves it. */
export interface OracleStep {
  action: Action; // what to execute (a CLICK at the target's centre, etc.)
  type: ActionType;
  targetId?: string; // the element acted on, when there is one
  box?: Box; // its box on the screen before the step
  value?: string; // TYPE text, SELECT option, OPEN_APP name, SCROLL direction
  instruction: Instruction; // the canonical low-level instruction (text style where possible)
}

export interface Task {
  id: string; // templateId + params, unique and stable
  templateId: string;
  appId: string;
  domain: Domain;
  platform: Platform;
  variant: number; // which visual variant of the site/app
  seed: number; // seeds the app's data (names, mails, products, …)
  params: Record<string, string>;
  goal: string; // the goal in words, one of the template's phrasings
}
