/** Task templates for Staybnb, the web hotel site. */
import type { Random } from '../../learn/random';
import { GUESTS, HOTEL_SORTS, PAYMENTS, cityHotels, norm, sortHotels, type Hotel, type HotelsState } from '../apps/hotels';
import { AMENITIES, TRAVEL_MAIL_DOMAINS, TRAVELLER_FIRST, TRAVELLER_LAST, type Amenity } from '../data/travelNames';
import { defineTemplate, type Intent, type Params } from './template';

const base = { appId: 'hotels', platform: 'web', domain: 'travel' } as const;

/** How a goal names an amenity ("with a pool"). */
const SAY: Record<Amenity, string> = { Breakfast: 'breakfast included', Pool: 'a pool', Parking: 'parking', Pets: 'pets allowed' };
const CAPS = [80, 110, 140, 170, 200, 230, 260, 290, 320] as const;

const searched = (p: Params, s: HotelsState) => s.page === 'results' && s.query !== null && norm(s.query.dest) === norm(p.city);
const search = (p: Params): Intent[] => [{ do: 'type', id: 'dest', text: p.city }, { do: 'click', id: 'search' }];
const hotelOf = (s: HotelsState, id: string): Hotel | undefined => s.hotels.find((h) => h.id === Number(id));
const person = (rng: Random) => `${rng.pick(TRAVELLER_FIRST)} ${rng.pick(TRAVELLER_LAST)}`;

function pickRoom(rng: Random, h: Hotel, tabs: number[]): Params {
  const r = rng.pick(h.rooms.filter((x) => tabs.includes(x.tab)));
  return { hotel: String(h.id), hotelName: h.name, city: h.city, room: r.id, roomName: r.name, tab: String(r.tab) };
}

const tabIntent = (p: Params): Intent[] => (p.tab === '0' ? [] : [{ do: 'click', id: `rooms.${p.tab}` }]);

const booked = (p: Params, s: HotelsState) => s.bookings.filter((b) => b.hotelId === Number(p.hotel) && b.roomId === p.room && b.name === p.name);

export const HOTELS_TEMPLATES = [
  defineTemplate<HotelsState>({
    id: 'hotels.search',
    ...base,
    sample: (rng, s) => ({ city: rng.pick(s.cities), guests: rng.pick(GUESTS) }),
    phrasings: [
      (p) => `Find a place to stay in ${p.city} for ${p.guests}`,
      (p) => `Search ${p.city} hotels, ${p.guests}`,
      (p) => `Look for stays in ${p.city} that sleep ${p.guests}`,
    ],
    goal: (p, s) => searched(p, s) && s.query?.guests === p.guests,
    plan: (p, s) => [
      { do: 'type', id: 'dest', text: p.city },
      ...(s.form.guests === p.guests ? [] : [{ do: 'select', id: 'guests', option: p.guests } as const]),
      { do: 'click', id: 'search' },
    ],
  }),
  defineTemplate<HotelsState>({
    id: 'hotels.dates',
    ...base,
    sample: (rng, s) => {
      const i = rng.int(0, s.dates.length - 2);
      const j = rng.int(i + 1, Math.min(s.dates.length - 1, i + 5));
      return { city: rng.pick(s.cities), checkin: s.dates[i], checkout: s.dates[j] };
    },
    phrasings: [
      (p) => `Search stays in ${p.city} from ${p.checkin} to ${p.checkout}`,
      (p) => `I'm in ${p.city} ${p.checkin} until ${p.checkout}. Find me a hotel`,
      (p) => `Check hotels in ${p.city}, arriving ${p.checkin} and leaving ${p.checkout}`,
    ],
    goal: (p, s) => searched(p, s) && s.query?.checkin === p.checkin && s.query.checkout === p.checkout,
    plan: (p, s) => {
      const out: Intent[] = [{ do: 'type', id: 'dest', text: p.city }];
      let checkout = s.form.checkout;
      if (p.checkin !== s.form.checkin) {
        out.push({ do: 'select', id: 'checkin', option: p.checkin });
        const i = s.dates.indexOf(p.checkin);
        if (s.dates.indexOf(checkout) <= i) checkout = s.dates[i + 1];
      }
      if (p.checkout !== checkout) out.push({ do: 'select', id: 'checkout', option: p.checkout });
      out.push({ do: 'click', id: 'search' });
      return out;
    },
  }),
  defineTemplate<HotelsState>({
    id: 'hotels.filter',
    ...base,
    sample: (rng, s) => {
      const wanted = rng.shuffle(AMENITIES).slice(0, rng.int(1, 2));
      const amenities = AMENITIES.filter((a) => wanted.includes(a));
      return { city: rng.pick(s.cities), amenities: amenities.join(','), max: rng.chance(0.5) ? String(rng.pick(CAPS)) : 'any' };
    },
    phrasings: [
      (p) => `Show ${p.city} stays with ${said(p)}${p.max === 'any' ? '' : ` under $${p.max} a night`}`,
      (p) => `Find hotels in ${p.city}; I need ${said(p)}${p.max === 'any' ? '' : ` and at most $${p.max} per night`}`,
      (p) => `Search ${p.city} and filter for ${said(p)}${p.max === 'any' ? '' : `, max $${p.max}`}`,
    ],
    goal: (p, s) =>
      searched(p, s) &&
      p.amenities.split(',').every((a) => s.amenities.includes(a as Amenity)) &&
      (p.max === 'any' || Math.abs(s.level - (Number(p.max) - 50) / 300) < 0.025),
    plan: (p) => [
      ...search(p),
      ...p.amenities.split(',').map((a): Intent => ({ do: 'click', id: `f-${a.toLowerCase()}` })),
      ...(p.max === 'any' ? [] : [{ do: 'select', id: 'price', option: `${Math.round(((Number(p.max) - 50) / 300) * 100)}%` } as const]),
    ],
  }),
  defineTemplate<HotelsState>({
    id: 'hotels.sort',
    ...base,
    sample: (rng, s) => ({ city: rng.pick(s.cities), sort: rng.pick(HOTEL_SORTS.filter((o) => o !== s.sort)) }),
    phrasings: [
      (p) => `Show stays in ${p.city}, ${p.sort === 'Top rated' ? 'best rated' : 'cheapest'} first`,
      (p) => `Search ${p.city} and sort the hotels by ${p.sort.toLowerCase()}`,
      (p) => `List ${p.city} hotels ordered ${p.sort === 'Top rated' ? 'by guest rating' : 'from the lowest price'}`,
    ],
    goal: (p, s) => searched(p, s) && s.sort === p.sort,
    plan: (p) => [...search(p), { do: 'select', id: 'sort', option: p.sort }],
  }),
  defineTemplate<HotelsState>({
    id: 'hotels.save',
    ...base,
    sample: (rng, s) => {
      const open = s.hotels.filter((h) => !h.saved);
      if (!open.length) return null;
      const h = rng.pick(open);
      return { city: h.city, hotel: String(h.id), hotelName: h.name };
    },
    phrasings: [
      (p) => `Save ${p.hotelName} in ${p.city} to my favourites`,
      (p) => `Heart the ${p.hotelName} in ${p.city} so I can find it later`,
      (p) => `Add ${p.hotelName} (${p.city}) to the saved stays`,
    ],
    goal: (p, s) => hotelOf(s, p.hotel)?.saved === true,
    plan: (p) => [...search(p), { do: 'click', id: `fav-${p.hotel}` }],
  }),
  defineTemplate<HotelsState>({
    id: 'hotels.unsave',
    ...base,
    sample: (rng, s) => {
      const saved = s.hotels.filter((h) => h.saved);
      if (!saved.length) return null;
      const h = rng.pick(saved);
      return { hotel: String(h.id), hotelName: h.name, city: h.city };
    },
    phrasings: [
      (p) => `Remove ${p.hotelName} from my saved stays`,
      (p) => `I'm no longer interested in ${p.hotelName} in ${p.city}. Unsave it`,
      (p) => `Take ${p.hotelName} off the wishlist`,
    ],
    goal: (p, s) => hotelOf(s, p.hotel)?.saved === false,
    plan: (p) => [{ do: 'click', id: 'saved' }, { do: 'click', id: `unsave-${p.hotel}` }],
  }),
  defineTemplate<HotelsState>({
    id: 'hotels.room',
    ...base,
    sample: (rng, s) => pickRoom(rng, rng.pick(s.hotels), [0, 1, 2]),
    phrasings: [
      (p) => `Open ${p.hotelName} in ${p.city} and choose the ${p.roomName}`,
      (p) => `Pick the ${p.roomName} at ${p.hotelName}, ${p.city}`,
      (p) => `At the ${p.hotelName} in ${p.city}, select a ${p.roomName.toLowerCase()}`,
    ],
    goal: (p, s) => s.openId === Number(p.hotel) && s.roomId === p.room,
    plan: (p) => [...search(p), { do: 'click', id: `hotel-${p.hotel}` }, ...tabIntent(p), { do: 'click', id: `room-${p.room}` }],
  }),
  defineTemplate<HotelsState>({
    id: 'hotels.book-saved',
    ...base,
    sample: (rng, s) => {
      const saved = s.hotels.filter((h) => h.saved);
      if (!saved.length) return null;
      return { ...pickRoom(rng, rng.pick(saved), [0, 1, 2]), name: person(rng), pay: rng.pick(PAYMENTS) };
    },
    phrasings: [
      (p) => `Book the ${p.roomName} at my saved ${p.hotelName} for ${p.name}, ${p.pay.toLowerCase()}`,
      (p) => `From my saved stays, reserve a ${p.roomName.toLowerCase()} at ${p.hotelName} under ${p.name} (${p.pay.toLowerCase()})`,
      (p) => `${p.name} wants the ${p.roomName} at ${p.hotelName}, which I saved. Book it and choose "${p.pay}"`,
    ],
    goal: (p, s) => booked(p, s).some((b) => b.pay === p.pay),
    plan: (p) => [
      { do: 'click', id: 'saved' },
      { do: 'click', id: `saved-${p.hotel}` },
      ...tabIntent(p),
      { do: 'click', id: `room-${p.room}` },
      { do: 'click', id: 'reserve' },
      { do: 'type', id: 'name', text: p.name },
      ...(p.pay === PAYMENTS[0] ? [] : [{ do: 'click', id: 'pay.1' } as const]),
      { do: 'click', id: 'book' },
      { do: 'click', id: 'confirm.ok' },
    ],
  }),
  defineTemplate<HotelsState>({
    id: 'hotels.book',
    ...base,
    sample: (rng, s) => {
      const city = rng.pick(s.cities);
      const top = sortHotels(cityHotels(s, city), s.sort).slice(0, 2);
      const name = person(rng);
      const email = `${name.split(' ')[0].toLowerCase()}@${rng.pick(TRAVEL_MAIL_DOMAINS)}`;
      return { ...pickRoom(rng, rng.pick(top), [0]), name, email };
    },
    phrasings: [
      (p) => `Book a ${p.roomName.toLowerCase()} at ${p.hotelName} in ${p.city} for ${p.name}, email ${p.email}`,
      (p) => `Reserve the ${p.roomName} at ${p.hotelName}, ${p.city}. Guest: ${p.name} (${p.email})`,
      (p) => `Get ${p.name} a ${p.roomName.toLowerCase()} at the ${p.hotelName} in ${p.city}; send it to ${p.email}`,
    ],
    goal: (p, s) => booked(p, s).some((b) => b.email === p.email),
    plan: (p) => [
      ...search(p),
      { do: 'click', id: `hotel-${p.hotel}` },
      { do: 'click', id: `room-${p.room}` },
      { do: 'click', id: 'reserve' },
      { do: 'type', id: 'name', text: p.name },
      { do: 'type', id: 'email', text: p.email },
      { do: 'click', id: 'book' },
      { do: 'click', id: 'confirm.ok' },
    ],
  }),
];

function said(p: Params): string {
  return p.amenities
    .split(',')
    .map((a) => SAY[a as Amenity])
    .join(' and ');
}
