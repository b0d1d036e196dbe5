/**
 * Pageturn, a web bookstore: search by title or author, genre filters with
 * checkboxes, a sort dropdown, wishlist hearts, a book page with Details and
 * Reviews tabs (format choice, writing a review), a wishlist page, a basket
 * with a promo code, and a checkout form.
 */
import type { Random } from '../../learn/random';
import { defineApp, type AppVariant, type Update, type View, type Widget } from '../app';
import { FIRST_NAMES, LAST_NAMES, MAIL_DOMAINS } from '../data/names';
import { SHOP_COUNTRIES } from '../data/shop-addresses';
import {
  BOOK_BLURBS,
  BOOK_FORMATS,
  BOOK_GENRES,
  PROMO_CODES,
  REVIEW_LINES,
  TITLE_ADJECTIVES,
  TITLE_NOUNS,
  TITLE_OF,
  type BookGenre,
} from '../data/shop-books';

export interface Review {
  name: string;
  stars: number; // 1..5
  text: string;
}

export interface Book {
  id: number;
  title: string;
  author: string;
  genre: BookGenre;
  price: number; // cents, paperback
  formats: string[];
  rating: number; // tenths of a star
  year: number;
  sales: number; // for "Bestselling"
  blurb: string;
  reviews: Review[];
  wished: boolean;
}

export interface BasketLine {
  bid: number;
  format: string;
}

export interface BooksForm {
  email: string;
  address: string;
  postcode: string;
  country: string;
  delivery: string;
  terms: boolean;
}

export interface BooksOrder {
  id: number;
  lines: BasketLine[];
  form: BooksForm;
  total: number; // cents
}

export const BOOK_SORTS = ['Bestselling', 'Price: low to high', 'Price: high to low', 'Top rated', 'Title A-Z'] as const;
export type BookSort = (typeof BOOK_SORTS)[number];
export const STAR_OPTIONS = ['5 stars', '4 stars', '3 stars', '2 stars', '1 star'] as const;
export const DELIVERY = ['Standard', 'Express', 'Store pickup'] as const;
export const ME = 'You';
const NO_RATING = 'Choose';

/** What a format adds to the paperback price, in cents. */
const FORMAT_DELTA: Readonly<Record<string, number>> = { Paperback: 0, Hardcover: 800, 'E-book': -300, Audiobook: 500 };

export interface BooksState {
  books: Book[];
  page: 'list' | 'book' | 'wishlist' | 'basket' | 'checkout' | 'done';
  query: string;
  genres: string[]; // ticked genre filters; none ticked shows every genre
  sort: BookSort;
  openId: number | null;
  tab: 'details' | 'reviews';
  format: string; // the open book's format dropdown
  draft: { stars: string; text: string };
  basket: BasketLine[];
  promoInput: string;
  promo: string; // applied code, '' when none
  form: BooksForm;
  orders: BooksOrder[];
  dialog: 'none' | 'added';
  notice: string;
}

export interface BooksVariant extends AppVariant {
  filters: 'side' | 'top';
  layout: 'rows' | 'cards' | 'list';
  words: {
    search: string;
    add: string;
    basket: string;
    wishlist: string;
    checkout: string;
    pay: string;
    details: string;
    view: string;
  };
}

export const money = (cents: number) => `$${(cents / 100).toFixed(2)}`;
export const bookOf = (s: BooksState, id: number | null) => s.books.find((b) => b.id === id);
export const priceOf = (b: Book, format: string) => b.price + (FORMAT_DELTA[format] ?? 0);
export const basketKey = (l: BasketLine) => `${l.bid}-${l.format}`;
export const starsOf = (option: string) => parseInt(option, 10);

export function basketTotal(s: BooksState): number {
  const sum = s.basket.reduce((t, l) => t + priceOf(bookOf(s, l.bid)!, l.format), 0);
  return Math.round((sum * (100 - (PROMO_CODES[s.promo] ?? 0))) / 100) + (s.form.delivery === 'Express' ? 600 : 0);
}

export function matchesQuery(b: Book, query: string): boolean {
  const q = query.trim().toLowerCase();
  return !q || b.title.toLowerCase().includes(q) || b.author.toLowerCase().includes(q);
}

export function visibleBooks(s: BooksState): Book[] {
  const list = s.books.filter((b) => matchesQuery(b, s.query) && (!s.genres.length || s.genres.includes(b.genre)));
  const by: Record<BookSort, (a: Book, b: Book) => number> = {
    Bestselling: (a, b) => b.sales - a.sales,
    'Price: low to high': (a, b) => a.price - b.price,
    'Price: high to low': (a, b) => b.price - a.price,
    'Top rated': (a, b) => b.rating - a.rating,
    'Title A-Z': (a, b) => a.title.localeCompare(b.title),
  };
  return list.sort((a, b) => by[s.sort](a, b) || a.id - b.id);
}

const set = (p: Partial<BooksState>): Update<BooksState> => (s) => ({ ...s, ...p });
const toList = set({ page: 'list', openId: null, notice: '', dialog: 'none' });
const toBasket = set({ page: 'basket', notice: '', dialog: 'none' });
const toWishlist = set({ page: 'wishlist', notice: '', dialog: 'none' });
const patchBook = (s: BooksState, id: number, p: Partial<Book>): BooksState => ({ ...s, books: s.books.map((b) => (b.id === id ? { ...b, ...p } : b)) });
const openBook = (b: Book): Update<BooksState> =>
  set({ page: 'book', openId: b.id, tab: 'details', format: b.formats[0], draft: { stars: NO_RATING, text: '' }, notice: '', dialog: 'none' });

function heart(b: Book, id: string): Widget<BooksState> {
  return {
    kind: 'icon-button',
    id,
    icon: 'heart',
    color: b.wished ? 'red' : undefined,
    selected: b.wished,
    purpose: b.wished ? `remove ${b.title} from the wishlist` : `add ${b.title} to the wishlist`,
    onClick: (st) => patchBook(st, b.id, { wished: !b.wished }),
  };
}

function genreBox(s: BooksState, g: string): Widget<BooksState> {
  const on = s.genres.includes(g);
  return { kind: 'checkbox', id: `genre-${g}`, text: g, checked: on, onToggle: (st) => ({ ...st, genres: on ? st.genres.filter((x) => x !== g) : [...st.genres, g] }) };
}

function bookWidgets(list: Book[], layout: BooksVariant['layout']): Widget<BooksState>[] {
  if (layout === 'list') {
    return list.map((b) => ({
      kind: 'list-item',
      id: `book-${b.id}`,
      text: b.title,
      secondary: b.author,
      onClick: openBook(b),
      trailing: [{ kind: 'text', text: money(b.price), tone: 'muted' }, heart(b, `wish-${b.id}`)],
    }));
  }
  if (layout === 'rows') {
    return list.map((b) => ({
      kind: 'row',
      children: [
        { kind: 'link', id: `book-${b.id}`, text: b.title, purpose: `open ${b.title}`, onClick: openBook(b) },
        { kind: 'text', text: b.author, tone: 'muted', grow: true },
        { kind: 'text', text: money(b.price) },
        heart(b, `wish-${b.id}`),
      ],
    }));
  }
  const rows: Widget<BooksState>[] = [];
  for (let i = 0; i < list.length; i += 2) {
    const cards: Widget<BooksState>[] = list.slice(i, i + 2).map((b) => ({
      kind: 'card',
      id: `card-${b.id}`,
      children: [
        { kind: 'link', id: `book-${b.id}`, text: b.title, purpose: `open ${b.title}`, onClick: openBook(b) },
        { kind: 'text', text: b.author, tone: 'muted' },
        { kind: 'row', children: [{ kind: 'text', text: money(b.price), tone: 'strong', grow: true }, heart(b, `wish-${b.id}`)] },
      ],
    }));
    if (cards.length < 2) cards.push({ kind: 'column', children: [] });
    rows.push({ kind: 'row', children: cards });
  }
  return rows;
}

function navActions(v: BooksVariant): Widget<BooksState>[] {
  return [
    { kind: 'icon-button', id: 'wishlist', icon: 'bookmark', purpose: `open your ${v.words.wishlist.toLowerCase()}`, onClick: toWishlist },
    { kind: 'icon-button', id: 'basket', icon: 'cart', purpose: `open the ${v.words.basket.toLowerCase()}`, onClick: toBasket },
  ];
}

function listView(s: BooksState, v: BooksVariant): View<BooksState> {
  const list = visibleBooks(s);
  const body: Widget<BooksState>[] = [];
  if (v.filters === 'top') {
    body.push({ kind: 'row', justify: 'between', children: BOOK_GENRES.slice(0, 3).map((g) => genreBox(s, g)) });
    body.push({ kind: 'row', justify: 'between', children: BOOK_GENRES.slice(3).map((g) => genreBox(s, g)) });
  }
  body.push({
    kind: 'row',
    children: [
      { kind: 'text', text: `${list.length} ${list.length === 1 ? 'book' : 'books'}`, tone: 'muted' },
      { kind: 'dropdown', id: 'sort', label: 'Sort by', options: [...BOOK_SORTS], value: s.sort, onSelect: (st, o) => ({ ...st, sort: o as BookSort }) },
    ],
  });
  if (!list.length) body.push({ kind: 'text', text: 'No books found. Try fewer filters.', tone: 'muted', wrap: true });
  body.push(...bookWidgets(list, v.layout));
  return {
    screenId: 'list',
    title: 'Pageturn',
    nav: {
      title: 'Pageturn',
      center: { kind: 'search-box', id: 'search', label: v.words.search, value: s.query, grow: true, onType: (st, q) => ({ ...st, query: q }) },
      actions: navActions(v),
    },
    side: v.filters === 'side' ? [{ kind: 'text', text: 'Genres', tone: 'strong' }, ...BOOK_GENRES.map((g) => genreBox(s, g))] : undefined,
    sideWidth: 52,
    body,
  };
}

function detailsTab(s: BooksState, b: Book, v: BooksVariant): Widget<BooksState>[] {
  const add: Update<BooksState> = (st) => {
    const line = { bid: b.id, format: st.format };
    const has = st.basket.some((l) => basketKey(l) === basketKey(line));
    return { ...st, basket: has ? st.basket : [...st.basket, line], dialog: 'added' };
  };
  return [
    {
      kind: 'row',
      children: [
        { kind: 'dropdown', id: 'format', label: 'Format', options: b.formats, value: s.format, onSelect: (st, o) => ({ ...st, format: o }) },
        { kind: 'text', text: money(priceOf(b, s.format)), tone: 'strong' },
        { kind: 'button', id: 'add', text: v.words.add, primary: true, purpose: `add ${b.title} to the ${v.words.basket.toLowerCase()}`, onClick: add },
      ],
    },
    { kind: 'text', text: b.blurb, wrap: true },
  ];
}

function reviewsTab(s: BooksState, b: Book): Widget<BooksState>[] {
  const post: Update<BooksState> = (st) => {
    if (st.draft.stars === NO_RATING) return { ...st, notice: 'Pick a rating first.' };
    if (!st.draft.text.trim()) return { ...st, notice: 'Write a few words first.' };
    const review: Review = { name: ME, stars: starsOf(st.draft.stars), text: st.draft.text.trim() };
    const cur = bookOf(st, b.id)!;
    return { ...patchBook(st, b.id, { reviews: [review, ...cur.reviews] }), draft: { stars: NO_RATING, text: '' }, notice: 'Thanks, your review is up.' };
  };
  const out: Widget<BooksState>[] = [
    {
      kind: 'row',
      children: [
        { kind: 'dropdown', id: 'stars', label: 'Your rating', options: [...STAR_OPTIONS], value: s.draft.stars, onSelect: (st, o) => ({ ...st, draft: { ...st.draft, stars: o } }) },
        { kind: 'button', id: 'post', text: 'Post review', primary: true, purpose: 'post your review', onClick: post },
      ],
    },
    { kind: 'text-field', id: 'review', label: 'Your review', value: s.draft.text, onType: (st, t) => ({ ...st, draft: { ...st.draft, text: t } }) },
  ];
  if (s.notice) out.push({ kind: 'text', text: s.notice, color: s.notice.startsWith('Thanks') ? 'green' : 'red' });
  b.reviews.forEach((r, i) => {
    out.push({
      kind: 'card',
      id: `review-${i}`,
      children: [
        { kind: 'row', children: [{ kind: 'text', text: r.name, tone: 'strong' }, { kind: 'text', text: `${r.stars} of 5`, tone: 'muted' }] },
        { kind: 'text', text: r.text, wrap: true },
      ],
    });
  });
  if (!b.reviews.length) out.push({ kind: 'text', text: 'No reviews yet. Be the first!', tone: 'muted' });
  return out;
}

function bookView(s: BooksState, b: Book, v: BooksVariant): View<BooksState> {
  const tabs = [v.words.details, `Reviews (${b.reviews.length})`];
  const rating = `Rated ${(b.rating / 10).toFixed(1)} of 5`;
  return {
    screenId: `book-${b.id}`,
    title: b.title,
    nav: { title: 'Pageturn', onBack: toList, actions: [heart(b, 'wish'), ...navActions(v).slice(1)] },
    body: [
      {
        kind: 'row',
        children: [
          { kind: 'image', id: 'cover', icon: 'image', size: 24 },
          {
            kind: 'column',
            gap: 1,
            children: [
              { kind: 'text', text: b.title, heading: true },
              { kind: 'text', text: `by ${b.author}` },
              { kind: 'text', text: `${b.genre}, ${b.year} · ${rating}`, tone: 'muted' },
            ],
          },
        ],
      },
      { kind: 'tabs', id: 'book-tabs', tabs, value: tabs[s.tab === 'details' ? 0 : 1], onSelect: (st, t) => ({ ...st, tab: t === tabs[0] ? 'details' : 'reviews', notice: '' }) },
      ...(s.tab === 'details' ? detailsTab(s, b, v) : reviewsTab(s, b)),
    ],
    overlay:
      s.dialog === 'added'
        ? {
            kind: 'dialog',
            id: 'added',
            title: `Added to ${v.words.basket.toLowerCase()}`,
            body: [{ kind: 'text', text: `${b.title} (${s.format}) is in your ${v.words.basket.toLowerCase()}.`, wrap: true }],
            actions: [
              { kind: 'button', id: 'added.keep', text: 'Keep browsing', onClick: set({ dialog: 'none' }) },
              { kind: 'button', id: 'added.view', text: v.words.view, primary: true, onClick: toBasket },
            ],
            onDismiss: set({ dialog: 'none' }),
          }
        : undefined,
  };
}

function wishlistView(s: BooksState, v: BooksVariant): View<BooksState> {
  const saved = s.books.filter((b) => b.wished);
  const move = (b: Book): Update<BooksState> => (st) => {
    const line = { bid: b.id, format: b.formats[0] };
    const basket = st.basket.some((l) => basketKey(l) === basketKey(line)) ? st.basket : [...st.basket, line];
    return { ...patchBook(st, b.id, { wished: false }), basket, notice: `${b.title} moved to your ${v.words.basket.toLowerCase()}.` };
  };
  const items: Widget<BooksState>[] = saved.map((b) => ({
    kind: 'list-item',
    id: `saved-${b.id}`,
    text: b.title,
    secondary: b.author,
    onClick: openBook(b),
    trailing: [
      { kind: 'icon-button', id: `move-${b.id}`, icon: 'cart', purpose: `move ${b.title} to the ${v.words.basket.toLowerCase()}`, onClick: move(b) },
      { kind: 'icon-button', id: `unsave-${b.id}`, icon: 'close', purpose: `remove ${b.title} from the ${v.words.wishlist.toLowerCase()}`, onClick: (st) => patchBook(st, b.id, { wished: false }) },
    ],
  }));
  const body: Widget<BooksState>[] = items.length ? items : [{ kind: 'text', text: 'Nothing saved yet. Tap a heart to keep a book here.', tone: 'muted', wrap: true }];
  if (s.notice) body.push({ kind: 'text', text: s.notice, color: 'green', wrap: true });
  return { screenId: 'wishlist', title: v.words.wishlist, nav: { title: v.words.wishlist, onBack: toList, actions: navActions(v).slice(1) }, body };
}

function basketView(s: BooksState, v: BooksVariant): View<BooksState> {
  const lines: Widget<BooksState>[] = s.basket.map((l) => {
    const b = bookOf(s, l.bid)!;
    const key = basketKey(l);
    return {
      kind: 'list-item',
      id: `item-${key}`,
      text: b.title,
      secondary: `${l.format} · ${money(priceOf(b, l.format))}`,
      onClick: openBook(b),
      trailing: [{ kind: 'icon-button', id: `drop-${key}`, icon: 'delete', purpose: `remove ${b.title} from the ${v.words.basket.toLowerCase()}`, onClick: (st) => ({ ...st, basket: st.basket.filter((x) => basketKey(x) !== key) }) }],
    };
  });
  const apply: Update<BooksState> = (st) => {
    const code = st.promoInput.trim().toUpperCase();
    return code in PROMO_CODES ? { ...st, promo: code, notice: `${code}: ${PROMO_CODES[code]}% off applied.` } : { ...st, notice: `"${st.promoInput}" is not a valid code.` };
  };
  const body: Widget<BooksState>[] = lines.length ? lines : [{ kind: 'text', text: `Your ${v.words.basket.toLowerCase()} is empty.`, tone: 'muted' }];
  body.push({
    kind: 'row',
    children: [
      { kind: 'text-field', id: 'promo', label: 'Promo code', value: s.promoInput, onType: (st, t) => ({ ...st, promoInput: t }) },
      { kind: 'button', id: 'apply-promo', text: 'Apply', purpose: 'apply the promo code', onClick: apply },
    ],
  });
  if (s.notice) body.push({ kind: 'text', text: s.notice, color: s.notice.includes('applied') ? 'green' : 'red' });
  return {
    screenId: 'basket',
    title: v.words.basket,
    nav: { title: v.words.basket, onBack: toList },
    body,
    footer: [
      {
        kind: 'row',
        justify: 'between',
        children: [
          { kind: 'text', text: `Total ${money(basketTotal({ ...s, form: { ...s.form, delivery: 'Standard' } }))}`, tone: 'strong' },
          { kind: 'button', id: 'checkout', text: v.words.checkout, primary: true, purpose: 'go to checkout', onClick: (st) => (st.basket.length ? { ...st, page: 'checkout', notice: '' } : st) },
        ],
      },
    ],
  };
}

function checkoutView(s: BooksState, v: BooksVariant): View<BooksState> {
  const form = (p: Partial<BooksForm>): Update<BooksState> => (st) => ({ ...st, form: { ...st.form, ...p } });
  const field = (key: 'email' | 'address' | 'postcode', label: string): Widget<BooksState> => ({
    kind: 'text-field',
    id: key,
    label,
    value: s.form[key],
    onType: (st, t) => form({ [key]: t })(st),
  });
  const pay: Update<BooksState> = (st) => {
    const f = st.form;
    if (!f.email.trim() || !f.address.trim() || !f.postcode.trim()) return { ...st, notice: 'Please fill in your address.' };
    if (!f.terms) return { ...st, notice: 'Please accept the terms.' };
    const order: BooksOrder = { id: 501 + st.orders.length, lines: st.basket, form: f, total: basketTotal(st) };
    return { ...st, orders: [...st.orders, order], basket: [], promo: '', promoInput: '', page: 'done', notice: '' };
  };
  const body: Widget<BooksState>[] = [
    field('email', 'Email'),
    field('address', 'Address'),
    { kind: 'row', children: [field('postcode', 'Postcode'), { kind: 'dropdown', id: 'country', label: 'Country', options: [...SHOP_COUNTRIES], value: s.form.country, onSelect: (st, o) => form({ country: o })(st) }] },
    { kind: 'checkbox', id: 'terms', text: 'I accept the terms of sale', checked: s.form.terms, onToggle: (st) => form({ terms: !st.form.terms })(st) },
    { kind: 'radio-group', id: 'delivery', label: 'Delivery', options: [...DELIVERY], value: s.form.delivery, onSelect: (st, o) => form({ delivery: o })(st) },
  ];
  if (s.notice) body.splice(0, 0, { kind: 'text', text: s.notice, color: 'red' });
  return {
    screenId: 'checkout',
    title: 'Checkout',
    nav: { title: 'Checkout', onBack: toBasket },
    body,
    footer: [
      {
        kind: 'row',
        justify: 'between',
        children: [
          { kind: 'text', text: `Total ${money(basketTotal(s))}`, tone: 'strong' },
          { kind: 'button', id: 'pay', text: v.words.pay, primary: true, purpose: 'pay for the order', onClick: pay },
        ],
      },
    ],
  };
}

function doneView(s: BooksState): View<BooksState> {
  const order = s.orders[s.orders.length - 1];
  return {
    screenId: 'done',
    title: 'Order confirmed',
    nav: { title: 'Pageturn', onBack: toList },
    body: [
      { kind: 'text', text: 'Order confirmed', heading: true },
      { kind: 'text', text: `Order ${order?.id ?? 0} (${money(order?.total ?? 0)}) goes out by ${(order?.form.delivery ?? 'Standard').toLowerCase()} delivery.`, wrap: true },
      { kind: 'row', children: [{ kind: 'button', id: 'continue', text: 'Back to books', primary: true, onClick: toList }] },
    ],
  };
}

function makeTitle(rng: Random): string {
  const n = rng.pick(TITLE_NOUNS);
  switch (rng.int(0, 2)) {
    case 0:
      return `The ${rng.pick(TITLE_ADJECTIVES)} ${n}`;
    case 1:
      return `${n} of ${rng.pick(TITLE_OF)}`;
    default:
      return `${rng.pick(TITLE_ADJECTIVES)} ${n}`;
  }
}

function makeBooks(rng: Random): Book[] {
  const firsts = rng.shuffle(FIRST_NAMES);
  const lasts = rng.shuffle(LAST_NAMES);
  const authors = Array.from({ length: rng.int(8, 10) }, (_, i) => `${firsts[i]} ${lasts[i]}`);
  const titles = new Set<string>();
  // Distinct ratings, so "the best rated book" always names exactly one.
  const ratings = rng.shuffle(Array.from({ length: 21 }, (_, i) => 30 + i));
  const books: Book[] = [];
  authors.forEach((author, a) => {
    const genre = rng.pick(BOOK_GENRES);
    const count = a < 5 ? 2 : 1;
    for (let k = 0; k < count; k++) {
      let title = makeTitle(rng);
      while (titles.has(title)) title = makeTitle(rng);
      titles.add(title);
      const reviewers = rng.shuffle(FIRST_NAMES).slice(0, rng.int(0, 3));
      const reviews = reviewers.map((name) => ({ name, stars: rng.int(2, 5), text: rng.pick(REVIEW_LINES) }));
      const formats = BOOK_FORMATS.filter((f, i) => i === 0 || rng.chance(0.6));
      books.push({
        id: 0,
        title,
        author,
        genre: k === 0 ? genre : rng.chance(0.5) ? genre : rng.pick(BOOK_GENRES),
        price: rng.int(6, 28) * 100 + rng.pick([0, 50, 99]),
        formats,
        rating: ratings[books.length],
        year: rng.int(1950, 2024),
        sales: rng.int(10, 5000),
        blurb: rng.pick(BOOK_BLURBS),
        reviews,
        wished: false,
      });
    }
  });
  return rng.shuffle(books).map((b, i) => ({ ...b, id: i + 1 }));
}

export const BOOKS_APP = defineApp<BooksState, BooksVariant>({
  id: 'books',
  name: 'Pageturn',
  icon: 'bookmark',
  domain: 'shopping',
  platform: 'web',
  variants: [
    {
      theme: { mode: 'light', accent: 'purple', font: 'Roboto Slab', density: 'compact', corner: 2 },
      labels: 'left',
      filters: 'side',
      layout: 'rows',
      words: { search: 'Title or author', add: 'Add to basket', basket: 'Basket', wishlist: 'Wishlist', checkout: 'Checkout', pay: 'Pay now', details: 'Details', view: 'View basket' },
    },
    {
      theme: { mode: 'dark', accent: 'yellow', font: 'Inter', density: 'comfortable', corner: 6 },
      labels: 'above',
      filters: 'top',
      layout: 'cards',
      words: { search: 'Search books', add: 'Buy now', basket: 'Cart', wishlist: 'Saved', checkout: 'Check out', pay: 'Complete purchase', details: 'About', view: 'Go to cart' },
    },
    {
      theme: { mode: 'light', accent: 'green', font: 'Noto Sans', density: 'compact', corner: 4 },
      labels: 'above',
      filters: 'top',
      layout: 'list',
      words: { search: 'Find a book', add: 'Add to basket', basket: 'Basket', wishlist: 'Favourites', checkout: 'Proceed', pay: 'Place order', details: 'Overview', view: 'Open basket' },
    },
  ],
  init(rng) {
    // Some books start in the basket and a few others on the wishlist, never both.
    const picked = rng.shuffle(makeBooks(rng));
    const inBasket = picked.slice(0, rng.int(1, 2));
    const wished = new Set(picked.slice(2, 2 + rng.int(1, 3)).map((b) => b.id));
    const books = picked.map((b) => ({ ...b, wished: wished.has(b.id) })).sort((a, b) => a.id - b.id);
    const basket = inBasket.map((b) => ({ bid: b.id, format: rng.pick(b.formats) }));
    const first = rng.pick(FIRST_NAMES);
    const last = rng.pick(LAST_NAMES);
    return {
      books,
      page: 'list',
      query: '',
      genres: [],
      sort: 'Bestselling',
      openId: null,
      tab: 'details',
      format: BOOK_FORMATS[0],
      draft: { stars: NO_RATING, text: '' },
      basket,
      promoInput: '',
      promo: '',
      form: { email: `${first}.${last}@${rng.pick(MAIL_DOMAINS)}`.toLowerCase(), address: '', postcode: '', country: rng.pick(SHOP_COUNTRIES), delivery: 'Standard', terms: false },
      orders: [],
      dialog: 'none',
      notice: '',
    };
  },
  view(s, v) {
    const open = s.page === 'book' ? bookOf(s, s.openId) : undefined;
    if (open) return bookView(s, open, v);
    if (s.page === 'wishlist') return wishlistView(s, v);
    if (s.page === 'basket') return basketView(s, v);
    if (s.page === 'checkout') return checkoutView(s, v);
    if (s.page === 'done') return doneView(s);
    return listView(s, v);
  },
});
