/** Task templates for Pageturn, the web bookstore. */
import type { Random } from '../../learn/random';
import { BOOK_SORTS, DELIVERY, ME, STAR_OPTIONS, basketKey, starsOf, type Book, type BooksState } from '../apps/books';
import { SHOP_COUNTRIES, SHOP_STREET_KINDS, SHOP_STREET_NAMES, SHOP_TOWNS } from '../data/shop-addresses';
import { BOOK_GENRES, PROMO_CODES, REVIEW_LINES, TITLE_NOUNS } from '../data/shop-books';
import { defineTemplate, type Intent, type Params } from './template';

const base = { appId: 'books', platform: 'web', domain: 'shopping' } as const;

const bookParams = (b: Book): Params => ({ book: String(b.id), title: b.title, author: b.author, genre: b.genre });
const byId = (s: BooksState, id: string) => s.books.find((b) => b.id === Number(id));
const openOn = (s: BooksState, id: string) => s.page === 'book' && s.openId === Number(id);
const inBasket = (s: BooksState, id: string, format?: string) => s.basket.some((l) => l.bid === Number(id) && (format === undefined || l.format === format));
/** Searching the full title always lists the book, whatever the layout. */
const findBook = (p: Params): Intent[] => [{ do: 'type', id: 'search', text: p.title }, { do: 'click', id: `book-${p.book}` }];

/** How a person asks for each sort order. */
const SORT_WORDS: Record<string, string> = {
  Bestselling: 'bestsellers first',
  'Price: low to high': 'cheapest first',
  'Price: high to low': 'most expensive first',
  'Top rated': 'best rated first',
  'Title A-Z': 'in alphabetical order',
};
const DELIVERY_WORDS: Record<string, string> = { Standard: 'standard delivery', Express: 'express delivery', 'Store pickup': 'store pickup' };

function postcode(rng: Random): string {
  const L = () => String.fromCharCode(65 + rng.int(0, 25));
  return `${L()}${L()}${rng.int(1, 29)} ${rng.int(1, 9)}${L()}${L()}`;
}

function pickGenres(rng: Random): string[] {
  const gs = rng.shuffle(BOOK_GENRES).slice(0, rng.int(1, 2));
  return BOOK_GENRES.filter((g) => gs.includes(g));
}

export const BOOKS_TEMPLATES = [
  defineTemplate<BooksState>({
    id: 'books.search',
    ...base,
    sample: (rng, s) => {
      const b = rng.pick(s.books);
      const byAuthor = rng.chance(0.5);
      const noun = TITLE_NOUNS.find((n) => b.title.split(' ').includes(n)) ?? b.title;
      return { ...bookParams(b), by: byAuthor ? 'author' : 'title', term: byAuthor ? b.author.split(' ')[1] : noun };
    },
    phrasings: [
      (p) => `Search for "${p.term}" and open ${p.title}`,
      (p) => (p.by === 'author' ? `Look up books by ${p.author} and open ${p.title}` : `Find the book with "${p.term}" in its title: ${p.title}`),
      (p) => `Use the search box (${p.term}) to get to the page of ${p.title} by ${p.author}`,
    ],
    goal: (p, s) => openOn(s, p.book) && s.query.trim().toLowerCase() === p.term.toLowerCase(),
    plan: (p) => [{ do: 'type', id: 'search', text: p.term }, { do: 'click', id: `book-${p.book}` }],
  }),
  defineTemplate<BooksState>({
    id: 'books.wish-add',
    ...base,
    sample: (rng, s) => {
      const free = s.books.filter((b) => !b.wished);
      return free.length ? bookParams(rng.pick(free)) : null;
    },
    phrasings: [
      (p) => `Add ${p.title} by ${p.author} to my wishlist`,
      (p) => `Save the ${p.genre.toLowerCase()} book ${p.title} for later`,
      (p) => `Put a heart on ${p.title}`,
    ],
    goal: (p, s) => byId(s, p.book)?.wished === true,
    plan: (p) => [{ do: 'click', id: `genre-${p.genre}` }, { do: 'click', id: `wish-${p.book}` }],
  }),
  defineTemplate<BooksState>({
    id: 'books.wish-remove',
    ...base,
    sample: (rng, s) => {
      const saved = s.books.filter((b) => b.wished);
      return saved.length ? bookParams(rng.pick(saved)) : null;
    },
    phrasings: [
      (p) => `Remove ${p.title} from my wishlist`,
      (p) => `I no longer want ${p.title} by ${p.author}; take it off the saved books`,
      (p) => `Un-save ${p.title}`,
    ],
    goal: (p, s) => byId(s, p.book)?.wished === false,
    plan: (p) => [{ do: 'click', id: 'wishlist' }, { do: 'click', id: `unsave-${p.book}` }],
  }),
  defineTemplate<BooksState>({
    id: 'books.wish-move',
    ...base,
    sample: (rng, s) => {
      const saved = s.books.filter((b) => b.wished && !inBasket(s, String(b.id)));
      return saved.length ? bookParams(rng.pick(saved)) : null;
    },
    phrasings: [
      (p) => `Move ${p.title} from my wishlist to the basket`,
      (p) => `I'm ready to buy ${p.title}: put it in the basket and off the wishlist`,
    ],
    goal: (p, s) => inBasket(s, p.book) && byId(s, p.book)?.wished === false,
    plan: (p) => [{ do: 'click', id: 'wishlist' }, { do: 'click', id: `move-${p.book}` }],
  }),
  defineTemplate<BooksState>({
    id: 'books.filter',
    ...base,
    sample: (rng, s) => ({ genres: pickGenres(rng).join(', '), sort: rng.pick(BOOK_SORTS.filter((o) => o !== s.sort)) }),
    phrasings: [
      (p) => `Show only ${p.genres.replace(', ', ' and ')} books, sorted by "${p.sort}"`,
      (p) => `Filter the catalogue to ${p.genres} and sort by ${p.sort.toLowerCase()}`,
      (p) => `I want to browse ${p.genres.replace(', ', ' or ')} titles, ${SORT_WORDS[p.sort]}`,
    ],
    goal: (p, s) => {
      const want = p.genres.split(', ');
      return s.sort === p.sort && s.genres.length === want.length && want.every((g) => s.genres.includes(g));
    },
    plan: (p) => [...p.genres.split(', ').map((g): Intent => ({ do: 'click', id: `genre-${g}` })), { do: 'select', id: 'sort', option: p.sort }],
  }),
  defineTemplate<BooksState>({
    id: 'books.top-rated',
    ...base,
    sample: (rng, s) => {
      // Ratings are distinct within a seed; a genre needs two books for "best" to mean something.
      const genres = rng.shuffle(BOOK_GENRES).filter((g) => s.books.filter((b) => b.genre === g).length >= 2);
      if (!genres.length) return null;
      const best = s.books.filter((b) => b.genre === genres[0]).sort((a, b) => b.rating - a.rating)[0];
      return bookParams(best);
    },
    phrasings: [
      (p) => `Open the best rated ${p.genre.toLowerCase()} book`,
      (p) => `Which ${p.genre} title has the top rating? Show me its page`,
      (p) => `Filter to ${p.genre}, sort by rating and open the first book`,
    ],
    goal: (p, s) => openOn(s, p.book),
    plan: (p) => [{ do: 'click', id: `genre-${p.genre}` }, { do: 'select', id: 'sort', option: 'Top rated' }, { do: 'click', id: `book-${p.book}` }],
  }),
  defineTemplate<BooksState>({
    id: 'books.review',
    ...base,
    sample: (rng, s) => ({ ...bookParams(rng.pick(s.books)), stars: rng.pick(STAR_OPTIONS), text: rng.pick(REVIEW_LINES) }),
    phrasings: [
      (p) => `Review ${p.title}: give it ${p.stars} and write "${p.text}"`,
      (p) => `Post a ${p.stars.replace(' stars', '-star').replace(' star', '-star')} review of ${p.title} saying ${p.text}`,
      (p) => `Rate ${p.title} by ${p.author} ${p.stars} with the comment "${p.text}"`,
    ],
    goal: (p, s) => byId(s, p.book)?.reviews.some((r) => r.name === ME && r.stars === starsOf(p.stars) && r.text === p.text) === true,
    plan: (p) => [
      ...findBook(p),
      { do: 'click', id: 'book-tabs.1' },
      { do: 'select', id: 'stars', option: p.stars },
      { do: 'type', id: 'review', text: p.text },
      { do: 'click', id: 'post' },
    ],
  }),
  defineTemplate<BooksState>({
    id: 'books.add-format',
    ...base,
    sample: (rng, s) => {
      const b = rng.pick(s.books.filter((x) => !inBasket(s, String(x.id))));
      return { ...bookParams(b), format: rng.pick(b.formats) };
    },
    phrasings: [
      (p) => `Add the ${p.format.toLowerCase()} of ${p.title} to my basket`,
      (p) => `Buy ${p.title} by ${p.author} as ${p.format === 'Audiobook' || p.format === 'E-book' ? 'an' : 'a'} ${p.format.toLowerCase()}`,
      (p) => `Put ${p.title} (${p.format}) in the basket`,
    ],
    goal: (p, s) => inBasket(s, p.book, p.format),
    plan: (p, s) => {
      const out = findBook(p);
      if (p.format !== byId(s, p.book)!.formats[0]) out.push({ do: 'select', id: 'format', option: p.format });
      out.push({ do: 'click', id: 'add' });
      return out;
    },
  }),
  defineTemplate<BooksState>({
    id: 'books.checkout',
    ...base,
    sample: (rng, s) =>
      s.basket.length
        ? {
            address: `${rng.int(1, 180)} ${rng.pick(SHOP_STREET_NAMES)} ${rng.pick(SHOP_STREET_KINDS)}, ${rng.pick(SHOP_TOWNS)}`,
            postcode: postcode(rng),
            country: rng.pick(SHOP_COUNTRIES),
            delivery: rng.pick(DELIVERY),
          }
        : null,
    phrasings: [
      (p) => `Buy the books in my basket with ${DELIVERY_WORDS[p.delivery]}; my address is ${p.address}, ${p.postcode}, ${p.country}`,
      (p) => `Check out: ship to ${p.address} (${p.postcode}, ${p.country}) using ${p.delivery}`,
      (p) => `Complete my order. Address ${p.address}, postcode ${p.postcode}, ${p.country}; delivery option ${p.delivery}`,
    ],
    goal: (p, s) =>
      s.orders.some((o) => o.form.address === p.address && o.form.postcode === p.postcode && o.form.country === p.country && o.form.delivery === p.delivery),
    plan: (p, s) => {
      const out: Intent[] = [
        { do: 'click', id: 'basket' },
        { do: 'click', id: 'checkout' },
        { do: 'type', id: 'address', text: p.address },
        { do: 'type', id: 'postcode', text: p.postcode },
      ];
      if (p.country !== s.form.country) out.push({ do: 'select', id: 'country', option: p.country });
      out.push({ do: 'click', id: 'terms' });
      if (p.delivery !== s.form.delivery) out.push({ do: 'click', id: `delivery.${DELIVERY.indexOf(p.delivery as (typeof DELIVERY)[number])}` });
      out.push({ do: 'click', id: 'pay' });
      return out;
    },
  }),
  defineTemplate<BooksState>({
    id: 'books.promo',
    ...base,
    sample: (rng, s) => {
      const line = rng.pick(s.basket);
      return { code: rng.pick(Object.keys(PROMO_CODES)), line: basketKey(line), title: byId(s, String(line.bid))!.title };
    },
    phrasings: [
      (p) => `Remove ${p.title} from the basket and apply the promo code ${p.code}`,
      (p) => `Take ${p.title} out of my basket, then use the discount code ${p.code}`,
    ],
    goal: (p, s) => s.promo === p.code && !s.basket.some((l) => basketKey(l) === p.line),
    plan: (p) => [
      { do: 'click', id: 'basket' },
      { do: 'click', id: `drop-${p.line}` },
      { do: 'type', id: 'promo', text: p.code },
      { do: 'click', id: 'apply-promo' },
    ],
  }),
];
