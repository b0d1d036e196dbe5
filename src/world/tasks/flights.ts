/** Task templates for Skyhop, the web flight booking site. */
import type { Random } from '../../learn/random';
import { PAX, routeFlights, sortFlights, norm, type Flight, type FlightSort, type FlightsState } from '../apps/flights';
import { TRAVELLER_FIRST, TRAVELLER_LAST } from '../data/travelNames';
import { defineTemplate, type Intent, type Params } from './template';

const base = { appId: 'flights', platform: 'web', domain: 'travel' } as const;

/** How a person says each sort order, and which sort puts that flight first. */
const BY: Record<string, FlightSort> = { cheapest: 'Cheapest', fastest: 'Fastest', earliest: 'Earliest' };
const EXTRAS = ['a window seat', 'an aisle seat', 'a checked bag', 'a hot meal', 'travel insurance'] as const;

const searched = (p: Params, s: FlightsState) =>
  s.page === 'results' && s.query !== null && s.query.from === p.from && norm(s.query.to) === norm(p.to) && s.query.date === p.date;

/** Fill the search form from its initial values and run the search. */
function searchIntents(p: Params, s: FlightsState): Intent[] {
  const out: Intent[] = [];
  if (p.from !== s.form.from) out.push({ do: 'select', id: 'from', option: p.from });
  out.push({ do: 'type', id: 'to', text: p.to });
  if (p.date !== s.form.date) out.push({ do: 'select', id: 'date', option: p.date });
  out.push({ do: 'click', id: 'search' });
  return out;
}

const sortIntent = (by: string, s: FlightsState): Intent[] => (s.sort === BY[by] ? [] : [{ do: 'select', id: 'sort', option: BY[by] }]);

/** A route and the flight that is best on it by a random criterion. */
function pickBest(rng: Random, s: FlightsState, from: string): { to: string; by: string; flight: Flight } {
  const to = rng.pick(s.popular);
  const by = rng.pick(Object.keys(BY));
  const flight = sortFlights(routeFlights(s, from, to), BY[by])[0];
  return { to, by, flight };
}

const name = (rng: Random) => ({ first: rng.pick(TRAVELLER_FIRST), last: rng.pick(TRAVELLER_LAST) });

const booked = (p: Params, s: FlightsState) =>
  s.bookings.filter((b) => !b.cancelled && b.flightId === Number(p.flight) && b.first === p.first && b.last === p.last && b.date === p.date);

/** Steps from the results list to a confirmed booking of the selected flight. */
const bookIntents = (p: Params, extra: Intent[]): Intent[] => [
  { do: 'click', id: `flight-${p.flight}` },
  { do: 'type', id: 'first', text: p.first },
  { do: 'type', id: 'last', text: p.last },
  { do: 'click', id: 'continue' },
  ...extra,
  { do: 'click', id: 'book' },
  { do: 'click', id: 'confirm.ok' },
];

function extraIntent(extra: string): Intent {
  if (extra === 'a window seat') return { do: 'select', id: 'seat', option: 'Window' };
  if (extra === 'an aisle seat') return { do: 'select', id: 'seat', option: 'Aisle' };
  return { do: 'click', id: extra === 'a checked bag' ? 'bag' : extra === 'a hot meal' ? 'meal' : 'insurance' };
}

function hasExtra(extra: string, x: FlightsState['extras']): boolean {
  if (extra === 'a window seat') return x.seat === 'Window';
  if (extra === 'an aisle seat') return x.seat === 'Aisle';
  return extra === 'a checked bag' ? x.bag : extra === 'a hot meal' ? x.meal : x.insurance;
}

export const FLIGHTS_TEMPLATES = [
  defineTemplate<FlightsState>({
    id: 'flights.search',
    ...base,
    sample: (rng, s) => ({ from: rng.pick(s.origins), to: rng.pick(s.popular), date: rng.pick(s.dates.slice(0, -1)) }),
    phrasings: [
      (p) => `Search for flights from ${p.from} to ${p.to} on ${p.date}`,
      (p) => `Find me a flight ${p.from} to ${p.to}, leaving ${p.date}`,
      (p) => `What flights go from ${p.from} to ${p.to} on ${p.date}?`,
      (p) => `Show flights to ${p.to} departing ${p.from} on ${p.date}`,
    ],
    goal: searched,
    plan: searchIntents,
  }),
  defineTemplate<FlightsState>({
    id: 'flights.return',
    ...base,
    sample: (rng, s) => {
      const i = rng.int(0, s.dates.length - 3);
      const j = rng.int(i + 1, s.dates.length - 1);
      return { from: s.form.from, to: rng.pick(s.popular), date: s.dates[i], ret: s.dates[j] };
    },
    phrasings: [
      (p) => `Search return flights to ${p.to}, out on ${p.date} and back on ${p.ret}`,
      (p) => `Find a round trip from ${p.from} to ${p.to}: ${p.date} to ${p.ret}`,
      (p) => `I want to fly to ${p.to} on ${p.date} and come home ${p.ret}. Look up flights`,
    ],
    goal: (p, s) => searched(p, s) && s.query?.trip === 'return' && s.query.ret === p.ret,
    plan: (p, s) => {
      const out: Intent[] = [{ do: 'click', id: 'trip.1' }, { do: 'type', id: 'to', text: p.to }];
      let ret = s.form.ret;
      if (p.date !== s.form.date) {
        out.push({ do: 'select', id: 'date', option: p.date });
        if (s.dates.indexOf(ret) <= s.dates.indexOf(p.date)) ret = s.dates[s.dates.indexOf(p.date) + 1];
      }
      if (p.ret !== ret) out.push({ do: 'select', id: 'return', option: p.ret });
      out.push({ do: 'click', id: 'search' });
      return out;
    },
  }),
  defineTemplate<FlightsState>({
    id: 'flights.passengers',
    ...base,
    sample: (rng, s) => ({ from: s.form.from, to: rng.pick(s.popular), date: s.form.date, pax: rng.pick(PAX.slice(1)) }),
    phrasings: [
      (p) => `Look for flights to ${p.to} for ${p.pax} people`,
      (p) => `We are ${p.pax} travellers going to ${p.to}. Search flights`,
      (p) => `Find seats for ${p.pax} passengers from ${p.from} to ${p.to}`,
    ],
    goal: (p, s) => searched(p, s) && s.query?.pax === p.pax,
    plan: (p) => [{ do: 'type', id: 'to', text: p.to }, { do: 'select', id: 'pax', option: p.pax }, { do: 'click', id: 'search' }],
  }),
  defineTemplate<FlightsState>({
    id: 'flights.sort',
    ...base,
    sample: (rng, s) => ({
      from: s.form.from,
      to: rng.pick(s.popular),
      date: s.form.date,
      by: rng.pick(Object.keys(BY).filter((k) => BY[k] !== s.sort)),
    }),
    phrasings: [
      (p) => `Show flights to ${p.to} with the ${p.by} first`,
      (p) => `Search flights to ${p.to} and sort them by ${BY[p.by].toLowerCase()}`,
      (p) => `List ${p.from} to ${p.to} flights, ${p.by} at the top`,
    ],
    goal: (p, s) => searched(p, s) && s.sort === BY[p.by],
    plan: (p, s) => [...searchIntents(p, s), { do: 'select', id: 'sort', option: BY[p.by] }],
  }),
  defineTemplate<FlightsState>({
    id: 'flights.direct',
    ...base,
    sample: (rng, s) => ({ from: rng.pick(s.origins), to: rng.pick(s.popular), date: s.form.date }),
    phrasings: [
      (p) => `Show only direct flights from ${p.from} to ${p.to}`,
      (p) => `I don't want any stops: find nonstop flights ${p.from} to ${p.to}`,
      (p) => `Search ${p.from} to ${p.to} and hide flights with layovers`,
    ],
    goal: (p, s) => searched(p, s) && s.direct,
    plan: (p, s) => [...searchIntents(p, s), { do: 'click', id: 'direct' }],
  }),
  defineTemplate<FlightsState>({
    id: 'flights.pick',
    ...base,
    sample: (rng, s) => {
      const from = rng.pick(s.origins);
      const best = pickBest(rng, s, from);
      return { from, to: best.to, date: rng.pick(s.dates.slice(0, -1)), by: best.by, flight: String(best.flight.id) };
    },
    phrasings: [
      (p) => `Choose the ${p.by} flight from ${p.from} to ${p.to} on ${p.date}`,
      (p) => `Select the ${p.by} ${p.from} to ${p.to} flight for ${p.date}`,
      (p) => `On ${p.date}, pick the ${p.by} option from ${p.from} to ${p.to}`,
    ],
    goal: (p, s) => s.selectedId === Number(p.flight) && s.query?.date === p.date,
    plan: (p, s) => [...searchIntents(p, s), ...sortIntent(p.by, s), { do: 'click', id: `flight-${p.flight}` }],
  }),
  defineTemplate<FlightsState>({
    id: 'flights.book',
    ...base,
    sample: (rng, s) => {
      const best = pickBest(rng, s, s.form.from);
      return { from: s.form.from, to: best.to, date: s.form.date, by: best.by, flight: String(best.flight.id), ...name(rng) };
    },
    phrasings: [
      (p) => `Book the ${p.by} flight to ${p.to} on ${p.date} for ${p.first} ${p.last}`,
      (p) => `Get ${p.first} ${p.last} on the ${p.by} ${p.from} to ${p.to} flight, ${p.date}`,
      (p) => `Reserve a seat for ${p.first} ${p.last} on the ${p.by} flight to ${p.to} (${p.date})`,
    ],
    goal: (p, s) => booked(p, s).length > 0,
    plan: (p, s) => [...searchIntents(p, s), ...sortIntent(p.by, s), ...bookIntents(p, [])],
  }),
  defineTemplate<FlightsState>({
    id: 'flights.extras',
    ...base,
    sample: (rng, s) => {
      const best = pickBest(rng, s, s.form.from);
      return { from: s.form.from, to: best.to, date: s.form.date, by: best.by, flight: String(best.flight.id), extra: rng.pick(EXTRAS), ...name(rng) };
    },
    phrasings: [
      (p) => `Book the ${p.by} flight to ${p.to} for ${p.first} ${p.last} with ${p.extra}`,
      (p) => `Fly ${p.first} ${p.last} to ${p.to} on the ${p.by} flight and add ${p.extra}`,
      (p) => `${p.first} ${p.last} needs the ${p.by} flight to ${p.to} on ${p.date}, with ${p.extra}. Book it`,
    ],
    goal: (p, s) => booked(p, s).some((b) => hasExtra(p.extra, b.extras)),
    plan: (p, s) => [...searchIntents(p, s), ...sortIntent(p.by, s), ...bookIntents(p, [extraIntent(p.extra)])],
  }),
  defineTemplate<FlightsState>({
    id: 'flights.cancel',
    ...base,
    sample: (rng, s) => {
      const open = s.bookings.filter((b) => !b.cancelled);
      if (!open.length) return null;
      const b = rng.pick(open);
      return { ref: b.ref, to: b.to, date: b.date, traveller: `${b.first} ${b.last}` };
    },
    phrasings: [
      (p) => `Cancel my trip to ${p.to} on ${p.date}`,
      (p) => `${p.traveller} can't travel to ${p.to} anymore. Cancel that booking`,
      (p) => `Call off booking ${p.ref} to ${p.to}`,
    ],
    goal: (p, s) => s.bookings.some((b) => b.ref === p.ref && b.cancelled),
    plan: (p) => [{ do: 'click', id: 'account' }, { do: 'click', id: 'menu.trips' }, { do: 'click', id: `cancel-${p.ref}` }, { do: 'click', id: 'cancel.ok' }],
  }),
];
