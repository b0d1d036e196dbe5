/**
 * Staybnb, a web hotel site: destination search with dates and guests,
 * results with amenity checkboxes, a price slider, sorting and favourite
 * hearts, a hotel page with room tabs, a booking form with a confirm
 * dialog, saved stays and past bookings.
 */
import type { Random } from '../../learn/random';
import { defineApp, type AppVariant, type Update, type View, type Widget } from '../app';
import { AMENITIES, BEDS, HOTEL_FIRST, HOTEL_KINDS, HOTEL_SECOND, ROOM_NAMES, TRAVELLER_FIRST, TRAVELLER_LAST, type Amenity } from '../data/travelNames';
import { AREAS, TRAVEL_CITIES, travelDays } from '../data/travelPlaces';

export const GUESTS = ['1 guest', '2 guests', '3 guests', '4 guests'] as const;
export const HOTEL_SORTS = ['Recommended', 'Lowest price', 'Top rated'] as const;
export type HotelSort = (typeof HOTEL_SORTS)[number];
export const PAYMENTS = ['Pay now', 'Pay at the hotel'] as const;
const ROOM_CLASSES = ['standard', 'deluxe', 'suite'] as const;

export interface Room {
  id: string; // `${hotelId}-${n}`
  tab: number; // 0 standard, 1 deluxe, 2 suite
  name: string;
  beds: string;
  price: number; // per night, dollars
  refundable: boolean;
}

export interface Hotel {
  id: number;
  name: string;
  city: string;
  area: string;
  stars: number;
  rating: number; // tenths: 84 is 8.4
  price: number; // the cheapest room
  amenities: Amenity[];
  rooms: Room[];
  saved: boolean;
}

export interface StayForm {
  dest: string;
  checkin: string;
  checkout: string;
  guests: string;
}

export interface StayBooking {
  ref: string;
  hotelId: number;
  roomId: string;
  checkin: string;
  checkout: string;
  guests: string;
  name: string;
  email: string;
  pay: string;
  total: number;
}

export interface HotelsState {
  page: 'home' | 'results' | 'hotel' | 'book' | 'done' | 'saved' | 'trips';
  cities: string[];
  dates: string[];
  hotels: Hotel[];
  form: StayForm;
  query: StayForm | null; // the search last run
  amenities: Amenity[]; // checked filters
  level: number; // price slider in [0, 1]
  sort: HotelSort;
  openId: number | null;
  backTo: 'results' | 'saved' | 'trips';
  tab: number;
  roomId: string | null;
  guest: { name: string; email: string; pay: string; deals: boolean };
  confirm: boolean;
  menu: boolean;
  bookings: StayBooking[];
  nextRef: number;
}

export interface HotelsVariant extends AppVariant {
  filters: 'side' | 'top';
  searchInNav: boolean;
  words: {
    hero: string;
    where: string;
    checkin: string;
    checkout: string;
    search: string;
    tabs: [string, string, string];
    reserve: string;
    book: string;
    ok: string;
    saved: string;
    trips: string;
    amenity: Record<Amenity, string>;
  };
}

export const norm = (t: string) => t.trim().toLowerCase();
/** The slider's price cap: $50 at the left end, $350 (no cap) at the right. */
export const maxPrice = (level: number) => 50 + Math.round(level * 300);
const ratingWord = (r: number) => (r >= 90 ? 'Superb' : r >= 85 ? 'Excellent' : r >= 80 ? 'Very good' : 'Good');
const rating = (r: number) => `${Math.floor(r / 10)}.${r % 10}`;

export function nightsOf(dates: string[], f: StayForm): number {
  return Math.max(1, dates.indexOf(f.checkout) - dates.indexOf(f.checkin));
}

export function sortHotels(list: Hotel[], sort: HotelSort): Hotel[] {
  if (sort === 'Lowest price') return [...list].sort((a, b) => a.price - b.price || a.id - b.id);
  if (sort === 'Top rated') return [...list].sort((a, b) => b.rating - a.rating || a.id - b.id);
  return [...list].sort((a, b) => a.id - b.id);
}

export const cityHotels = (s: HotelsState, city: string) => s.hotels.filter((h) => norm(h.city) === norm(city));

export function shownHotels(s: HotelsState): Hotel[] {
  if (!s.query) return [];
  const cap = maxPrice(s.level);
  const list = cityHotels(s, s.query.dest).filter((h) => h.price <= cap && s.amenities.every((a) => h.amenities.includes(a)));
  return sortHotels(list, s.sort);
}

const set = (p: Partial<HotelsState>): Update<HotelsState> => (s) => ({ ...s, ...p });
const setForm = (p: Partial<StayForm>): Update<HotelsState> => (s) => ({ ...s, form: { ...s.form, ...p } });
const patchHotel = (s: HotelsState, id: number, p: Partial<Hotel>): HotelsState => ({ ...s, hotels: s.hotels.map((h) => (h.id === id ? { ...h, ...p } : h)) });
const runSearch: Update<HotelsState> = (s) => (s.form.dest.trim() ? { ...s, page: 'results', query: { ...s.form }, menu: false } : s);
const openHotel = (id: number, backTo: HotelsState['backTo']): Update<HotelsState> => (s) => ({ ...s, page: 'hotel', openId: id, backTo, tab: 0, roomId: null });

function heart(h: Hotel, id: string): Widget<HotelsState> {
  return {
    kind: 'icon-button',
    id,
    icon: 'heart',
    color: h.saved ? 'red' : undefined,
    selected: h.saved,
    purpose: h.saved ? `remove ${h.name} from saved` : `save ${h.name}`,
    onClick: (st) => patchHotel(st, h.id, { saved: !h.saved }),
  };
}

function navActions(v: HotelsVariant): Widget<HotelsState>[] {
  return [
    { kind: 'icon-button', id: 'saved', icon: 'heart', purpose: `show ${v.words.saved.toLowerCase()}`, onClick: set({ page: 'saved', menu: false }) },
    { kind: 'icon-button', id: 'menu', icon: 'menu', purpose: 'open the menu', onClick: set({ menu: true }) },
  ];
}

function menuOverlay(s: HotelsState, v: HotelsVariant): View<HotelsState>['overlay'] {
  if (!s.menu) return undefined;
  return {
    kind: 'menu',
    id: 'main-menu',
    anchor: 'menu',
    items: [
      { id: 'menu.home', text: 'Home', icon: 'home', onClick: set({ menu: false, page: 'home' }) },
      { id: 'menu.saved', text: v.words.saved, icon: 'heart', onClick: set({ menu: false, page: 'saved' }) },
      { id: 'menu.trips', text: v.words.trips, icon: 'bed', onClick: set({ menu: false, page: 'trips' }) },
    ],
    onDismiss: set({ menu: false }),
  };
}

function homeView(s: HotelsState, v: HotelsVariant): View<HotelsState> {
  const w = v.words;
  const dest: Widget<HotelsState> = { kind: 'search-box', id: 'dest', label: w.where, value: s.form.dest, grow: true, onType: (st, t) => setForm({ dest: t })(st) };
  const checkin: Widget<HotelsState> = {
    kind: 'dropdown',
    id: 'checkin',
    label: w.checkin,
    options: s.dates.slice(0, -1),
    value: s.form.checkin,
    onSelect: (st, o) => {
      const i = st.dates.indexOf(o);
      // Leaving on or before arriving makes no stay: push check-out to the next day.
      const checkout = st.dates.indexOf(st.form.checkout) <= i ? st.dates[i + 1] : st.form.checkout;
      return setForm({ checkin: o, checkout })(st);
    },
  };
  const checkout: Widget<HotelsState> = {
    kind: 'dropdown',
    id: 'checkout',
    label: w.checkout,
    options: s.dates.slice(s.dates.indexOf(s.form.checkin) + 1),
    value: s.form.checkout,
    onSelect: (st, o) => setForm({ checkout: o })(st),
  };
  const cities: Widget<HotelsState>[] = s.cities.map((city) => ({
    kind: 'card',
    id: `ccard-${city}`,
    children: [
      {
        kind: 'row',
        children: [
          { kind: 'image', id: `cimg-${city}`, icon: 'map' },
          { kind: 'link', id: `city-${city}`, text: city, purpose: `show stays in ${city}`, onClick: (st) => runSearch(setForm({ dest: city })(st)) },
          { kind: 'text', text: `${cityHotels(s, city).length} stays`, tone: 'muted', grow: true },
        ],
      },
    ],
  }));
  return {
    screenId: 'home',
    title: 'Home',
    nav: { title: 'Staybnb', center: v.searchInNav ? dest : undefined, actions: navActions(v) },
    body: [
      { kind: 'text', text: w.hero, heading: true },
      ...(v.searchInNav ? [] : [dest]),
      { kind: 'row', children: [checkin, checkout] },
      {
        kind: 'row',
        children: [
          { kind: 'dropdown', id: 'guests', label: 'Guests', options: [...GUESTS], value: s.form.guests, onSelect: (st, o) => setForm({ guests: o })(st) },
          { kind: 'button', id: 'search', text: w.search, primary: true, purpose: 'search for stays', onClick: runSearch },
        ],
      },
      { kind: 'text', text: 'Popular cities', tone: 'strong' },
      ...cities,
    ],
    overlay: menuOverlay(s, v),
  };
}

function filterWidgets(s: HotelsState, v: HotelsVariant): { boxes: Widget<HotelsState>[]; slider: Widget<HotelsState> } {
  const boxes: Widget<HotelsState>[] = AMENITIES.map((a) => ({
    kind: 'checkbox',
    id: `f-${a.toLowerCase()}`,
    text: v.words.amenity[a],
    checked: s.amenities.includes(a),
    onToggle: (st) => ({ ...st, amenities: st.amenities.includes(a) ? st.amenities.filter((x) => x !== a) : AMENITIES.filter((x) => x === a || st.amenities.includes(x)) }),
  }));
  const slider: Widget<HotelsState> = { kind: 'slider', id: 'price', label: `Max $${maxPrice(s.level)}`, level: s.level, onSet: (st, l) => ({ ...st, level: l }) };
  return { boxes, slider };
}

function hotelCard(h: Hotel): Widget<HotelsState> {
  return {
    kind: 'card',
    id: `hcard-${h.id}`,
    children: [
      { kind: 'row', justify: 'between', children: [{ kind: 'link', id: `hotel-${h.id}`, text: h.name, purpose: `open ${h.name}`, onClick: openHotel(h.id, 'results') }, heart(h, `fav-${h.id}`)] },
      { kind: 'row', justify: 'between', children: [{ kind: 'text', text: `${h.stars}-star, ${h.area}`, tone: 'muted' }, { kind: 'text', text: `$${h.price}`, tone: 'strong' }] },
      { kind: 'text', text: `${rating(h.rating)} ${ratingWord(h.rating)}`, tone: 'small', color: h.rating >= 85 ? 'green' : undefined },
    ],
  };
}

function resultsView(s: HotelsState, v: HotelsVariant): View<HotelsState> {
  const q = s.query!;
  const list = shownHotels(s);
  const { boxes, slider } = filterWidgets(s, v);
  const top: Widget<HotelsState>[] =
    v.filters === 'top'
      ? [{ kind: 'card', id: 'filters', children: [{ kind: 'row', children: boxes.slice(0, 2) }, { kind: 'row', children: boxes.slice(2) }, slider] }]
      : [];
  const city = s.cities.find((c) => norm(c) === norm(q.dest)) ?? q.dest.trim();
  return {
    screenId: 'results',
    title: `Stays in ${city}`,
    nav: { title: `Stays in ${city}`, onBack: set({ page: 'home' }), actions: navActions(v) },
    side: v.filters === 'side' ? [{ kind: 'text', text: 'Filters', tone: 'strong' }, ...boxes, slider] : undefined,
    sideWidth: 66,
    body: [
      ...top,
      {
        kind: 'row',
        children: [
          { kind: 'text', text: `${list.length} ${list.length === 1 ? 'stay' : 'stays'}` },
          { kind: 'dropdown', id: 'sort', label: 'Sort', options: [...HOTEL_SORTS], value: s.sort, onSelect: (st, o) => ({ ...st, sort: o as HotelSort }) },
        ],
      },
      ...(list.length ? list.map(hotelCard) : [{ kind: 'text', text: 'No stays match these filters.', tone: 'muted', wrap: true } as const]),
    ],
    overlay: menuOverlay(s, v),
  };
}

function hotelView(s: HotelsState, h: Hotel, v: HotelsVariant): View<HotelsState> {
  const rooms = h.rooms.filter((r) => r.tab === s.tab);
  const room = h.rooms.find((r) => r.id === s.roomId);
  return {
    screenId: 'hotel',
    title: h.name,
    nav: { title: h.name, onBack: set({ page: s.backTo }), actions: [heart(h, 'hotel.fav')] },
    body: [
      { kind: 'row', children: [{ kind: 'image', id: 'hotel.image', icon: 'bed', size: 14 }, { kind: 'text', text: `${h.stars}-star hotel in ${h.area}, ${h.city}`, tone: 'muted', grow: true }] },
      { kind: 'text', text: `${rating(h.rating)} ${ratingWord(h.rating)}. ${h.amenities.length ? h.amenities.map((a) => v.words.amenity[a]).join(', ') : 'No extras'}.`, wrap: true },
      { kind: 'tabs', id: 'rooms', tabs: v.words.tabs, value: v.words.tabs[s.tab], onSelect: (st, t) => ({ ...st, tab: v.words.tabs.indexOf(t), roomId: null }) },
      ...rooms.map(
        (r): Widget<HotelsState> => ({
          kind: 'list-item',
          id: `room-${r.id}`,
          text: r.name,
          secondary: `$${r.price}, ${r.beds}${r.refundable ? ', free cancellation' : ''}`,
          icon: 'bed',
          selected: r.id === s.roomId,
          onClick: set({ roomId: r.id }),
        }),
      ),
    ],
    footer: [
      {
        kind: 'row',
        justify: 'between',
        children: [
          { kind: 'text', text: room ? `${room.name}, $${room.price} a night` : 'Pick a room', tone: room ? 'strong' : 'muted' },
          { kind: 'button', id: 'reserve', text: v.words.reserve, primary: true, purpose: 'reserve the chosen room', onClick: (st) => (st.roomId ? { ...st, page: 'book' } : st) },
        ],
      },
    ],
  };
}

function bookView(s: HotelsState, h: Hotel, r: Room, v: HotelsVariant): View<HotelsState> {
  const f = s.query ?? s.form;
  const nights = nightsOf(s.dates, f);
  const total = r.price * nights;
  const g = (p: Partial<HotelsState['guest']>): Update<HotelsState> => (st) => ({ ...st, guest: { ...st.guest, ...p } });
  const confirm: Update<HotelsState> = (st) => {
    const b: StayBooking = {
      ref: `ST${st.nextRef}`,
      hotelId: h.id,
      roomId: r.id,
      checkin: f.checkin,
      checkout: f.checkout,
      guests: f.guests,
      name: st.guest.name.trim(),
      email: st.guest.email.trim(),
      pay: st.guest.pay,
      total,
    };
    return { ...st, bookings: [...st.bookings, b], nextRef: st.nextRef + 1, confirm: false, page: 'done' };
  };
  return {
    screenId: 'book',
    title: 'Booking',
    nav: { title: 'Your stay', onBack: set({ page: 'hotel' }) },
    body: [
      { kind: 'text', text: `${r.name} at ${h.name}`, tone: 'strong' },
      { kind: 'text', text: `${f.checkin} to ${f.checkout}, ${nights} ${nights === 1 ? 'night' : 'nights'}, ${f.guests}`, tone: 'muted' },
      {
        kind: 'row',
        children: [
          { kind: 'text-field', id: 'name', label: 'Full name', value: s.guest.name, onType: (st, t) => g({ name: t })(st) },
          { kind: 'text-field', id: 'email', label: 'Email', value: s.guest.email, onType: (st, t) => g({ email: t })(st) },
        ],
      },
      { kind: 'radio-group', id: 'pay', label: 'Payment', options: [...PAYMENTS], value: s.guest.pay, onSelect: (st, o) => g({ pay: o })(st) },
      { kind: 'switch', id: 'deals', text: 'Email me deals', checked: s.guest.deals, onToggle: (st) => g({ deals: !st.guest.deals })(st) },
    ],
    footer: [
      {
        kind: 'row',
        justify: 'between',
        children: [
          { kind: 'text', text: `Total $${total}`, tone: 'strong' },
          { kind: 'button', id: 'book', text: v.words.book, primary: true, purpose: 'book the stay', onClick: (st) => (st.guest.name.trim() ? { ...st, confirm: true } : st) },
        ],
      },
    ],
    overlay: s.confirm
      ? {
          kind: 'dialog',
          id: 'confirm',
          title: 'Book this stay?',
          body: [{ kind: 'text', text: `${nights} ${nights === 1 ? 'night' : 'nights'} at ${h.name} for $${total}, ${s.guest.pay.toLowerCase()}.`, wrap: true }],
          actions: [
            { kind: 'button', id: 'confirm.cancel', text: 'Cancel', onClick: set({ confirm: false }) },
            { kind: 'button', id: 'confirm.ok', text: v.words.ok, primary: true, purpose: 'confirm the booking', onClick: confirm },
          ],
          onDismiss: set({ confirm: false }),
        }
      : undefined,
  };
}

function doneView(s: HotelsState, v: HotelsVariant): View<HotelsState> {
  const b = s.bookings[s.bookings.length - 1];
  const h = s.hotels.find((x) => x.id === b?.hotelId);
  return {
    screenId: 'done',
    title: 'Booked',
    nav: { title: 'Staybnb' },
    body: [
      { kind: 'row', children: [{ kind: 'image', id: 'done.icon', icon: 'check' }, { kind: 'text', text: 'You are all set!', heading: true }] },
      { kind: 'text', text: `${b?.ref ?? ''}: ${h?.name ?? ''}, ${b?.checkin ?? ''} to ${b?.checkout ?? ''}`, wrap: true },
      {
        kind: 'row',
        children: [
          { kind: 'button', id: 'done.home', text: 'Back to home', onClick: set({ page: 'home', query: null, roomId: null }) },
          { kind: 'link', id: 'done.trips', text: v.words.trips, onClick: set({ page: 'trips' }) },
        ],
      },
    ],
  };
}

function savedView(s: HotelsState, v: HotelsVariant): View<HotelsState> {
  const saved = s.hotels.filter((h) => h.saved);
  return {
    screenId: 'saved',
    title: v.words.saved,
    nav: { title: v.words.saved, onBack: set({ page: 'home' }) },
    body: saved.length
      ? saved.map((h) => ({ kind: 'list-item', id: `saved-${h.id}`, text: h.name, secondary: `${h.city}, from $${h.price}`, onClick: openHotel(h.id, 'saved'), trailing: [heart(h, `unsave-${h.id}`)] }))
      : [{ kind: 'text', text: 'Tap a heart to save a stay.', tone: 'muted' }],
  };
}

function tripsView(s: HotelsState, v: HotelsVariant): View<HotelsState> {
  return {
    screenId: 'trips',
    title: v.words.trips,
    nav: { title: v.words.trips, onBack: set({ page: 'home' }) },
    body: s.bookings.length
      ? s.bookings.map((b) => {
          const h = s.hotels.find((x) => x.id === b.hotelId);
          return { kind: 'list-item', id: `stay-${b.ref}`, text: h?.name ?? b.ref, secondary: `${b.checkin} to ${b.checkout}, ${b.name}`, onClick: openHotel(b.hotelId, 'trips') };
        })
      : [{ kind: 'text', text: 'No bookings yet.', tone: 'muted' }],
  };
}

function makeHotel(rng: Random, id: number, city: string, name: string): Hotel {
  const stars = rng.int(2, 5);
  const basePrice = 40 + stars * 25 + rng.int(0, 12) * 5;
  const rooms: Room[] = [];
  ROOM_CLASSES.forEach((cls, tab) => {
    const names = rng.shuffle(ROOM_NAMES[cls]).slice(0, rng.int(1, 2));
    for (const n of names) {
      rooms.push({ id: `${id}-${rooms.length + 1}`, tab, name: n, beds: rng.pick(BEDS), price: basePrice + tab * 60 + rooms.length * 5 + rng.int(0, 8) * 5, refundable: rng.chance(0.5) });
    }
  });
  return {
    id,
    name,
    city,
    area: rng.pick(AREAS),
    stars,
    rating: rng.int(68, 98),
    price: Math.min(...rooms.map((r) => r.price)),
    amenities: AMENITIES.filter(() => rng.chance(0.45)),
    rooms,
    saved: false,
  };
}

export const HOTELS_APP = defineApp<HotelsState, HotelsVariant>({
  id: 'hotels',
  name: 'Staybnb',
  icon: 'bed',
  domain: 'travel',
  platform: 'web',
  variants: [
    {
      theme: { mode: 'light', accent: 'pink', font: 'Roboto Slab', density: 'compact', corner: 8 },
      labels: 'above',
      filters: 'side',
      searchInNav: false,
      words: {
        hero: 'Where to next?',
        where: 'Where are you going?',
        checkin: 'Check-in',
        checkout: 'Check-out',
        search: 'Search',
        tabs: ['Standard', 'Deluxe', 'Suites'],
        reserve: 'Reserve',
        book: 'Confirm booking',
        ok: 'Book',
        saved: 'Saved stays',
        trips: 'My bookings',
        amenity: { Breakfast: 'Breakfast', Pool: 'Pool', Parking: 'Parking', Pets: 'Pets allowed' },
      },
    },
    {
      theme: { mode: 'dark', accent: 'green', font: 'Inter', density: 'compact', corner: 2 },
      labels: 'left',
      filters: 'top',
      searchInNav: true,
      words: {
        hero: 'Find your stay',
        where: 'Destination',
        checkin: 'Arrive',
        checkout: 'Leave',
        search: 'Find stays',
        tabs: ['Classic', 'Premium', 'Suite'],
        reserve: 'Choose',
        book: 'Request to book',
        ok: 'Confirm',
        saved: 'Wishlist',
        trips: 'Trips',
        amenity: { Breakfast: 'Breakfast', Pool: 'Pool', Parking: 'Free parking', Pets: 'Pet friendly' },
      },
    },
  ],
  init(rng) {
    const cities = rng.shuffle(TRAVEL_CITIES).slice(0, 5);
    const dates = travelDays(rng, 10);
    const names = new Set<string>();
    const hotels: Hotel[] = [];
    for (const city of cities) {
      for (let n = rng.int(3, 6); n > 0; n--) {
        let name = '';
        do {
          const kind = rng.pick(HOTEL_KINDS);
          name = `${rng.pick(HOTEL_FIRST)} ${rng.pick(HOTEL_SECOND)}${kind ? ` ${kind}` : ''}`;
        } while (names.has(name));
        names.add(name);
        hotels.push(makeHotel(rng, hotels.length + 1, city, name));
      }
    }
    for (const h of rng.shuffle(hotels).slice(0, rng.int(1, 3))) h.saved = true;
    const bookings: StayBooking[] = [];
    let nextRef = rng.int(100, 899);
    for (let i = rng.int(0, 2); i > 0; i--) {
      const h = rng.pick(hotels);
      const r = rng.pick(h.rooms);
      const start = rng.int(0, 7);
      bookings.push({
        ref: `ST${nextRef++}`,
        hotelId: h.id,
        roomId: r.id,
        checkin: dates[start],
        checkout: dates[start + 2],
        guests: rng.pick(GUESTS),
        name: `${rng.pick(TRAVELLER_FIRST)} ${rng.pick(TRAVELLER_LAST)}`,
        email: '',
        pay: rng.pick(PAYMENTS),
        total: r.price * 2,
      });
    }
    return {
      page: 'home',
      cities,
      dates,
      hotels,
      form: { dest: '', checkin: dates[0], checkout: dates[2], guests: rng.pick(GUESTS.slice(0, 2)) },
      query: null,
      amenities: [],
      level: 1,
      sort: 'Recommended',
      openId: null,
      backTo: 'results',
      tab: 0,
      roomId: null,
      guest: { name: '', email: '', pay: PAYMENTS[0], deals: rng.chance(0.3) },
      confirm: false,
      menu: false,
      bookings,
      nextRef,
    };
  },
  view(s, v) {
    const h = s.hotels.find((x) => x.id === s.openId);
    const r = h?.rooms.find((x) => x.id === s.roomId);
    if (s.page === 'results' && s.query) return resultsView(s, v);
    if (s.page === 'hotel' && h) return hotelView(s, h, v);
    if (s.page === 'book' && h && r) return bookView(s, h, r, v);
    if (s.page === 'done') return doneView(s, v);
    if (s.page === 'saved') return savedView(s, v);
    if (s.page === 'trips') return tripsView(s, v);
    return homeView(s, v);
  },
});
