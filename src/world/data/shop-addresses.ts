/** Street names and customer details for checkout forms in the shopping apps. */

export const SHOP_STREET_NAMES = [
  'Maple', 'Harbor', 'Mill', 'Church', 'Elm', 'Bridge', 'Park', 'Orchard', 'Station', 'Cedar',
  'King', 'Queen', 'River', 'Hill', 'Market', 'Garden', 'Lake', 'Willow', 'Chapel', 'Forest',
] as const;

export const SHOP_STREET_KINDS = ['Street', 'Road', 'Lane', 'Avenue', 'Way', 'Close'] as const;

/** Towns for delivery addresses (kept apart from the travel cities on purpose). */
export const SHOP_TOWNS = [
  'Ashford', 'Bramley', 'Carlow', 'Dunmore', 'Easton', 'Fairhaven', 'Glenwood', 'Hartley', 'Ilford', 'Kingsbury',
  'Langley', 'Millbrook', 'Newport', 'Oakham', 'Preston', 'Redhill', 'Stanton', 'Thornbury', 'Upton', 'Westbury',
] as const;

export const SHOP_COUNTRIES = ['United Kingdom', 'Ireland', 'Canada', 'Australia', 'New Zealand'] as const;
