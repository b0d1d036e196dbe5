/** Places, products and other nouns for shopping, travel and similar apps. */
export const CITIES = [
  'Lisbon', 'Berlin', 'Oslo', 'Madrid', 'Rome', 'Paris', 'Vienna', 'Prague', 'Dublin', 'Athens',
  'Tokyo', 'Seoul', 'Lima', 'Quito', 'Cairo', 'Nairobi', 'Denver', 'Austin', 'Boston', 'Toronto',
  'Sydney', 'Perth', 'Porto', 'Milan', 'Zurich', 'Krakow', 'Riga', 'Tallinn', 'Malmo', 'Bergen',
] as const;

export const PRODUCTS = [
  'Desk lamp', 'Coffee mug', 'Running shoes', 'Backpack', 'Water bottle', 'Headphones', 'Notebook',
  'Phone case', 'Wall clock', 'Yoga mat', 'Tea kettle', 'Rain jacket', 'Sunglasses', 'Bike light',
  'Wool scarf', 'Plant pot', 'Cutting board', 'Desk chair', 'USB cable', 'Travel pillow',
  'Camera bag', 'Alarm clock', 'Picture frame', 'Bath towel', 'Table fan', 'Pen set',
] as const;

export const COLORS_WORDS = ['Black', 'White', 'Red', 'Blue', 'Green', 'Gray'] as const;

/** Language names as a language menu lists them. */
export const LANGUAGES = ['English', 'Deutsch', 'Español', 'Français', 'Italiano', 'Português'] as const;
