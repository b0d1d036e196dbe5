/**
 * Word lists for the bookstore: genres, title parts (combined into short
 * titles), formats, blurbs, review lines and promo codes.
 */

export const BOOK_GENRES = ['Fantasy', 'Mystery', 'Romance', 'History', 'Science', 'Poetry'] as const;
export type BookGenre = (typeof BOOK_GENRES)[number];

export const BOOK_FORMATS = ['Paperback', 'Hardcover', 'E-book', 'Audiobook'] as const;

export const TITLE_ADJECTIVES = [
  'Silent', 'Hidden', 'Last', 'Broken', 'Golden', 'Winter', 'Paper', 'Glass', 'Quiet', 'Lost',
  'Secret', 'Velvet', 'Hollow', 'Crimson', 'Distant', 'Wild', 'Little', 'Iron', 'Pale', 'Salt',
] as const;

export const TITLE_NOUNS = [
  'Garden', 'River', 'House', 'Map', 'Crown', 'Lantern', 'Orchard', 'Harbor', 'Tower', 'Letters',
  'Storm', 'Island', 'Shadow', 'Clock', 'Mirror', 'Bridge', 'Season', 'Queen', 'Atlas', 'Key',
] as const;

/** Second halves for "<Noun> of <X>" titles. */
export const TITLE_OF = ['Ash', 'Salt', 'Stone', 'Rain', 'Smoke', 'Dust', 'Embers', 'Tides', 'Stars', 'Glass', 'Thorns', 'Light'] as const;

export const BOOK_BLURBS = [
  'A story of friendship told over one long summer.',
  'Two strangers follow a trail of old letters.',
  'A gripping read that keeps you up at night.',
  'Short chapters, big ideas, and a twist at the end.',
  'A warm and funny portrait of a small town.',
  'Careful research brought to life with clear prose.',
  'An old map leads a young clerk far from home.',
  'Verses about cities, rivers and the people in them.',
] as const;

export const REVIEW_LINES = [
  'Could not put it down', 'Lovely writing', 'A bit slow at first', 'Great ending',
  'Perfect for a long trip', 'My book club loved it', 'Clever and funny', 'Too long for me',
  'Beautiful cover too', 'Read it twice', 'Worth every page', 'Better than the last one',
] as const;

/** Promo codes the basket accepts, with their discount in percent. */
export const PROMO_CODES: Readonly<Record<string, number>> = {
  READ10: 10,
  PAGES15: 15,
  BOOKWORM: 20,
  SPRING5: 5,
  CHAPTER12: 12,
  NOVEL25: 25,
};
