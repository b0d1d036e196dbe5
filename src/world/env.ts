/**
 * The executable world: a task's starting state, what is on screen, and the
 * effect of an action. WorldState is plain JSON so runs can be stored,
 * replayed and compared; everything else is recomputed from it.
 */
import { Random, hashString } from '../learn/random';
import type { AnyApp } from './app';
import { APPS } from './apps';
import { LAUNCHER_ID, launcherScreen } from './apps/launcher';
import { SELECTED_ROLES, TYPED_ROLES } from './actionRoles';
import { centerOf, hitTest } from './hit';
import { layoutView, type Layout, type UiState } from './layout';
import type { Action, Screen, Task, UIElement } from './types';

export interface WorldState {
  task: Task;
  appId: string; // the app in front, or 'launcher'
  apps: Record<string, unknown>; // each opened app's state, by app id
  ui: UiState;
  done: boolean;
}

export function appById(id: string): AnyApp {
  const app = APPS.find((a) => a.id === id);
  if (!app) throw new Error(`unknown app ${id}`);
  return app;
}

/** An app's data for a task seed: the same seed always gives the same mails, contacts, … */
export function initialAppState(app: AnyApp, seed: number): unknown {
  return app.init(new Random((seed ^ hashString(app.id)) >>> 0));
}

export function variantIndexOf(app: AnyApp, task: Task): number {
  return task.variant % app.variants.length;
}

const freshUi = (): UiState => ({ scroll: 0 });

export function createWorld(task: Task): WorldState {
  const app = appById(task.appId);
  return {
    task,
    appId: task.platform === 'mobile' ? LAUNCHER_ID : app.id,
    apps: { [app.id]: initialAppState(app, task.seed) },
    ui: freshUi(),
    done: false,
  };
}

/** The laid-out screen with its handlers; undefined handlers on the launcher. */
export function layoutOf(state: WorldState): Layout<unknown> {
  if (state.appId === LAUNCHER_ID) {
    const taskApp = appById(state.task.appId);
    const font = taskApp.variants[variantIndexOf(taskApp, state.task)].theme.font;
    const screen = launcherScreen(APPS.filter((a) => a.platform === 'mobile'), font, state.task.variant);
    return { screen, handlers: {}, offscreen: {}, scroll: 0, maxScroll: 0, scrollStep: 0 };
  }
  const app = appById(state.appId);
  const vi = variantIndexOf(app, state.task);
  const variant = app.variants[vi];
  const view = app.view(state.apps[app.id], variant);
  return layoutView(view, app.platform, variant, state.ui, app.id, vi);
}

export function screenOf(state: WorldState): Screen {
  return layoutOf(state).screen;
}

function openApp(state: WorldState, name: string): WorldState {
  if (state.task.platform !== 'mobile') return state;
  const key = name.trim().toLowerCase();
  const app = APPS.find((a) => a.platform === 'mobile' && (a.id === key || a.name.toLowerCase() === key));
  if (!app) return state;
  const apps = app.id in state.apps ? state.apps : { ...state.apps, [app.id]: initialAppState(app, state.task.seed) };
  return { ...state, appId: app.id, apps, ui: freshUi() };
}

function withApp(state: WorldState, next: unknown): WorldState {
  return next === state.apps[state.appId] ? state : { ...state, apps: { ...state.apps, [state.appId]: next } };
}

const isField = (e: UIElement) => TYPED_ROLES.has(e.role);

/** Matches an option case-insensitively; a slider takes "70%" or "0.7". */
function parseLevel(option: string): number | undefined {
  const t = option.trim();
  const n = parseFloat(t);
  if (!Number.isFinite(n)) return undefined;
  const v = t.endsWith('%') || n > 1 ? n / 100 : n;
  return Math.min(1, Math.max(0, v));
}

function selectOn(state: WorldState, lay: Layout<unknown>, el: UIElement, option: string): WorldState {
  if (!SELECTED_ROLES.has(el.role)) return state;
  const h = lay.handlers[el.id];
  const s = state.apps[state.appId];
  if (el.role === 'slider' && h?.level) {
    const lv = parseLevel(option);
    return lv === undefined ? state : withApp(state, h.level(s, lv));
  }
  if (el.role === 'dropdown' && h?.select && el.options) {
    const opt = el.options.find((o) => o.toLowerCase() === option.trim().toLowerCase());
    return opt === undefined ? state : withApp(state, h.select(s, opt));
  }
  if (el.role === 'option' && el.parent) {
    const parent = lay.screen.elements.find((e) => e.id === el.parent);
    return parent ? selectOn(state, lay, parent, option) : state;
  }
  return state;
}

function click(state: WorldState, lay: Layout<unknown>, x: number, y: number): WorldState {
  const el = hitTest(lay.screen.elements, x, y);
  if (state.appId === LAUNCHER_ID) return el?.role === 'app-icon' ? openApp(state, el.id.slice(4)) : state;
  const s = state.apps[state.appId];
  // An open dropdown or menu takes the click: a choice, or a click-away that just closes it.
  if (state.ui.expanded) {
    const closed = { ...state, ui: { ...state.ui, expanded: undefined } };
    const h = el?.role === 'option' ? lay.handlers[el.id] : undefined;
    return h?.click ? withApp(closed, h.click(s)) : closed;
  }
  if (lay.overlay === 'menu' && el?.role !== 'menu-item') return lay.dismiss ? withApp(state, lay.dismiss(s)) : state;
  if (!el) return state;
  const h = lay.handlers[el.id];
  const ui: UiState = { ...state.ui, focus: isField(el) ? el.id : undefined };
  const moved = { ...state, ui };
  if (isField(el)) return moved;
  if (el.role === 'dropdown') return { ...moved, ui: { ...ui, expanded: el.id } };
  if (el.role === 'slider' && h?.level) {
    const lv = Math.round(((x - el.box.x + 0.5) / el.box.w) * 20) / 20;
    return withApp(moved, h.level(s, Math.min(1, Math.max(0, lv))));
  }
  return h?.click ? withApp(moved, h.click(s)) : moved;
}

function typeInto(state: WorldState, lay: Layout<unknown>, text: string, x?: number, y?: number): WorldState {
  const el =
    x !== undefined && y !== undefined
      ? hitTest(lay.screen.elements, x, y)
      : lay.screen.elements.find((e) => e.id === state.ui.focus && e.interactive);
  if (!el || !isField(el)) return state;
  const h = lay.handlers[el.id];
  if (!h?.type) return state;
  const next = { ...state, ui: { ...state.ui, focus: el.id, expanded: undefined } };
  return withApp(next, h.type(state.apps[state.appId], text));
}

function select(state: WorldState, lay: Layout<unknown>, option: string, x?: number, y?: number): WorldState {
  const el =
    x !== undefined && y !== undefined
      ? hitTest(lay.screen.elements, x, y)
      : lay.screen.elements.find((e) => e.id === state.ui.expanded);
  if (!el) return state;
  const next = selectOn(state, lay, el, option);
  return next === state ? state : { ...next, ui: { ...next.ui, expanded: undefined } };
}

function back(state: WorldState, lay: Layout<unknown>): WorldState {
  if (state.appId === LAUNCHER_ID) return state;
  if (state.ui.expanded) return { ...state, ui: { ...state.ui, expanded: undefined } };
  const s = state.apps[state.appId];
  if (lay.dismiss) return withApp(state, lay.dismiss(s));
  if (lay.back) return withApp(state, lay.back(s));
  return state.task.platform === 'mobile' ? { ...state, appId: LAUNCHER_ID, ui: freshUi() } : state;
}

function scroll(state: WorldState, lay: Layout<unknown>, direction: 'up' | 'down'): WorldState {
  const delta = direction === 'down' ? lay.scrollStep : -lay.scrollStep;
  const to = Math.min(lay.maxScroll, Math.max(0, lay.scroll + delta));
  return to === state.ui.scroll && !state.ui.expanded ? state : { ...state, ui: { ...state.ui, scroll: to, expanded: undefined } };
}

/** Apply one action. Never throws on a bad action: an action that hits nothing changes nothing. */
export function act(state: WorldState, action: Action): WorldState {
  if (state.done) return state;
  const lay = layoutOf(state);
  let next: WorldState;
  switch (action.type) {
    case 'CLICK':
      next = click(state, lay, action.x, action.y);
      break;
    case 'TYPE':
      next = typeInto(state, lay, action.text, action.x, action.y);
      break;
    case 'SELECT':
      next = select(state, lay, action.option, action.x, action.y);
      break;
    case 'SCROLL':
      next = scroll(state, lay, action.direction);
      break;
    case 'BACK':
      next = back(state, lay);
      break;
    case 'OPEN_APP':
      next = openApp(state, action.app);
      break;
    case 'DONE':
      next = { ...state, done: true };
      break;
  }
  if (next !== state && next.appId === state.appId && next.appId !== LAUNCHER_ID) {
    const after = layoutOf(next);
    // A new page starts at its top, with nothing focused or open.
    if (after.screen.screenId !== lay.screen.screenId) next = { ...next, ui: freshUi() };
    else if (after.overlay !== lay.overlay) next = { ...next, ui: { ...next.ui, expanded: undefined, focus: undefined } };
  }
  return next;
}

export { centerOf };
