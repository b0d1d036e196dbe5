/**
 * Skyhop, a web flight booking site: a search form (trip type, from, to,
 * dates, passengers), results with a sort dropdown and a direct-only filter,
 * a passenger form, extras, a confirm dialog, and "My trips" with cancelling.
 */
import { defineApp, type AppVariant, type Update, type View, type Widget } from '../app';
import { AIRLINES, TRAVEL_MAIL_DOMAINS, TRAVELLER_FIRST, TRAVELLER_LAST } from '../data/travelNames';
import { TRAVEL_CITIES, travelDays } from '../data/travelPlaces';

export const FLIGHT_SORTS = ['Cheapest', 'Fastest', 'Earliest'] as const;
export type FlightSort = (typeof FLIGHT_SORTS)[number];
export const SEATS = ['Any seat', 'Window', 'Aisle'] as const;
export const PAX = ['1', '2', '3', '4', '5', '6'] as const;
export type Trip = 'oneway' | 'return';
export const PRICES = { bag: 35, meal: 12, insurance: 19 } as const;

export interface Flight {
  id: number;
  airline: string;
  code: string; // "NR 418"
  from: string;
  to: string;
  depart: number; // minutes after midnight
  minutes: number; // flight time
  stops: number;
  price: number; // per passenger, euros
}

export interface SearchForm {
  trip: Trip;
  from: string;
  to: string;
  date: string;
  ret: string;
  pax: string;
}

export interface Extras {
  seat: string;
  bag: boolean;
  meal: boolean;
  insurance: boolean;
}

export interface FlightBooking {
  ref: string;
  flightId: number;
  from: string;
  to: string;
  date: string;
  ret: string; // '' for one way
  pax: string;
  first: string;
  last: string;
  extras: Extras;
  total: number;
  cancelled: boolean;
}

export type FlightDialog = { kind: 'book' } | { kind: 'cancel'; ref: string };

export interface FlightsState {
  page: 'search' | 'results' | 'passenger' | 'extras' | 'done' | 'trips';
  origins: string[];
  popular: string[]; // destinations offered from every origin
  dates: string[];
  flights: Flight[];
  form: SearchForm;
  query: SearchForm | null; // the search last run
  sort: FlightSort;
  direct: boolean;
  selectedId: number | null;
  traveller: { first: string; last: string; email: string };
  extras: Extras;
  dialog: FlightDialog | null;
  menu: boolean;
  tripRef: string | null; // the trip highlighted in "My trips"
  bookings: FlightBooking[];
  nextRef: number;
}

export interface FlightsVariant extends AppVariant {
  form: 'side' | 'paired'; // trip radio in the side column, or fields two to a row
  results: 'cards' | 'rows';
  words: {
    brand: string;
    oneway: string;
    return: string;
    from: string;
    to: string;
    date: string;
    back: string;
    pax: string;
    search: string;
    direct: string;
    select: string;
    next: string;
    book: string;
    confirm: string;
    trips: string;
  };
}

export const norm = (t: string) => t.trim().toLowerCase();
export const clock = (min: number) => {
  const m = ((min % 1440) + 1440) % 1440;
  return `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
};
const duration = (min: number) => `${Math.floor(min / 60)}h ${String(min % 60).padStart(2, '0')}m`;
const stopsText = (n: number) => (n === 0 ? 'Direct' : n === 1 ? '1 stop' : `${n} stops`);

export function sortFlights(list: Flight[], sort: FlightSort): Flight[] {
  const key = (f: Flight) => (sort === 'Cheapest' ? f.price : sort === 'Fastest' ? f.minutes : f.depart);
  return [...list].sort((a, b) => key(a) - key(b) || a.id - b.id);
}

/** Every flight on a route, whatever the filters. */
export function routeFlights(s: FlightsState, from: string, to: string): Flight[] {
  return s.flights.filter((f) => f.from === from && norm(f.to) === norm(to));
}

export function shownFlights(s: FlightsState): Flight[] {
  if (!s.query) return [];
  const list = routeFlights(s, s.query.from, s.query.to).filter((f) => !s.direct || f.stops === 0);
  return sortFlights(list, s.sort);
}

export function bookingTotal(f: Flight, pax: string, x: Extras): number {
  const n = Number(pax);
  return f.price * n + (x.bag ? PRICES.bag * n : 0) + (x.meal ? PRICES.meal * n : 0) + (x.insurance ? PRICES.insurance : 0);
}

const set = (p: Partial<FlightsState>): Update<FlightsState> => (s) => ({ ...s, ...p });
const setForm = (p: Partial<SearchForm>): Update<FlightsState> => (s) => ({ ...s, form: { ...s.form, ...p } });
const setExtras = (p: Partial<Extras>): Update<FlightsState> => (s) => ({ ...s, extras: { ...s.extras, ...p } });
const NO_EXTRAS: Extras = { seat: SEATS[0], bag: false, meal: false, insurance: false };

const runSearch: Update<FlightsState> = (s) =>
  s.form.to.trim() ? { ...s, page: 'results', query: { ...s.form, ret: s.form.trip === 'return' ? s.form.ret : '' }, selectedId: null } : s;

function searchView(s: FlightsState, v: FlightsVariant): View<FlightsState> {
  const w = v.words;
  const trip: Widget<FlightsState> = {
    kind: 'radio-group',
    id: 'trip',
    label: 'Trip',
    options: [w.oneway, w.return],
    value: s.form.trip === 'return' ? w.return : w.oneway,
    onSelect: (st, o) => setForm({ trip: o === w.return ? 'return' : 'oneway' })(st),
  };
  const from: Widget<FlightsState> = { kind: 'dropdown', id: 'from', label: w.from, options: s.origins, value: s.form.from, onSelect: (st, o) => setForm({ from: o })(st) };
  const to: Widget<FlightsState> = { kind: 'text-field', id: 'to', label: w.to, value: s.form.to, onType: (st, t) => setForm({ to: t })(st) };
  const date: Widget<FlightsState> = {
    kind: 'dropdown',
    id: 'date',
    label: w.date,
    options: s.dates.slice(0, -1),
    value: s.form.date,
    onSelect: (st, o) => {
      // A return before the outbound day makes no sense: move it to the day after.
      const ret = st.dates.indexOf(st.form.ret) <= st.dates.indexOf(o) ? st.dates[st.dates.indexOf(o) + 1] : st.form.ret;
      return setForm({ date: o, ret })(st);
    },
  };
  const ret: Widget<FlightsState> = {
    kind: 'dropdown',
    id: 'return',
    label: w.back,
    options: s.dates.slice(s.dates.indexOf(s.form.date) + 1),
    value: s.form.ret,
    onSelect: (st, o) => setForm({ ret: o })(st),
  };
  const pax: Widget<FlightsState> = { kind: 'dropdown', id: 'pax', label: w.pax, options: [...PAX], value: s.form.pax, onSelect: (st, o) => setForm({ pax: o })(st) };
  const isReturn = s.form.trip === 'return';
  const form: Widget<FlightsState>[] =
    v.form === 'side'
      ? [from, to, date, ...(isReturn ? [ret] : []), pax]
      : [
          { kind: 'row', children: [trip, pax] },
          { kind: 'row', children: [from, to] },
          { kind: 'row', children: isReturn ? [date, ret] : [date] },
        ];
  const popular: Widget<FlightsState>[] = s.popular.map((city) => ({
    kind: 'list-item',
    id: `popular-${city}`,
    text: city,
    secondary: `from €${Math.min(...s.flights.filter((f) => f.to === city && f.from === s.form.from).map((f) => f.price))}`,
    icon: 'airplane',
    selected: norm(s.form.to) === norm(city),
    onClick: setForm({ to: city }),
  }));
  return {
    screenId: 'search',
    title: 'Search flights',
    nav: {
      title: w.brand,
      actions: [{ kind: 'icon-button', id: 'account', icon: 'account', purpose: 'open the account menu', onClick: set({ menu: true }) }],
    },
    side: v.form === 'side' ? [trip] : undefined,
    sideWidth: 50,
    body: [...form, { kind: 'text', text: 'Popular destinations', tone: 'strong' }, ...popular],
    footer: [
      {
        kind: 'row',
        justify: 'between',
        children: [
          { kind: 'link', id: 'clear', text: 'Clear', purpose: 'clear the search form', onClick: setForm({ to: '', trip: 'oneway', pax: '1' }) },
          { kind: 'button', id: 'search', text: w.search, primary: true, purpose: 'search for flights', onClick: runSearch },
        ],
      },
    ],
    overlay: s.menu
      ? {
          kind: 'menu',
          id: 'account-menu',
          anchor: 'account',
          items: [
            { id: 'menu.trips', text: w.trips, icon: 'airplane', onClick: set({ menu: false, page: 'trips' }) },
            { id: 'menu.clear', text: 'Clear search', icon: 'refresh', onClick: (st) => ({ ...setForm({ to: '', trip: 'oneway', pax: '1' })(st), menu: false }) },
          ],
          onDismiss: set({ menu: false }),
        }
      : undefined,
  };
}

function flightWidget(f: Flight, v: FlightsVariant, selected: boolean): Widget<FlightsState> {
  const pick: Update<FlightsState> = (st) => ({ ...st, selectedId: f.id, page: 'passenger', extras: NO_EXTRAS });
  const times = `${clock(f.depart)} - ${clock(f.depart + f.minutes)}`;
  if (v.results === 'rows') {
    return {
      kind: 'list-item',
      id: `flight-${f.id}`,
      text: `${clock(f.depart)} ${f.airline}`,
      secondary: `${duration(f.minutes)}, ${stopsText(f.stops)}`,
      selected,
      onClick: pick,
      trailing: [{ kind: 'text', text: `€${f.price}`, tone: 'strong' }],
    };
  }
  // The card itself has no text to name it by, so a button inside it does the choosing.
  return {
    kind: 'card',
    id: `card-${f.id}`,
    children: [
      { kind: 'row', justify: 'between', children: [{ kind: 'text', text: `${f.airline} ${f.code}`, tone: 'strong' }, { kind: 'text', text: `${duration(f.minutes)}, ${stopsText(f.stops)}`, tone: 'muted' }] },
      {
        kind: 'row',
        justify: 'between',
        children: [
          { kind: 'text', text: times },
          { kind: 'button', id: `flight-${f.id}`, text: `${v.words.select} €${f.price}`, primary: selected, purpose: `choose the ${f.airline} flight at ${clock(f.depart)}`, onClick: pick },
        ],
      },
    ],
  };
}

function resultsView(s: FlightsState, v: FlightsVariant): View<FlightsState> {
  const q = s.query!;
  const list = shownFlights(s);
  return {
    screenId: 'results',
    title: `${q.from} to ${q.to}`,
    nav: { title: `${q.from} to ${q.to.trim()}`, onBack: set({ page: 'search' }) },
    body: [
      {
        kind: 'row',
        children: [
          { kind: 'checkbox', id: 'direct', text: v.words.direct, checked: s.direct, onToggle: (st) => ({ ...st, direct: !st.direct }) },
          { kind: 'dropdown', id: 'sort', label: 'Sort', options: [...FLIGHT_SORTS], value: s.sort, onSelect: (st, o) => ({ ...st, sort: o as FlightSort }) },
        ],
      },
      { kind: 'text', text: `${list.length} ${list.length === 1 ? 'flight' : 'flights'}, ${q.date}${q.ret ? ` to ${q.ret}` : ''}, ${q.pax} ${q.pax === '1' ? 'adult' : 'adults'}`, tone: 'muted' },
      ...(list.length ? list.map((f) => flightWidget(f, v, f.id === s.selectedId)) : [{ kind: 'text', text: 'No flights match your search.', tone: 'muted' } as const]),
    ],
  };
}

function passengerView(s: FlightsState, f: Flight, v: FlightsVariant): View<FlightsState> {
  const t = (p: Partial<FlightsState['traveller']>): Update<FlightsState> => (st) => ({ ...st, traveller: { ...st.traveller, ...p } });
  return {
    screenId: 'passenger',
    title: 'Passenger details',
    nav: { title: 'Who is flying?', onBack: set({ page: 'results' }) },
    body: [
      { kind: 'text', text: `${f.airline} ${f.code}, ${s.query?.date ?? ''}`, tone: 'strong' },
      { kind: 'text', text: `${f.from} ${clock(f.depart)} to ${f.to} ${clock(f.depart + f.minutes)}, €${f.price}`, tone: 'muted' },
      { kind: 'text-field', id: 'first', label: 'First name', value: s.traveller.first, onType: (st, x) => t({ first: x })(st) },
      { kind: 'text-field', id: 'last', label: 'Last name', value: s.traveller.last, onType: (st, x) => t({ last: x })(st) },
      { kind: 'text-field', id: 'email', label: 'Email', value: s.traveller.email, onType: (st, x) => t({ email: x })(st) },
    ],
    footer: [
      {
        kind: 'row',
        justify: 'end',
        children: [
          {
            kind: 'button',
            id: 'continue',
            text: v.words.next,
            primary: true,
            purpose: 'continue to extras',
            onClick: (st) => (st.traveller.first.trim() && st.traveller.last.trim() ? { ...st, page: 'extras' } : st),
          },
        ],
      },
    ],
  };
}

function extrasView(s: FlightsState, f: Flight, v: FlightsVariant): View<FlightsState> {
  const pax = s.query?.pax ?? '1';
  return {
    screenId: 'extras',
    title: 'Extras',
    nav: { title: 'Seats and extras', onBack: set({ page: 'passenger' }) },
    body: [
      { kind: 'dropdown', id: 'seat', label: 'Seat', options: [...SEATS], value: s.extras.seat, onSelect: (st, o) => setExtras({ seat: o })(st) },
      { kind: 'checkbox', id: 'bag', text: `Checked bag +€${PRICES.bag}`, checked: s.extras.bag, onToggle: (st) => setExtras({ bag: !st.extras.bag })(st) },
      { kind: 'checkbox', id: 'meal', text: `Hot meal +€${PRICES.meal}`, checked: s.extras.meal, onToggle: (st) => setExtras({ meal: !st.extras.meal })(st) },
      { kind: 'checkbox', id: 'insurance', text: `Travel insurance +€${PRICES.insurance}`, checked: s.extras.insurance, onToggle: (st) => setExtras({ insurance: !st.extras.insurance })(st) },
      { kind: 'text', text: `Total €${bookingTotal(f, pax, s.extras)}`, tone: 'strong' },
    ],
    footer: [
      { kind: 'row', justify: 'end', children: [{ kind: 'button', id: 'book', text: v.words.book, primary: true, purpose: 'book the flight', onClick: set({ dialog: { kind: 'book' } }) }] },
    ],
    overlay: s.dialog?.kind === 'book' ? bookDialog(s, f, v) : undefined,
  };
}

function bookDialog(s: FlightsState, f: Flight, v: FlightsVariant): View<FlightsState>['overlay'] {
  const q = s.query!;
  const confirm: Update<FlightsState> = (st) => {
    const booking: FlightBooking = {
      ref: `SH${st.nextRef}`,
      flightId: f.id,
      from: f.from,
      to: f.to,
      date: q.date,
      ret: q.ret,
      pax: q.pax,
      first: st.traveller.first.trim(),
      last: st.traveller.last.trim(),
      extras: st.extras,
      total: bookingTotal(f, q.pax, st.extras),
      cancelled: false,
    };
    return { ...st, bookings: [...st.bookings, booking], nextRef: st.nextRef + 1, dialog: null, page: 'done' };
  };
  return {
    kind: 'dialog',
    id: 'confirm',
    title: 'Confirm booking',
    body: [{ kind: 'text', text: `${f.from} to ${f.to}, ${q.date}. Total €${bookingTotal(f, q.pax, s.extras)}.`, wrap: true }],
    actions: [
      { kind: 'button', id: 'confirm.cancel', text: 'Back', onClick: set({ dialog: null }) },
      { kind: 'button', id: 'confirm.ok', text: v.words.confirm, primary: true, purpose: 'confirm the booking', onClick: confirm },
    ],
    onDismiss: set({ dialog: null }),
  };
}

function doneView(s: FlightsState, v: FlightsVariant): View<FlightsState> {
  const b = s.bookings[s.bookings.length - 1];
  return {
    screenId: 'done',
    title: 'Booked',
    nav: { title: v.words.brand },
    body: [
      { kind: 'row', children: [{ kind: 'image', id: 'done.icon', icon: 'check' }, { kind: 'text', text: `You're going to ${b?.to ?? ''}!`, heading: true }] },
      { kind: 'text', text: `Booking ${b?.ref ?? ''} for ${b?.first ?? ''} ${b?.last ?? ''}`, wrap: true },
      {
        kind: 'row',
        children: [
          { kind: 'button', id: 'done.new', text: 'New search', onClick: set({ page: 'search', query: null, selectedId: null }) },
          { kind: 'link', id: 'done.trips', text: v.words.trips, onClick: set({ page: 'trips' }) },
        ],
      },
    ],
  };
}

function tripsView(s: FlightsState, v: FlightsVariant): View<FlightsState> {
  const items: Widget<FlightsState>[] = s.bookings.map((b) => ({
    kind: 'list-item',
    id: `trip-${b.ref}`,
    text: `${b.from} to ${b.to}`,
    secondary: b.cancelled ? `${b.date}, cancelled` : `${b.date}, ${b.first} ${b.last}`,
    icon: 'airplane',
    selected: s.tripRef === b.ref,
    onClick: set({ tripRef: b.ref }),
    trailing: b.cancelled
      ? []
      : [{ kind: 'icon-button', id: `cancel-${b.ref}`, icon: 'delete', color: 'red', purpose: 'cancel the trip', onClick: set({ dialog: { kind: 'cancel', ref: b.ref } }) }],
  }));
  const open = s.dialog?.kind === 'cancel' ? s.bookings.find((b) => s.dialog?.kind === 'cancel' && b.ref === s.dialog.ref) : undefined;
  return {
    screenId: 'trips',
    title: v.words.trips,
    nav: { title: v.words.trips, onBack: set({ page: 'search' }) },
    body: items.length ? items : [{ kind: 'text', text: 'No trips yet.', tone: 'muted' }],
    overlay: open
      ? {
          kind: 'dialog',
          id: 'cancel-dialog',
          title: 'Cancel this trip?',
          body: [{ kind: 'text', text: `${open.from} to ${open.to} on ${open.date} will be cancelled.`, wrap: true }],
          actions: [
            { kind: 'button', id: 'cancel.keep', text: 'Keep', onClick: set({ dialog: null }) },
            {
              kind: 'button',
              id: 'cancel.ok',
              text: 'Cancel trip',
              color: 'red',
              purpose: 'cancel the trip',
              onClick: (st) => ({ ...st, dialog: null, bookings: st.bookings.map((b) => (b.ref === open.ref ? { ...b, cancelled: true } : b)) }),
            },
          ],
          onDismiss: set({ dialog: null }),
        }
      : undefined,
  };
}

export const FLIGHTS_APP = defineApp<FlightsState, FlightsVariant>({
  id: 'flights',
  name: 'Skyhop',
  icon: 'airplane',
  domain: 'travel',
  platform: 'web',
  variants: [
    {
      theme: { mode: 'light', accent: 'blue', font: 'Inter', density: 'compact', corner: 3 },
      labels: 'left',
      form: 'side',
      results: 'cards',
      words: {
        brand: 'Skyhop',
        oneway: 'One way',
        return: 'Return',
        from: 'From',
        to: 'To',
        date: 'Depart',
        back: 'Return',
        pax: 'People',
        search: 'Search flights',
        direct: 'Direct only',
        select: 'Select',
        next: 'Continue',
        book: 'Book now',
        confirm: 'Confirm',
        trips: 'My trips',
      },
    },
    {
      theme: { mode: 'dark', accent: 'orange', font: 'Noto Sans', density: 'comfortable', corner: 6 },
      labels: 'above',
      form: 'paired',
      results: 'rows',
      words: {
        brand: 'Skyhop',
        oneway: 'One-way',
        return: 'Round trip',
        from: 'Leaving from',
        to: 'Going to',
        date: 'Departure',
        back: 'Coming back',
        pax: 'Travellers',
        search: 'Find flights',
        direct: 'Nonstop',
        select: 'Choose',
        next: 'Next',
        book: 'Pay',
        confirm: 'Pay now',
        trips: 'Bookings',
      },
    },
    {
      theme: { mode: 'light', accent: 'teal', font: 'Roboto Slab', density: 'comfortable', corner: 8 },
      labels: 'above',
      form: 'side',
      results: 'cards',
      words: {
        brand: 'skyhop.com',
        oneway: 'Single',
        return: 'Return',
        from: 'Origin',
        to: 'Destination',
        date: 'Outbound',
        back: 'Inbound',
        pax: 'Passengers',
        search: 'Search',
        direct: 'No stops',
        select: 'Fly for',
        next: 'Continue',
        book: 'Reserve',
        confirm: 'Yes, book it',
        trips: 'My trips',
      },
    },
  ],
  init(rng) {
    const cities = rng.shuffle(TRAVEL_CITIES);
    const origins = cities.slice(0, 3);
    const popular = cities.slice(3, 10);
    const dates = travelDays(rng, 10);
    const flights: Flight[] = [];
    for (const from of origins) {
      for (const to of popular) {
        const base = rng.int(60, 420);
        const count = rng.int(3, 4);
        const departs = rng.shuffle(Array.from({ length: 34 }, (_, i) => 300 + i * 30)).slice(0, count);
        const prices = rng.shuffle(Array.from({ length: 40 }, (_, i) => 39 + i * 11)).slice(0, count);
        const offsets = rng.shuffle(Array.from({ length: 12 }, (_, i) => i * 10)).slice(0, count);
        for (let i = 0; i < count; i++) {
          const airline = rng.pick(AIRLINES);
          const stops = rng.pick([0, 0, 1, 1, 2]);
          flights.push({
            id: flights.length + 1,
            airline: airline.name,
            code: `${airline.code} ${rng.int(100, 989)}`,
            from,
            to,
            depart: departs[i],
            // Stops add 67 minutes each: never a multiple of the 10-minute offsets, so no two flights on a route tie.
            minutes: base + stops * 67 + offsets[i],
            stops,
            price: prices[i],
          });
        }
      }
    }
    const bookings: FlightBooking[] = [];
    let nextRef = rng.int(1000, 8999);
    for (let i = rng.int(1, 3); i > 0; i--) {
      const f = rng.pick(flights);
      if (bookings.some((b) => b.to === f.to)) continue;
      const date = rng.pick(dates);
      const extras: Extras = { seat: rng.pick(SEATS), bag: rng.chance(0.5), meal: false, insurance: false };
      bookings.push({
        ref: `SH${nextRef++}`,
        flightId: f.id,
        from: f.from,
        to: f.to,
        date,
        ret: '',
        pax: '1',
        first: rng.pick(TRAVELLER_FIRST),
        last: rng.pick(TRAVELLER_LAST),
        extras,
        total: bookingTotal(f, '1', extras),
        cancelled: false,
      });
    }
    const email = `${rng.pick(TRAVELLER_FIRST).toLowerCase()}@${rng.pick(TRAVEL_MAIL_DOMAINS)}`;
    return {
      page: 'search',
      origins,
      popular,
      dates,
      flights,
      form: { trip: 'oneway', from: origins[0], to: '', date: dates[0], ret: dates[1], pax: '1' },
      query: null,
      sort: rng.pick(FLIGHT_SORTS),
      direct: false,
      selectedId: null,
      traveller: { first: '', last: '', email },
      extras: NO_EXTRAS,
      dialog: null,
      menu: false,
      tripRef: null,
      bookings,
      nextRef,
    };
  },
  view(s, v) {
    const f = s.flights.find((x) => x.id === s.selectedId);
    if (s.page === 'results' && s.query) return resultsView(s, v);
    if (s.page === 'passenger' && f) return passengerView(s, f, v);
    if (s.page === 'extras' && f) return extrasView(s, f, v);
    if (s.page === 'done') return doneView(s, v);
    if (s.page === 'trips') return tripsView(s, v);
    return searchView(s, v);
  },
});
