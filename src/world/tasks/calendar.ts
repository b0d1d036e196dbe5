/** Task templates for the phone calendar app ("Agenda"). */
import type { Random } from '../../learn/random';
import { COLOURS, DAYS, REPEATS, TIMES, capital, dayLabel, eventsInWeek, type CalEvent, type CalendarState } from '../apps/calendar';
import { PIM_EVENT_TITLES, PIM_PLACES } from '../data/pimEvents';
import { defineTemplate, type Intent, type Params } from './template';

const base = { appId: 'calendar', platform: 'mobile', domain: 'calendar' } as const;
const byId = (s: CalendarState, id: string): CalEvent | undefined => s.events.find((e) => e.id === Number(id));
const what = (s: CalendarState, e: CalEvent): Params => ({ event: String(e.id), title: e.title, on: dayLabel(s, e.day) });
const pickEvent = (rng: Random, s: CalendarState): Params => what(s, rng.pick(s.events));
const freeTitle = (rng: Random, s: CalendarState) => rng.pick(PIM_EVENT_TITLES.filter((t) => !s.events.some((e) => e.title === t)));
const indexOf = <T extends string>(list: readonly T[], x: string) => list.indexOf(x as T);

/**
 * Events near the top of the opening week list are clicked there; others are
 * reached through the month grid and their day, which never needs scrolling.
 */
const QUICK = 4;

function openPlan(p: Params, s: CalendarState): Intent[] {
  const e = byId(s, p.event)!;
  const click: Intent = { do: 'click', id: `event-${e.id}` };
  const i = eventsInWeek(s, Math.floor(s.day / 7)).findIndex((x) => x.id === e.id);
  return i >= 0 && i < QUICK ? [click] : [{ do: 'click', id: 'tabs.2' }, { do: 'click', id: `date-${e.day}` }, click];
}

function editPlan(p: Params, s: CalendarState, change: Intent[], viaMenu = false): Intent[] {
  const edit: Intent[] = viaMenu ? [{ do: 'click', id: 'more' }, { do: 'click', id: 'menu.edit' }] : [{ do: 'click', id: 'edit' }];
  return [...openPlan(p, s), ...edit, ...change, { do: 'click', id: 'save' }];
}

const repeatClick = (repeat: string): Intent => ({ do: 'click', id: `repeat.${indexOf(REPEATS, repeat)}` });

export const CALENDAR_TEMPLATES = [
  defineTemplate<CalendarState>({
    id: 'calendar.open',
    ...base,
    sample: (rng, s) => pickEvent(rng, s),
    phrasings: [(p) => `Open the ${p.title} event`, (p) => `Show me the details of ${p.title} on ${p.on}`, (p) => `When exactly is ${p.title}? Open it`],
    goal: (p, s) => s.page === 'event' && s.openId === Number(p.event),
    plan: (p, s) => openPlan(p, s),
  }),
  defineTemplate<CalendarState>({
    id: 'calendar.day',
    ...base,
    sample: (rng, s) => {
      const d = rng.int(0, DAYS - 1);
      return { index: String(d), on: dayLabel(s, d), month: s.month };
    },
    phrasings: [(p) => `Show the day view for ${p.on} ${p.month}`, (p) => `What is planned on ${p.on}? Open that day`, (p) => `Switch the calendar to ${p.on} in day view`],
    goal: (p, s) => s.page === 'agenda' && s.tab === 'Day' && s.day === Number(p.index),
    plan: (p) => [{ do: 'click', id: 'tabs.2' }, { do: 'click', id: `date-${p.index}` }],
  }),
  defineTemplate<CalendarState>({
    id: 'calendar.add',
    ...base,
    sample: (rng, s) => {
      const p: Params = { title: freeTitle(rng, s), on: dayLabel(s, rng.int(0, DAYS - 1)), time: rng.pick(TIMES) };
      if (rng.chance(0.5)) p.place = rng.pick(PIM_PLACES);
      return p;
    },
    phrasings: [
      (p) => `Add "${p.title}" on ${p.on} at ${p.time}${p.place ? ` at ${p.place}` : ''}`,
      (p) => `Put ${p.title} in my calendar for ${p.on}, ${p.time}${p.place ? `, location ${p.place}` : ''}`,
      (p) => `Schedule ${p.title} at ${p.time} on ${p.on}${p.place ? ` (${p.place})` : ''}`,
    ],
    goal: (p, s) => s.events.some((e) => e.title === p.title && dayLabel(s, e.day) === p.on && e.time === p.time && (!p.place || e.place === p.place)),
    plan: (p) => [
      { do: 'click', id: 'new' },
      { do: 'type', id: 'title', text: p.title },
      ...(p.place ? [{ do: 'type', id: 'place', text: p.place } as const] : []),
      { do: 'select', id: 'day', option: p.on },
      { do: 'select', id: 'time', option: p.time },
      { do: 'click', id: 'save' },
    ],
  }),
  defineTemplate<CalendarState>({
    id: 'calendar.add-detailed',
    ...base,
    sample: (rng, s) => {
      const p: Params = { title: freeTitle(rng, s), on: dayLabel(s, rng.int(0, DAYS - 1)), time: rng.pick(TIMES) };
      const extra = rng.int(0, 2);
      if (extra === 0) p.reminder = 'on';
      else if (extra === 1) p.repeat = rng.pick(REPEATS.filter((r) => r !== 'Never'));
      else p.colour = rng.pick(COLOURS.filter((c) => c !== 'blue'));
      return p;
    },
    phrasings: [
      (p) => `Create ${p.title} on ${p.on} at ${p.time}, ${p.reminder ? 'with a reminder' : p.repeat ? `repeating ${p.repeat.toLowerCase()}` : `coloured ${p.colour}`}`,
      (p) => `New event: ${p.title}, ${p.on} ${p.time}. ${p.reminder ? 'Remind me.' : p.repeat ? `It repeats ${p.repeat.toLowerCase()}.` : `Make it ${p.colour}.`}`,
      (p) => `Add a ${p.colour ? `${p.colour} ` : ''}${p.repeat ? `${p.repeat.toLowerCase()} ` : ''}event "${p.title}" for ${p.on} at ${p.time}${p.reminder ? ' and turn on its reminder' : ''}`,
    ],
    goal: (p, s) =>
      s.events.some(
        (e) =>
          e.title === p.title &&
          dayLabel(s, e.day) === p.on &&
          e.time === p.time &&
          (!p.reminder || e.reminder) &&
          (!p.repeat || e.repeat === p.repeat) &&
          (!p.colour || e.colour === p.colour),
      ),
    plan: (p) => {
      const extra: Intent = p.reminder ? { do: 'click', id: 'reminder' } : p.repeat ? repeatClick(p.repeat) : { do: 'click', id: `colour-${p.colour}` };
      return [
        { do: 'click', id: 'new' },
        { do: 'type', id: 'title', text: p.title },
        { do: 'select', id: 'day', option: p.on },
        { do: 'select', id: 'time', option: p.time },
        extra,
        { do: 'click', id: 'save' },
      ];
    },
  }),
  defineTemplate<CalendarState>({
    id: 'calendar.delete',
    ...base,
    sample: (rng, s) => pickEvent(rng, s),
    phrasings: [(p) => `Delete ${p.title} from my calendar`, (p) => `Cancel the ${p.title} event on ${p.on}`, (p) => `Remove "${p.title}" and confirm`],
    goal: (p, s) => !byId(s, p.event),
    plan: (p, s) => [...openPlan(p, s), { do: 'click', id: 'delete' }, { do: 'click', id: 'confirm.ok' }],
  }),
  defineTemplate<CalendarState>({
    id: 'calendar.move',
    ...base,
    sample: (rng, s) => {
      const e = rng.pick(s.events);
      const p: Params = { ...what(s, e), time: rng.pick(TIMES.filter((t) => t !== e.time)) };
      if (rng.chance(0.4)) p.to = dayLabel(s, rng.pick(Array.from({ length: DAYS }, (_, d) => d).filter((d) => d !== e.day)));
      return p;
    },
    phrasings: [
      (p) => `Move ${p.title} to ${p.to ? `${p.to} at ` : ''}${p.time}`,
      (p) => `Reschedule "${p.title}" (${p.on}) to start at ${p.time}${p.to ? ` on ${p.to}` : ''}`,
      (p) => `${p.title} now starts at ${p.time}${p.to ? ` on ${p.to}` : ''}; change the event`,
    ],
    goal: (p, s) => {
      const e = byId(s, p.event);
      return !!e && e.time === p.time && (!p.to || dayLabel(s, e.day) === p.to);
    },
    plan: (p, s) => editPlan(p, s, [...(p.to ? [{ do: 'select', id: 'day', option: p.to } as const] : []), { do: 'select', id: 'time', option: p.time }]),
  }),
  defineTemplate<CalendarState>({
    id: 'calendar.repeat',
    ...base,
    sample: (rng, s) => {
      const e = rng.pick(s.events);
      return { ...what(s, e), repeat: rng.pick(REPEATS.filter((r) => r !== e.repeat)) };
    },
    phrasings: [
      (p) => (p.repeat === 'Never' ? `Stop ${p.title} from repeating` : `Make ${p.title} repeat ${p.repeat.toLowerCase()}`),
      (p) => `Set the repeat of "${p.title}" to ${p.repeat}`,
      (p) => `Change how often ${p.title} repeats: ${p.repeat.toLowerCase()}`,
    ],
    goal: (p, s) => byId(s, p.event)?.repeat === p.repeat,
    plan: (p, s) => editPlan(p, s, [repeatClick(p.repeat)], true),
  }),
  defineTemplate<CalendarState>({
    id: 'calendar.reminder',
    ...base,
    sample: (rng, s) => {
      const e = rng.pick(s.events);
      return { ...what(s, e), state: e.reminder ? 'off' : 'on' };
    },
    phrasings: [
      (p) => `Turn ${p.state} the reminder for ${p.title}`,
      (p) => (p.state === 'on' ? `Remind me about ${p.title} on ${p.on}` : `I don't need a reminder for ${p.title} any more`),
      (p) => `Switch the ${p.title} alert ${p.state}`,
    ],
    goal: (p, s) => byId(s, p.event)?.reminder === (p.state === 'on'),
    plan: (p, s) => editPlan(p, s, [{ do: 'click', id: 'reminder' }]),
  }),
  defineTemplate<CalendarState>({
    id: 'calendar.colour',
    ...base,
    sample: (rng, s) => {
      const e = rng.pick(s.events);
      return { ...what(s, e), colour: rng.pick(COLOURS.filter((c) => c !== e.colour)) };
    },
    phrasings: [(p) => `Colour the ${p.title} event ${p.colour}`, (p) => `Make ${p.title} ${p.colour} in my calendar`, (p) => `Change the colour of "${p.title}" to ${capital(p.colour)}`],
    goal: (p, s) => byId(s, p.event)?.colour === p.colour,
    plan: (p, s) => editPlan(p, s, [{ do: 'click', id: `colour-${p.colour}` }]),
  }),
  defineTemplate<CalendarState>({
    id: 'calendar.rename',
    ...base,
    sample: (rng, s) => ({ ...pickEvent(rng, s), to: freeTitle(rng, s) }),
    phrasings: [(p) => `Rename ${p.title} to ${p.to}`, (p) => `Change the title of the ${p.on} event "${p.title}" to "${p.to}"`, (p) => `${p.title} is now called ${p.to}; update it`],
    goal: (p, s) => byId(s, p.event)?.title === p.to,
    plan: (p, s) => editPlan(p, s, [{ do: 'type', id: 'title', text: p.to }]),
  }),
  defineTemplate<CalendarState>({
    id: 'calendar.duplicate',
    ...base,
    sample: (rng, s) => pickEvent(rng, s),
    phrasings: [(p) => `Duplicate the ${p.title} event`, (p) => `Make a copy of "${p.title}" on ${p.on}`, (p) => `I need ${p.title} twice; duplicate it`],
    goal: (p, s) => s.events.filter((e) => e.title === p.title).length > 1,
    plan: (p, s) => [...openPlan(p, s), { do: 'click', id: 'more' }, { do: 'click', id: 'menu.duplicate' }],
  }),
];
