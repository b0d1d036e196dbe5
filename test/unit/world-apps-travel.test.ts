/**
 * The two travel sites (Skyhop flights, Staybnb hotels): their state
 * machines behave as a person expects, their variants really differ, and
 * their templates give many distinct tasks over seeds.
 */
import { describe, expect, it } from 'vitest';
import { act, createWorld, screenOf, type WorldState } from '../../src/world/env';
import { centerOf } from '../../src/world/hit';
import { TEMPLATES, makeTask } from '../../src/world/tasks';
import { maxPrice, shownHotels, type HotelsState } from '../../src/world/apps/hotels';
import { shownFlights, type FlightsState } from '../../src/world/apps/flights';
import type { Task } from '../../src/world/types';

function world(appId: string, seed: number, variant = 0): WorldState {
  const t = TEMPLATES.find((x) => x.appId === appId)!;
  const task: Task = { ...makeTask(t, seed), variant };
  return createWorld(task);
}

function el(state: WorldState, id: string) {
  const e = screenOf(state).elements.find((x) => x.id === id && x.interactive);
  if (!e) throw new Error(`${id} not on screen ${screenOf(state).screenId}`);
  return e;
}
const click = (s: WorldState, id: string) => act(s, { type: 'CLICK', ...centerOf(el(s, id).box) });
const type = (s: WorldState, id: string, text: string) => act(s, { type: 'TYPE', text, ...centerOf(el(s, id).box) });
const select = (s: WorldState, id: string, option: string) => act(s, { type: 'SELECT', option, ...centerOf(el(s, id).box) });
const flights = (s: WorldState) => s.apps.flights as FlightsState;
const hotels = (s: WorldState) => s.apps.hotels as HotelsState;

describe('Skyhop (flights)', () => {
  it('does not search without a destination, then lists the route sorted and filtered', () => {
    let s = world('flights', 3);
    expect(flights(click(s, 'search'))).toBe(flights(s));
    const to = flights(s).popular[0];
    s = click(type(s, 'to', to.toLowerCase()), 'search');
    expect(screenOf(s).screenId).toBe('results');
    s = select(s, 'sort', 'Cheapest');
    const list = shownFlights(flights(s));
    expect(list.length).toBeGreaterThanOrEqual(3);
    expect(list.map((f) => f.price)).toEqual([...list.map((f) => f.price)].sort((a, b) => a - b));
    s = click(s, 'direct');
    expect(shownFlights(flights(s)).every((f) => f.stops === 0)).toBe(true);
  });

  it('needs both names before extras, and books only after the dialog is confirmed', () => {
    let s = world('flights', 5, 1);
    s = click(type(s, 'to', flights(s).popular[1]), 'search');
    const f = shownFlights(flights(s))[0];
    s = click(s, `flight-${f.id}`);
    expect(flights(click(s, 'continue'))).toBe(flights(s));
    s = click(type(type(s, 'first', 'Alma'), 'last', 'Dahl'), 'continue');
    s = click(click(s, 'bag'), 'book');
    expect(screenOf(s).elements.some((e) => e.role === 'dialog')).toBe(true);
    const before = flights(s).bookings.length;
    s = click(s, 'confirm.ok');
    const b = flights(s).bookings[before];
    expect(b).toMatchObject({ flightId: f.id, first: 'Alma', last: 'Dahl', cancelled: false });
    expect(b.total).toBe(f.price + 35);
  });

  it('keeps the return date after the outbound date', () => {
    let s = world('flights', 8);
    const dates = flights(s).dates;
    s = select(click(s, 'trip.1'), 'date', dates[4]);
    expect(dates.indexOf(flights(s).form.ret)).toBeGreaterThan(4);
  });
});

describe('Staybnb (hotels)', () => {
  it('filters by amenity and by the price slider', () => {
    let s = world('hotels', 4);
    const city = hotels(s).cities[0];
    s = click(type(s, 'dest', city), 'search');
    const all = shownHotels(hotels(s));
    s = click(s, 'f-pool');
    expect(shownHotels(hotels(s))).toEqual(all.filter((h) => h.amenities.includes('Pool')));
    s = select(s, 'price', '20%');
    expect(shownHotels(hotels(s)).every((h) => h.price <= maxPrice(0.2) && h.amenities.includes('Pool'))).toBe(true);
  });

  it('toggles a favourite from the results and lists it under saved', () => {
    let s = world('hotels', 6, 1);
    const h = hotels(s).hotels.find((x) => !x.saved)!;
    s = click(type(s, 'dest', h.city), 'search');
    while (!screenOf(s).elements.some((e) => e.id === `fav-${h.id}`)) s = act(s, { type: 'SCROLL', direction: 'down' });
    s = click(s, `fav-${h.id}`);
    expect(hotels(s).hotels.find((x) => x.id === h.id)!.saved).toBe(true);
    s = click(s, 'saved');
    expect(screenOf(s).elements.some((e) => e.id === `saved-${h.id}`)).toBe(true);
  });

  it('changes the room list with the tabs and will not reserve without a room', () => {
    let s = world('hotels', 9);
    const h = hotels(s).hotels.find((x) => x.saved)!;
    s = click(click(s, 'saved'), `saved-${h.id}`);
    expect(hotels(click(s, 'reserve'))).toBe(hotels(s));
    s = click(s, 'rooms.2');
    const ids = screenOf(s).elements.filter((e) => e.role === 'list-item' && e.id.startsWith('room-')).map((e) => e.id);
    expect(ids.sort()).toEqual(h.rooms.filter((r) => r.tab === 2).map((r) => `room-${r.id}`).sort());
  });
});

describe('travel variants and task counts', () => {
  for (const appId of ['flights', 'hotels']) {
    it(`${appId}: variants differ in look and layout`, () => {
      const a = screenOf(world(appId, 2, 0));
      const b = screenOf(world(appId, 2, 1));
      expect(a.theme).not.toEqual(b.theme);
      expect(a.elements.map((e) => [e.role, e.box])).not.toEqual(b.elements.map((e) => [e.role, e.box]));
    });

    it(`${appId}: at least 7 templates and over 1000 distinct tasks in 300 seeds`, () => {
      const templates = TEMPLATES.filter((t) => t.appId === appId);
      expect(templates.length).toBeGreaterThanOrEqual(7);
      const ids = new Set<string>();
      for (const t of templates) {
        for (let seed = 1; seed <= 300; seed++) {
          const p = makeTask(t, seed).params;
          ids.add(`${t.id}|${Object.keys(p).sort().map((k) => `${k}=${p[k]}`).join(';')}`);
        }
      }
      expect(ids.size).toBeGreaterThan(1000);
    });
  }
});
