/** Cities, neighbourhoods and travel calendars for the flight and hotel sites. */
import type { Random } from '../../learn/random';

/** Cities with an airport and hotels; short enough to fit a 7 px field. */
export const TRAVEL_CITIES = [
  'Oslo', 'Lisbon', 'Madrid', 'Rome', 'Paris', 'Vienna', 'Prague', 'Dublin', 'Athens', 'Tokyo',
  'Seoul', 'Lima', 'Cairo', 'Nairobi', 'Denver', 'Boston', 'Toronto', 'Sydney', 'Porto', 'Milan',
  'Zurich', 'Krakow', 'Riga', 'Tallinn', 'Bergen', 'Seville', 'Naples', 'Split', 'Nice', 'Lyon',
  'Geneva', 'Munich', 'Hamburg', 'Budapest', 'Sofia', 'Malaga', 'Bilbao', 'Valencia', 'Venice', 'Florence',
  'Helsinki', 'Stockholm', 'Bangkok', 'Hanoi', 'Osaka', 'Havana', 'Bogota', 'Quito', 'Marrakesh', 'Tunis',
] as const;

/** Words for hotel neighbourhoods ("Old Town", "Harbour"). */
export const AREAS = [
  'Old Town', 'Harbour', 'City Centre', 'Riverside', 'Station', 'Hillside', 'Market Square', 'Beachfront',
  'University', 'Cathedral', 'Park', 'Docklands', 'Arts Quarter', 'Castle Hill', 'Lakeside', 'Airport',
] as const;

const MONTHS: readonly (readonly [string, number])[] = [
  ['Jan', 31], ['Feb', 28], ['Mar', 31], ['Apr', 30], ['May', 31], ['Jun', 30],
  ['Jul', 31], ['Aug', 31], ['Sep', 30], ['Oct', 31], ['Nov', 30], ['Dec', 31],
];
const WEEKDAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'] as const;

/** Label of day `n` of a non-leap year that starts on a Wednesday, e.g. "Fri 14 Jun". */
export function dayLabel(n: number): string {
  let day = ((n % 365) + 365) % 365;
  let m = 0;
  while (day >= MONTHS[m][1]) day -= MONTHS[m++][1];
  return `${WEEKDAYS[(n + 2) % 7]} ${day + 1} ${MONTHS[m][0]}`;
}

/** `count` consecutive day labels from a random start: the days a site offers. */
export function travelDays(rng: Random, count: number): string[] {
  const start = rng.int(0, 364);
  return Array.from({ length: count }, (_, i) => dayLabel(start + i));
}
