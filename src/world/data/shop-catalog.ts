/**
 * Word lists for the general store: categories, product nouns and the
 * materials or styles that qualify them, sizes and short product blurbs.
 * Names stay short (one qualifier, one noun) so they fit a product card.
 */

/** Category names as the store's tabs show them (short, so six fit one row). */
export const SHOP_CATEGORIES = ['Wear', 'Shoes', 'Home', 'Tech', 'Sport'] as const;
export type ShopCategory = (typeof SHOP_CATEGORIES)[number];

export type SizeKind = 'clothing' | 'shoe' | 'none';

export interface CatalogKind {
  nouns: readonly string[];
  qualifiers: readonly string[];
  sizes: SizeKind;
  price: readonly [number, number]; // whole dollars, inclusive
}

export const SHOP_CATALOG: Readonly<Record<ShopCategory, CatalogKind>> = {
  Wear: {
    nouns: ['shirt', 'hoodie', 'jacket', 'sweater', 'tee', 'scarf', 'beanie', 'dress', 'shorts', 'coat', 'vest', 'jeans'],
    qualifiers: ['Linen', 'Wool', 'Denim', 'Cotton', 'Fleece', 'Silk', 'Corduroy', 'Knit', 'Flannel', 'Merino'],
    sizes: 'clothing',
    price: [12, 90],
  },
  Shoes: {
    nouns: ['sneakers', 'boots', 'sandals', 'loafers', 'slippers', 'runners', 'clogs', 'trainers', 'flats'],
    qualifiers: ['Trail', 'Suede', 'Leather', 'Canvas', 'Retro', 'Court', 'Hiking', 'Street', 'Cork'],
    sizes: 'shoe',
    price: [25, 140],
  },
  Home: {
    nouns: ['lamp', 'mug', 'vase', 'rug', 'candle', 'pillow', 'blanket', 'clock', 'kettle', 'bowl', 'tray', 'mirror'],
    qualifiers: ['Oak', 'Ceramic', 'Brass', 'Glass', 'Woven', 'Marble', 'Bamboo', 'Stone', 'Copper', 'Linen'],
    sizes: 'none',
    price: [8, 120],
  },
  Tech: {
    nouns: ['earbuds', 'speaker', 'charger', 'keyboard', 'mouse', 'webcam', 'headset', 'hub', 'tracker', 'router', 'stylus'],
    qualifiers: ['Wireless', 'Mini', 'Smart', 'Pro', 'Compact', 'Solar', 'Slim', 'Travel', 'Gaming'],
    sizes: 'none',
    price: [15, 220],
  },
  Sport: {
    nouns: ['yoga mat', 'bottle', 'jump rope', 'racket', 'helmet', 'gloves', 'backpack', 'tent', 'dumbbell', 'ball'],
    qualifiers: ['Pro', 'Light', 'Grip', 'Summit', 'Aero', 'Core', 'Trek', 'Swift'],
    sizes: 'none',
    price: [9, 160],
  },
};

export const CLOTHING_SIZES = ['XS', 'S', 'M', 'L', 'XL'] as const;
export const SHOE_SIZES = ['38', '39', '40', '41', '42', '43', '44'] as const;

/** Discounts a product can carry, in percent. */
export const SHOP_DISCOUNTS = [0, 0, 0, 10, 15, 20, 25, 30, 40, 50] as const;

export const SHOP_BLURBS = [
  'Made to last and easy to care for.',
  'A customer favourite, restocked weekly.',
  'Simple design that goes with everything.',
  'Light, sturdy and ready for daily use.',
  'Designed in small batches by our studio.',
  'Comes in recycled packaging.',
  'Backed by a two year warranty.',
  'Our best seller this season.',
] as const;

export const SHOP_PAYMENTS = ['Credit card', 'PayPal', 'Cash on delivery'] as const;
