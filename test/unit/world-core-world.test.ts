import { describe, expect, it } from 'vitest';
import { act, createWorld, layoutOf, screenOf, type WorldState } from '../../src/world/env';
import { centerOf, hitTest } from '../../src/world/hit';
import { describeScreen, describeScreenVerbose, ROLE_TOKENS } from '../../src/world/describe';
import { defaultTokenizer } from '../../src/text/vocab';
import { APPS } from '../../src/world/apps';
import { TEMPLATES, makeTask, oracle, templateById } from '../../src/world/tasks';
import type { MailState } from '../../src/world/apps/mail';
import type { SettingsState } from '../../src/world/apps/settings';
import type { Role, Screen, UIElement } from '../../src/world/types';
import { layoutProblems } from './world-core-check';

const task = (id: string, seed = 4) => makeTask(templateById(id), seed);
const el = (s: WorldState | Screen, id: string): UIElement => {
  const screen = 'elements' in s ? s : screenOf(s);
  const found = screen.elements.find((e) => e.id === id);
  if (!found) throw new Error(`no ${id} on ${screen.screenId}: ${screen.elements.map((e) => e.id).join(' ')}`);
  return found;
};
const click = (s: WorldState, id: string) => act(s, { type: 'CLICK', ...centerOf(el(s, id).box) });
const mail = (s: WorldState) => s.apps.mail as MailState;
const settings = (s: WorldState) => s.apps.settings as SettingsState;
/** A world for `templateId`, forced to a given visual variant. */
const inVariant = (templateId: string, variant: number) => createWorld({ ...task(templateId), variant });

describe('layout checker', () => {
  it('flags overlap, off-screen and tiny interactive elements', () => {
    const s = screenOf(createWorld(task('mail.open')));
    const [a, b] = s.elements.filter((e) => e.interactive && !e.parent);
    const bad: Screen = { ...s, elements: [{ ...a }, { ...b, box: { ...a.box } }, { ...b, id: 'tiny', box: { x: 195, y: 1, w: 3, h: 3 } }, { ...b, id: 'off', box: { x: 190, y: 1, w: 20, h: 8 } }] };
    const problems = layoutProblems(bad).join('\n');
    expect(problems).toContain('overlaps');
    expect(problems).toContain('tiny: too small');
    expect(problems).toContain('off: off screen');
  });
});

describe('world actions', () => {
  it('a click on nothing changes nothing', () => {
    const s = createWorld(task('mail.open'));
    const screen = screenOf(s);
    let spot: { x: number; y: number } | undefined;
    for (let y = 0; y < screen.height && !spot; y++) for (let x = 0; x < screen.width && !spot; x++) if (!hitTest(screen.elements, x, y)) spot = { x, y };
    expect(spot).toBeDefined();
    expect(act(s, { type: 'CLICK', ...spot! })).toEqual(s);
  });

  it('mobile starts at the launcher; an app icon, OPEN_APP by name or id all open the app; BACK at the root goes home', () => {
    const s = createWorld(task('settings.wifi'));
    const home = screenOf(s);
    expect(home.appId).toBe('launcher');
    expect(home.elements.filter((e) => e.role === 'app-icon').map((e) => e.text)).toContain('Settings');
    expect(layoutProblems(home)).toEqual([]);
    const viaIcon = click(s, 'app.settings');
    const viaName = act(s, { type: 'OPEN_APP', app: 'Settings' });
    const viaId = act(s, { type: 'OPEN_APP', app: 'settings' });
    for (const x of [viaIcon, viaName, viaId]) expect(screenOf(x).appId).toBe('settings');
    expect(screenOf(viaIcon)).toEqual(screenOf(viaName));
    expect(act(s, { type: 'OPEN_APP', app: 'no such app' })).toEqual(s);
    expect(screenOf(act(viaName, { type: 'BACK' })).appId).toBe('launcher');
    // Coming back keeps the app's state.
    const toggled = click(viaName, 'wifi');
    const again = act(act(toggled, { type: 'BACK' }), { type: 'OPEN_APP', app: 'Settings' });
    expect(settings(again).wifi).toBe(settings(toggled).wifi);
  });

  it('sub-pages go back with BACK and with the back button', () => {
    let s = act(createWorld(task('settings.dark')), { type: 'OPEN_APP', app: 'Settings' });
    s = click(s, 'page.display');
    expect(screenOf(s).screenId).toBe('display');
    expect(el(s, 'nav.back').role).toBe('back-button');
    expect(screenOf(act(s, { type: 'BACK' })).screenId).toBe('main');
    expect(screenOf(click(s, 'nav.back')).screenId).toBe('main');
  });

  it('a dropdown opens on click, lists options on top, and a chosen option applies and closes it', () => {
    for (const variant of [0, 1, 2]) {
      let s = click(inVariant('mail.sort', variant), 'settings');
      expect(screenOf(s).elements.some((e) => e.role === 'dialog')).toBe(true);
      const before = mail(s).pending.sort;
      s = click(s, 'set.sort');
      const screen = screenOf(s);
      expect(el(screen, 'set.sort').state.expanded).toBe(true);
      const options = screen.elements.filter((e) => e.role === 'option');
      expect(options.map((o) => o.text)).toEqual(['Newest', 'Oldest', 'Sender']);
      expect(layoutProblems(screen)).toEqual([]);
      const other = options.find((o) => o.text !== before)!;
      s = click(s, other.id);
      expect(mail(s).pending.sort).toBe(other.text);
      expect(screenOf(s).elements.some((e) => e.role === 'option')).toBe(false);
      // Clicking away from an open dropdown only closes it.
      const open = click(s, 'set.sort');
      const away = act(open, { type: 'CLICK', x: 1, y: 1 });
      expect(mail(away)).toEqual(mail(s));
      expect(away.ui.expanded).toBeUndefined();
      // SELECT without a point acts on the open dropdown; BACK closes it before the dialog.
      expect(mail(act(open, { type: 'SELECT', option: before })).pending.sort).toBe(before);
      expect(mail(act(open, { type: 'BACK' })).dialog).toBe(true);
      expect(mail(act(s, { type: 'BACK' })).dialog).toBe(false);
    }
  });

  it('a dialog is modal: what is behind it cannot be clicked', () => {
    const s = click(createWorld(task('mail.sort')), 'settings');
    const behind = screenOf(s).elements.filter((e) => !e.parent && e.role !== 'dialog');
    expect(behind.length).toBeGreaterThan(0);
    expect(behind.every((e) => !e.interactive)).toBe(true);
  });

  it('TYPE goes into the focused field, or the one under its point; not elsewhere', () => {
    let s = click(createWorld(task('mail.compose')), 'compose');
    expect(act(s, { type: 'TYPE', text: 'lost' })).toEqual(s); // nothing focused yet
    s = click(s, 'subject');
    expect(el(s, 'subject').state.focused).toBe(true);
    s = act(s, { type: 'TYPE', text: 'Hello there' });
    expect(mail(s).draft.subject).toBe('Hello there');
    s = act(s, { type: 'TYPE', text: 'ada@acme.org', ...centerOf(el(s, 'to').box) });
    expect(mail(s).draft.to).toBe('ada@acme.org');
    expect(el(s, 'to').state.focused).toBe(true);
    expect(el(s, 'subject').state.focused).toBe(false);
    expect(act(s, { type: 'TYPE', text: 'x', ...centerOf(el(s, 'send').box) })).toEqual(s);
  });

  it('SCROLL moves the main list and clamps at both ends', () => {
    let s: WorldState | undefined;
    for (let seed = 1; seed < 40 && !s; seed++) {
      const w = { ...createWorld(task('mail.open', seed)), task: { ...task('mail.open', seed), variant: 1 } };
      if (layoutOf(w).maxScroll > 0) s = w;
    }
    expect(s).toBeDefined();
    const top = s!;
    expect(act(top, { type: 'SCROLL', direction: 'up' })).toEqual(top);
    const down = act(top, { type: 'SCROLL', direction: 'down' });
    expect(down.ui.scroll).toBeGreaterThan(0);
    const ids = (w: WorldState) => screenOf(w).elements.filter((e) => e.role === 'list-item').map((e) => e.id);
    expect(ids(down)).not.toEqual(ids(top));
    let bottom = down;
    for (let i = 0; i < 10; i++) bottom = act(bottom, { type: 'SCROLL', direction: 'down' });
    expect(bottom.ui.scroll).toBe(layoutOf(bottom).maxScroll);
    expect(act(bottom, { type: 'SCROLL', direction: 'down' })).toEqual(bottom);
    expect(layoutProblems(screenOf(bottom))).toEqual([]);
  });

  it('a click on a slider sets the level where it lands; SELECT takes a percentage', () => {
    let s = click(act(createWorld(task('settings.brightness')), { type: 'OPEN_APP', app: 'Settings' }), 'page.display');
    const b = el(s, 'brightness').box;
    s = act(s, { type: 'CLICK', x: b.x + Math.floor(b.w * 0.8), y: b.y + 2 });
    expect(settings(s).brightness).toBeCloseTo(0.8, 1);
    s = act(s, { type: 'SELECT', option: '25%', ...centerOf(b) });
    expect(settings(s).brightness).toBeCloseTo(0.25, 5);
    expect(el(s, 'brightness').state.level).toBeCloseTo(0.25, 5);
  });

  it('DONE ends the episode: later actions change nothing', () => {
    const s = act(createWorld(task('mail.open')), { type: 'DONE' });
    expect(s.done).toBe(true);
    expect(act(s, { type: 'SCROLL', direction: 'down' })).toBe(s);
  });
});

describe('apps and screens', () => {
  it('every app has at least two variants that look different', () => {
    for (const app of APPS) {
      expect(app.variants.length).toBeGreaterThanOrEqual(2);
      const t = TEMPLATES.find((x) => x.appId === app.id)!;
      const shots = app.variants.map((_, v) => {
        let s = createWorld({ ...makeTask(t, 2), variant: v });
        if (app.platform === 'mobile') s = act(s, { type: 'OPEN_APP', app: app.id });
        return screenOf(s);
      });
      expect(new Set(shots.map((x) => JSON.stringify(x.theme))).size).toBe(app.variants.length);
      expect(new Set(shots.map((x) => JSON.stringify(x.elements.map((e) => [e.box, e.text])))).size).toBe(app.variants.length);
    }
  });

  it('between them, the apps use every widget kind the world needs', () => {
    const seen = new Set<Role>();
    for (const t of TEMPLATES) {
      for (const seed of [1, 2, 3]) {
        const tk = makeTask(t, seed);
        let s = createWorld(tk);
        for (const step of oracle(tk)) {
          screenOf(s).elements.forEach((e) => seen.add(e.role));
          s = act(s, step.action);
        }
      }
    }
    // Options only show while a dropdown is open (the oracle selects in one step).
    screenOf(click(click(createWorld(task('mail.sort')), 'settings'), 'set.sort')).elements.forEach((e) => seen.add(e.role));
    const need: Role[] = ['button', 'icon-button', 'link', 'text-field', 'search-box', 'checkbox', 'switch', 'radio', 'dropdown', 'option', 'tab', 'list-item', 'menu-item', 'dialog', 'slider', 'card', 'nav-bar', 'back-button', 'app-icon', 'heading', 'text', 'image'];
    expect(need.filter((r) => !seen.has(r))).toEqual([]);
  });

  it('describeScreen lists each element on its own line with role, words and state, no coordinates', () => {
    let s = act(createWorld(task('settings.wifi')), { type: 'OPEN_APP', app: 'Settings' });
    s = { ...s, task: { ...s.task, variant: 0 } };
    const screen = screenOf(s);
    const text = describeScreen(screen);
    const lines = text.split('\n');
    // A caption that only repeats a labelled element's name is left out; every other element has its line.
    const repeats = screen.elements.filter((e) => e.role === 'text' && screen.elements.some((f) => f !== e && ['text-field', 'search-box', 'dropdown', 'slider', 'switch'].includes(f.role) && (f.label ?? f.text) === e.text));
    expect(lines.length).toBe(screen.elements.length - repeats.length);
    expect(describeScreenVerbose(screen).split('\n').length).toBe(screen.elements.length);
    expect(lines).toContain(`switch "Wi-Fi" ${settings(s).wifi ? 'checked' : 'unchecked'}`);
    expect(lines).toContain('item "Display"');
    // Every role is one token of the shared vocabulary at the start of a line.
    for (const [role, word] of Object.entries(ROLE_TOKENS)) expect(defaultTokenizer().encode(`\n${word}`), role).toHaveLength(2);
    expect(text).not.toMatch(/\d+,\s*\d+/);
    expect(describeScreen(screenOf(s))).toBe(text);
    const compose = describeScreen(screenOf(act(click(createWorld(task('mail.compose')), 'compose'), { type: 'TYPE', text: 'Hi', ...centerOf(el(click(createWorld(task('mail.compose')), 'compose'), 'subject').box) })));
    expect(compose).toContain('field "Subject" focused value="Hi"');
  });

  it("a closed dropdown's line lists its options, as a <select> lists its <option>s; an open one shows them as elements", () => {
    const w = createWorld(task('books.top-rated'));
    const sort = el(w, 'sort');
    expect(sort.options).toEqual(['Bestselling', 'Price: low to high', 'Price: high to low', 'Top rated', 'Title A-Z']);
    const closed = describeScreen(screenOf(w)).split('\n');
    expect(closed).toContain(`dropdown "Sort by" value="${sort.state.value}" options ${sort.options!.map((o) => JSON.stringify(o)).join(' ')}`);
    const open = click(w, 'sort');
    const lines = describeScreen(screenOf(open)).split('\n');
    expect(lines.find((l) => l.startsWith('dropdown "Sort by"'))).toBe(`dropdown "Sort by" expanded value="${sort.state.value}"`);
    expect(lines).toContain('option "Top rated"');
  });
});
