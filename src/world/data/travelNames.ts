/** Airlines, hotel names, room kinds and traveller names for the travel sites. */
export const AIRLINES = [
  { name: 'Nordair', code: 'NR' }, { name: 'Bluejet', code: 'BJ' }, { name: 'Sunwing', code: 'SW' },
  { name: 'Aeromar', code: 'AM' }, { name: 'Skylark', code: 'SL' }, { name: 'Polar Air', code: 'PA' },
  { name: 'Vistaflug', code: 'VF' }, { name: 'Coral Air', code: 'CA' }, { name: 'Zephyr', code: 'ZE' },
  { name: 'Atlas Jet', code: 'AJ' }, { name: 'Kestrel', code: 'KE' }, { name: 'Meridian', code: 'MD' },
] as const;

export const HOTEL_FIRST = [
  'Grand', 'Hotel', 'Casa', 'The', 'Villa', 'Maison', 'Park', 'Royal', 'Little', 'Blue',
  'Golden', 'Old', 'Palazzo', 'Harbour', 'Garden', 'Silver',
] as const;

export const HOTEL_SECOND = [
  'Marina', 'Lantern', 'Orchid', 'Bellevue', 'Cedar', 'Mosaic', 'Aurora', 'Linden', 'Meridian', 'Atrium',
  'Juniper', 'Terrace', 'Riviera', 'Willow', 'Compass', 'Pearl', 'Albatross', 'Lighthouse', 'Magnolia', 'Beacon',
] as const;

export const HOTEL_KINDS = ['Inn', 'House', 'Suites', 'Lodge', 'Rooms', 'Hotel', 'Residence', ''] as const;

/** Amenities a hotel can have; the filter checkboxes use the same words. */
export const AMENITIES = ['Breakfast', 'Pool', 'Parking', 'Pets'] as const;
export type Amenity = (typeof AMENITIES)[number];

/** Room names per room class; the hotel page shows one class per tab. */
export const ROOM_NAMES = {
  standard: ['Single room', 'Double room', 'Twin room', 'Queen room', 'Budget double', 'Cosy double'],
  deluxe: ['Deluxe king', 'Deluxe twin', 'Garden view', 'Balcony room', 'Family room', 'Sea view room'],
  suite: ['Junior suite', 'Corner suite', 'Loft suite', 'Penthouse', 'Studio suite', 'Terrace suite'],
} as const;

export const BEDS = ['1 single bed', '1 double bed', '2 single beds', '1 queen bed', '1 king bed', '2 double beds'] as const;

/** Traveller names, kept apart from the mail lists so travel tasks name other people. */
export const TRAVELLER_FIRST = [
  'Alma', 'Bruno', 'Celia', 'Dmitri', 'Esme', 'Felix', 'Greta', 'Hector', 'Ida', 'Joel',
  'Karin', 'Leo', 'Mila', 'Nils', 'Olga', 'Pablo', 'Rita', 'Sven', 'Thea', 'Ugo',
  'Vera', 'Wilma', 'Xavi', 'Yusuf', 'Zara', 'Anton', 'Berit', 'Cyril', 'Delia', 'Emre',
] as const;

export const TRAVELLER_LAST = [
  'Almeida', 'Brandt', 'Castro', 'Dahl', 'Ekberg', 'Ferreira', 'Gomez', 'Holm', 'Iversen', 'Janssen',
  'Kovacs', 'Lindqvist', 'Moretti', 'Nakamura', 'Okafor', 'Petrov', 'Ramos', 'Sandoval', 'Torres', 'Varga',
  'Weber', 'Yilmaz', 'Ziegler', 'Bauer', 'Conti', 'Duarte', 'Fontaine', 'Haas', 'Lund', 'Marsh',
] as const;

export const TRAVEL_MAIL_DOMAINS = ['post.com', 'inbox.eu', 'webmail.org', 'travel.io', 'hey.net'] as const;
