import { describe, expect, it } from 'vitest';
import { act, createWorld, screenOf, type WorldState } from '../../src/world/env';
import { centerOf } from '../../src/world/hit';
import { TEMPLATES, makeTask, templateById } from '../../src/world/tasks';
import { listedContacts, type ContactsState } from '../../src/world/apps/contacts';
import { DAYS, type CalendarState } from '../../src/world/apps/calendar';
import type { UIElement } from '../../src/world/types';
import { layoutProblems } from './world-core-check';

const el = (s: WorldState, id: string): UIElement => {
  const found = screenOf(s).elements.find((e) => e.id === id);
  if (!found) throw new Error(`no ${id} on ${screenOf(s).screenId}: ${screenOf(s).elements.map((e) => e.id).join(' ')}`);
  return found;
};
const click = (s: WorldState, id: string) => act(s, { type: 'CLICK', ...centerOf(el(s, id).box) });
const type = (s: WorldState, id: string, text: string) => act(s, { type: 'TYPE', text, ...centerOf(el(s, id).box) });
/** The app opened on a world for `templateId`, in a given variant. */
const opened = (templateId: string, seed: number, variant: number, app: string) =>
  act(createWorld({ ...makeTask(templateById(templateId), seed), variant }), { type: 'OPEN_APP', app });
const people = (s: WorldState) => s.apps.contacts as ContactsState;
const agenda = (s: WorldState) => s.apps.calendar as CalendarState;

describe('pim apps: task variety', () => {
  for (const app of ['contacts', 'calendar']) {
    it(`${app}: at least 7 templates, and many distinct tasks over seeds`, () => {
      const mine = TEMPLATES.filter((t) => t.appId === app);
      expect(mine.length).toBeGreaterThanOrEqual(7);
      const distinct = new Set<string>();
      for (const t of mine) for (let seed = 1; seed <= 150; seed++) {
        const task = makeTask(t, seed);
        distinct.add(`${t.id}|${JSON.stringify(task.params)}`);
      }
      expect(distinct.size).toBeGreaterThan(1000);
    });
  }
});

describe('contacts app', () => {
  it('search filters the list; cancelling the delete dialog keeps the contact', () => {
    for (const variant of [0, 1, 2]) {
      let s = opened('contacts.open', 3, variant, 'People');
      const target = people(s).contacts[0];
      s = type(s, 'search', target.last);
      const shown = screenOf(s).elements.filter((e) => e.role === 'list-item').map((e) => e.id);
      expect(shown).toContain(`contact-${target.id}`);
      expect(shown.length).toBe(listedContacts(people(s)).length);
      expect(shown.length).toBeLessThan(people(s).contacts.length);
      s = click(click(click(s, `contact-${target.id}`), 'more'), 'menu.delete');
      expect(layoutProblems(screenOf(s))).toEqual([]);
      s = click(s, 'confirm.cancel');
      expect(people(s).contacts.some((c) => c.id === target.id)).toBe(true);
      expect(screenOf(s).screenId).toBe('contact');
    }
  });

  it('a new contact needs a first name; the sort dialog applies only on Apply', () => {
    let s = opened('contacts.add', 5, 1, 'contacts');
    const before = people(s).contacts.length;
    s = click(s, 'add');
    s = type(s, 'last', 'Nobody');
    expect(people(click(s, 'save'))).toEqual(people(s));
    s = type(s, 'first', 'Ann');
    s = click(s, 'save');
    expect(people(s).contacts.length).toBe(before + 1);
    expect(screenOf(s).screenId).toBe('contact');
    s = act(s, { type: 'BACK' });
    const sort = people(s).prefs.sort;
    const dialog = click(click(s, 'sort'), 'sort-by.1');
    expect(people(click(dialog, 'prefs.cancel')).prefs.sort).toBe(sort);
    expect(people(click(dialog, 'prefs.apply')).prefs.sort).toBe('Last name');
  });

  it('the open label dropdown lays out cleanly in every variant', () => {
    for (const variant of [0, 1, 2]) {
      let s = opened('contacts.label', 2, variant, 'People');
      s = click(click(s, `contact-${listedContacts(people(s))[0].id}`), 'edit');
      s = click(s, 'phone-label');
      const screen = screenOf(s);
      expect(screen.elements.filter((e) => e.role === 'option').length).toBe(4);
      expect(layoutProblems(screen)).toEqual([]);
    }
  });
});

describe('calendar app', () => {
  it('the month grid opens a day; day and week steppers move through the fortnight', () => {
    for (const variant of [0, 1, 2]) {
      let s = opened('calendar.day', 4, variant, 'Agenda');
      s = click(click(s, 'tabs.2'), 'date-9');
      expect(agenda(s).tab).toBe('Day');
      expect(agenda(s).day).toBe(9);
      s = click(s, 'next-day');
      expect(agenda(s).day).toBe(10);
      s = click(click(s, 'tabs.1'), 'prev-week');
      expect(agenda(s).day).toBe(0);
      expect(screenOf(s).elements.some((e) => e.id === 'prev-week')).toBe(false);
      expect(layoutProblems(screenOf(s))).toEqual([]);
    }
  });

  it('the day dropdown lists the whole fortnight on screen, in both densities', () => {
    for (const variant of [0, 1, 2]) {
      let s = opened('calendar.add', 6, variant, 'Agenda');
      s = click(click(s, 'new'), 'day');
      const screen = screenOf(s);
      expect(screen.elements.filter((e) => e.role === 'option').length).toBe(DAYS);
      expect(layoutProblems(screen)).toEqual([]);
    }
  });

  it('an event without a title is not saved; duplicate adds a copy', () => {
    let s = opened('calendar.duplicate', 7, 0, 'Agenda');
    const count = agenda(s).events.length;
    s = click(s, 'new');
    expect(agenda(click(s, 'save'))).toEqual(agenda(s));
    s = act(s, { type: 'BACK' });
    const first = agenda(s).events.find((e) => Math.floor(e.day / 7) === 0) ?? agenda(s).events[0];
    s = click(click(s, 'tabs.2'), `date-${first.day}`);
    s = click(click(click(s, `event-${first.id}`), 'more'), 'menu.duplicate');
    expect(agenda(s).events.length).toBe(count + 1);
    expect(agenda(s).events.filter((e) => e.title === first.title).length).toBe(2);
  });
});
