/**
 * A phone calendar app ("Agenda") over a fortnight: day, week and month tabs,
 * an event page with a more-menu and a delete confirm, and one form for new
 * and edited events (title, place, day and time dropdowns, a reminder switch,
 * a repeat radio group and colour buttons).
 */
import { defineApp, type AppVariant, type Update, type View, type Widget } from '../app';
import { PIM_EVENT_TITLES, PIM_MONTHS, PIM_PLACES } from '../data/pimEvents';
import type { ColorName } from '../types';

/** The calendar spans two weeks, Monday to Sunday; day 0 is the first Monday. */
export const DAYS = 14;
export const WEEKDAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'] as const;
const WEEKDAY_NAMES = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'] as const;
export const TIMES = ['08:00', '09:00', '10:00', '11:00', '12:00', '13:00', '14:00', '15:00', '16:00', '17:00', '18:00', '19:00'] as const;
export const REPEATS = ['Never', 'Daily', 'Weekly', 'Monthly'] as const;
export type Repeat = (typeof REPEATS)[number];
export const COLOURS = ['red', 'orange', 'green', 'blue', 'purple', 'gray'] as const satisfies readonly ColorName[];
export type Colour = (typeof COLOURS)[number];
export const TABS = ['Day', 'Week', 'Month'] as const;
export type CalendarTab = (typeof TABS)[number];

export interface CalEvent {
  id: number;
  title: string;
  day: number; // 0 .. DAYS-1
  time: string; // one of TIMES
  minutes: number;
  place: string;
  reminder: boolean;
  repeat: Repeat;
  colour: Colour;
}

export type EventDraft = Omit<CalEvent, 'id' | 'minutes'>;

export interface CalendarState {
  month: string;
  monthDays: number;
  start: number; // date in the month of day 0, a Monday
  events: CalEvent[];
  tab: CalendarTab;
  day: number; // the selected day
  page: 'agenda' | 'event' | 'new' | 'edit';
  openId: number | null;
  draft: EventDraft;
  overlay: 'none' | 'menu' | 'delete';
  nextId: number;
}

export interface CalendarVariant extends AppVariant {
  tabsAt: 'top' | 'footer';
  buttons: 'nav' | 'footer'; // where "new event" and "save" live
  words: { title: string; newEvent: string; save: string; remove: string; reminder: string; repeat: string; time: string; place: string };
}

export const capital = (w: string) => w[0].toUpperCase() + w.slice(1);
/** "Tue 10": how the day dropdown and the agenda name a day. */
export const dayLabel = (s: Pick<CalendarState, 'start'>, d: number) => `${WEEKDAYS[d % 7]} ${s.start + d}`;
const longDay = (s: CalendarState, d: number) => `${WEEKDAY_NAMES[d % 7]} ${s.start + d} ${s.month}`;
const dayOptions = (s: CalendarState) => Array.from({ length: DAYS }, (_, d) => dayLabel(s, d));
const endOf = (e: CalEvent) => {
  const m = parseInt(e.time, 10) * 60 + e.minutes;
  return `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
};

const byTime = (a: CalEvent, b: CalEvent) => a.day - b.day || a.time.localeCompare(b.time) || a.id - b.id;
export const eventsOn = (s: CalendarState, d: number) => s.events.filter((e) => e.day === d).sort(byTime);
/** Events of week 0 or 1, in the order the week tab lists them. */
export const eventsInWeek = (s: CalendarState, week: number) => s.events.filter((e) => Math.floor(e.day / 7) === week).sort(byTime);

const set = (p: Partial<CalendarState>): Update<CalendarState> => (s) => ({ ...s, ...p });
const toAgenda = set({ page: 'agenda', openId: null, overlay: 'none' });

function eventItem(s: CalendarState, e: CalEvent): Widget<CalendarState> {
  return {
    kind: 'list-item',
    id: `event-${e.id}`,
    text: e.title,
    secondary: `${e.time} ${e.place}`,
    icon: e.reminder ? 'bell' : 'calendar',
    onClick: set({ page: 'event', openId: e.id, overlay: 'none' }),
  };
}

function stepper(prev: Widget<CalendarState> | undefined, label: string, next: Widget<CalendarState> | undefined): Widget<CalendarState> {
  const kids: Widget<CalendarState>[] = [];
  if (prev) kids.push(prev);
  kids.push({ kind: 'text', text: label, tone: 'strong', grow: true });
  if (next) kids.push(next);
  return { kind: 'row', children: kids };
}

function dayBody(s: CalendarState): Widget<CalendarState>[] {
  const go = (d: number): Update<CalendarState> => set({ day: d });
  const list = eventsOn(s, s.day);
  return [
    stepper(
      s.day > 0 ? { kind: 'icon-button', id: 'prev-day', icon: 'previous', purpose: 'show the previous day', onClick: go(s.day - 1) } : undefined,
      longDay(s, s.day),
      s.day < DAYS - 1 ? { kind: 'icon-button', id: 'next-day', icon: 'next', purpose: 'show the next day', onClick: go(s.day + 1) } : undefined,
    ),
    ...(list.length ? list.map((e) => eventItem(s, e)) : [{ kind: 'text', text: 'Nothing planned', tone: 'muted' } as const]),
  ];
}

function weekBody(s: CalendarState): Widget<CalendarState>[] {
  const week = Math.floor(s.day / 7);
  const first = week * 7;
  const body: Widget<CalendarState>[] = [
    stepper(
      week > 0 ? { kind: 'icon-button', id: 'prev-week', icon: 'previous', purpose: 'show the previous week', onClick: set({ day: first - 7 }) } : undefined,
      `${s.start + first}-${s.start + first + 6} ${s.month}`,
      week === 0 ? { kind: 'icon-button', id: 'next-week', icon: 'next', purpose: 'show the next week', onClick: set({ day: first + 7 }) } : undefined,
    ),
  ];
  const list = eventsInWeek(s, week);
  let shown = -1;
  for (const e of list) {
    if (e.day !== shown) {
      shown = e.day;
      body.push({ kind: 'text', text: dayLabel(s, e.day), tone: 'muted' });
    }
    body.push(eventItem(s, e));
  }
  if (!list.length) body.push({ kind: 'text', text: 'A free week', tone: 'muted' });
  return body;
}

function monthBody(s: CalendarState): Widget<CalendarState>[] {
  const firstWeekday = (((1 - s.start) % 7) + 7) % 7; // weekday of the 1st, 0 = Monday
  // Each cell is a column, so the seven share the width equally and dates line up under their weekday.
  const cell = (w?: Widget<CalendarState>): Widget<CalendarState> => ({ kind: 'column', children: w ? [w] : [] });
  const cells: Widget<CalendarState>[] = [];
  for (let i = 0; i < firstWeekday; i++) cells.push(cell());
  for (let date = 1; date <= s.monthDays; date++) {
    const d = date - s.start;
    cells.push(
      cell(
        d >= 0 && d < DAYS
          ? { kind: 'link', id: `date-${d}`, text: String(date), selected: d === s.day, purpose: `show ${dayLabel(s, d)}`, onClick: set({ day: d, tab: 'Day' }) }
          : { kind: 'text', text: String(date), tone: 'muted' },
      ),
    );
  }
  while (cells.length % 7) cells.push(cell());
  const rows: Widget<CalendarState>[] = [];
  for (let r = 0; r < cells.length; r += 7) rows.push({ kind: 'row', children: cells.slice(r, r + 7) });
  return [
    { kind: 'text', text: s.month, heading: true },
    { kind: 'row', children: WEEKDAYS.map((w) => cell({ kind: 'text', text: w[0], tone: 'muted' })) },
    ...rows,
    { kind: 'text', text: `${s.events.length} events in these two weeks`, tone: 'muted', wrap: true },
  ];
}

function agendaView(s: CalendarState, v: CalendarVariant): View<CalendarState> {
  const tabs: Widget<CalendarState> = { kind: 'tabs', id: 'tabs', tabs: [...TABS], value: s.tab, onSelect: (st, t) => ({ ...st, tab: t as CalendarTab }) };
  const newEvent: Update<CalendarState> = (st) => ({
    ...st,
    page: 'new',
    overlay: 'none',
    draft: { title: '', place: '', day: st.day, time: '09:00', reminder: false, repeat: 'Never', colour: 'blue' },
  });
  const content = s.tab === 'Day' ? dayBody(s) : s.tab === 'Week' ? weekBody(s) : monthBody(s);
  const footer: Widget<CalendarState>[] = [];
  if (v.tabsAt === 'footer') footer.push(tabs);
  if (v.buttons === 'footer') footer.push({ kind: 'button', id: 'new', text: v.words.newEvent, primary: true, grow: true, purpose: 'add an event', onClick: newEvent });
  const week = Math.floor(s.day / 7);
  return {
    screenId: s.tab === 'Day' ? `day-${s.day}` : s.tab === 'Week' ? `week-${week}` : 'month',
    title: `${v.words.title}: ${s.tab}`,
    nav: {
      title: v.words.title,
      actions: v.buttons === 'nav' ? [{ kind: 'icon-button', id: 'new', icon: 'calendar-plus', purpose: 'add an event', onClick: newEvent }] : [],
    },
    body: v.tabsAt === 'top' ? [tabs, ...content] : content,
    footer,
  };
}

function eventView(s: CalendarState, e: CalEvent, v: CalendarVariant): View<CalendarState> {
  const close = set({ overlay: 'none' });
  const edit = set({ page: 'edit', overlay: 'none', draft: { title: e.title, place: e.place, day: e.day, time: e.time, reminder: e.reminder, repeat: e.repeat, colour: e.colour } });
  let overlay: View<CalendarState>['overlay'];
  if (s.overlay === 'menu') {
    overlay = {
      kind: 'menu',
      id: 'event-menu',
      anchor: 'more',
      items: [
        { id: 'menu.edit', text: 'Edit', onClick: edit },
        { id: 'menu.duplicate', text: 'Duplicate', onClick: (st) => toAgenda({ ...st, events: [...st.events, { ...e, id: st.nextId }], nextId: st.nextId + 1, day: e.day }) },
        { id: 'menu.delete', text: v.words.remove, onClick: set({ overlay: 'delete' }) },
      ],
      onDismiss: close,
    };
  } else if (s.overlay === 'delete') {
    overlay = {
      kind: 'dialog',
      id: 'confirm',
      title: `${v.words.remove} event?`,
      body: [{ kind: 'text', text: `"${e.title}" on ${dayLabel(s, e.day)} will be removed.`, wrap: true }],
      actions: [
        { kind: 'button', id: 'confirm.cancel', text: 'Cancel', onClick: close },
        { kind: 'button', id: 'confirm.ok', text: v.words.remove, color: 'red', onClick: (st) => toAgenda({ ...st, events: st.events.filter((x) => x.id !== e.id) }) },
      ],
      onDismiss: close,
    };
  }
  return {
    screenId: 'event',
    title: e.title,
    nav: {
      title: 'Event',
      onBack: toAgenda,
      actions: [
        { kind: 'icon-button', id: 'edit', icon: 'edit', purpose: 'edit the event', onClick: edit },
        { kind: 'icon-button', id: 'delete', icon: 'delete', color: 'red', purpose: 'delete the event', onClick: set({ overlay: 'delete' }) },
        { kind: 'icon-button', id: 'more', icon: 'more', purpose: 'more actions', onClick: set({ overlay: 'menu' }) },
      ],
    },
    body: [
      { kind: 'text', text: e.title, heading: true, wrap: true },
      { kind: 'text', text: longDay(s, e.day), wrap: true },
      { kind: 'text', text: `${e.time} - ${endOf(e)}`, tone: 'muted' },
      { kind: 'row', children: [{ kind: 'image', id: 'place-icon', icon: 'map' }, { kind: 'text', text: e.place, grow: true }] },
      {
        kind: 'card',
        id: 'event-info',
        children: [
          { kind: 'text', text: e.repeat === 'Never' ? 'Does not repeat' : `${v.words.repeat}: ${e.repeat}` },
          { kind: 'text', text: `${v.words.reminder}: ${e.reminder ? 'on' : 'off'}` },
          { kind: 'text', text: `Colour: ${capital(e.colour)}`, color: e.colour },
        ],
      },
    ],
    overlay,
  };
}

function formView(s: CalendarState, v: CalendarVariant): View<CalendarState> {
  const isNew = s.page === 'new';
  const draft = (p: Partial<EventDraft>): Update<CalendarState> => (st) => ({ ...st, draft: { ...st.draft, ...p } });
  const save: Update<CalendarState> = (st) => {
    const d = { ...st.draft, title: st.draft.title.trim(), place: st.draft.place.trim() };
    if (!d.title) return st;
    if (isNew) {
      const e: CalEvent = { id: st.nextId, ...d, minutes: 60 };
      return { ...st, events: [...st.events, e], nextId: st.nextId + 1, page: 'agenda', day: d.day, draft: { ...st.draft, title: '' } };
    }
    return { ...st, events: st.events.map((e) => (e.id === st.openId ? { ...e, ...d } : e)), page: 'event' };
  };
  const cancel = isNew ? toAgenda : set({ page: 'event' });
  const title = isNew ? v.words.newEvent : 'Edit event';
  const days = dayOptions(s);
  const colourRows: Widget<CalendarState>[] = [];
  for (let i = 0; i < COLOURS.length; i += 2) {
    colourRows.push({
      kind: 'row',
      children: COLOURS.slice(i, i + 2).map((c) => ({ kind: 'button', id: `colour-${c}`, text: capital(c), color: c, grow: true, purpose: `colour the event ${c}`, onClick: draft({ colour: c }) }) as const),
    });
  }
  const saveButton: Widget<CalendarState> =
    v.buttons === 'nav'
      ? { kind: 'icon-button', id: 'save', icon: 'check', purpose: 'save the event', onClick: save }
      : { kind: 'button', id: 'save', text: v.words.save, primary: true, purpose: 'save the event', onClick: save };
  return {
    screenId: s.page,
    title,
    nav: { title, onBack: cancel, actions: v.buttons === 'nav' ? [saveButton] : [] },
    body: [
      { kind: 'text-field', id: 'title', label: 'Title', value: s.draft.title, onType: (st, t) => draft({ title: t })(st) },
      { kind: 'text-field', id: 'place', label: v.words.place, value: s.draft.place, onType: (st, t) => draft({ place: t })(st) },
      { kind: 'dropdown', id: 'day', label: 'Day', options: days, value: days[s.draft.day], onSelect: (st, o) => draft({ day: days.indexOf(o) })(st) },
      { kind: 'dropdown', id: 'time', label: v.words.time, options: [...TIMES], value: s.draft.time, onSelect: (st, o) => draft({ time: o })(st) },
      { kind: 'switch', id: 'reminder', text: v.words.reminder, icon: 'bell', checked: s.draft.reminder, onToggle: draft({ reminder: !s.draft.reminder }) },
      { kind: 'radio-group', id: 'repeat', label: v.words.repeat, options: [...REPEATS], value: s.draft.repeat, onSelect: (st, o) => draft({ repeat: o as Repeat })(st) },
      { kind: 'text', text: `Colour: ${capital(s.draft.colour)}`, tone: 'strong' },
      ...colourRows,
    ],
    footer: v.buttons === 'footer' ? [{ kind: 'row', justify: 'end', children: [{ kind: 'link', id: 'cancel', text: 'Cancel', onClick: cancel }, saveButton] }] : undefined,
  };
}

export const CALENDAR_APP = defineApp<CalendarState, CalendarVariant>({
  id: 'calendar',
  name: 'Agenda',
  icon: 'calendar',
  domain: 'calendar',
  platform: 'mobile',
  variants: [
    {
      theme: { mode: 'light', accent: 'red', font: 'Inter', density: 'comfortable', corner: 8 },
      labels: 'above',
      tabsAt: 'top',
      buttons: 'nav',
      words: { title: 'Agenda', newEvent: 'New event', save: 'Save', remove: 'Delete', reminder: 'Reminder', repeat: 'Repeat', time: 'Time', place: 'Location' },
    },
    {
      theme: { mode: 'dark', accent: 'orange', font: 'Noto Sans', density: 'compact', corner: 3 },
      labels: 'left',
      tabsAt: 'footer',
      buttons: 'footer',
      words: { title: 'Calendar', newEvent: 'Add event', save: 'Done', remove: 'Remove', reminder: 'Alert me', repeat: 'Repeats', time: 'Starts', place: 'Where' },
    },
    {
      theme: { mode: 'light', accent: 'teal', font: 'Roboto Slab', density: 'compact', corner: 10 },
      labels: 'above',
      tabsAt: 'top',
      buttons: 'footer',
      words: { title: 'Agenda', newEvent: 'Create', save: 'Save', remove: 'Delete', reminder: 'Notify me', repeat: 'Repeat', time: 'At', place: 'Place' },
    },
  ],
  init(rng) {
    const month = rng.pick(PIM_MONTHS);
    const start = rng.int(1, month.days - DAYS + 1);
    const titles = rng.shuffle(PIM_EVENT_TITLES);
    const count = rng.int(10, 15);
    const slots = rng.shuffle(Array.from({ length: DAYS * TIMES.length }, (_, i) => i)).slice(0, count);
    const events: CalEvent[] = slots.map((slot, i) => ({
      id: i + 1,
      title: titles[i],
      day: Math.floor(slot / TIMES.length),
      time: TIMES[slot % TIMES.length],
      minutes: rng.pick([30, 60, 60, 90]),
      place: rng.pick(PIM_PLACES),
      reminder: rng.chance(0.5),
      repeat: rng.chance(0.6) ? 'Never' : rng.pick(REPEATS),
      colour: rng.pick(COLOURS),
    }));
    const today = rng.int(0, 6);
    return {
      month: month.name,
      monthDays: month.days,
      start,
      events,
      tab: 'Week',
      day: today,
      page: 'agenda',
      openId: null,
      draft: { title: '', place: '', day: today, time: '09:00', reminder: false, repeat: 'Never', colour: 'blue' },
      overlay: 'none',
      nextId: count + 1,
    };
  },
  view(s, v) {
    const open = s.events.find((e) => e.id === s.openId);
    if (s.page === 'new' || (s.page === 'edit' && open)) return formView(s, v);
    if (s.page === 'event' && open) return eventView(s, open, v);
    return agendaView(s, v);
  },
});
