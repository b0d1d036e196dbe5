/**
 * Shopora, a general web store: a product grid or list with category tabs
 * (or side links), search, a sort menu and a filter dialog; product pages
 * with size and quantity dropdowns; a cart with quantity steppers; a
 * checkout form with an address and a payment choice, and a confirm dialog.
 */
import type { Random } from '../../learn/random';
import { defineApp, type AppVariant, type Update, type View, type Widget } from '../app';
import { FIRST_NAMES, LAST_NAMES } from '../data/names';
import {
  CLOTHING_SIZES,
  SHOE_SIZES,
  SHOP_BLURBS,
  SHOP_CATALOG,
  SHOP_CATEGORIES,
  SHOP_DISCOUNTS,
  SHOP_PAYMENTS,
  type ShopCategory,
} from '../data/shop-catalog';

export interface ShopProduct {
  id: number;
  name: string;
  category: ShopCategory;
  price: number; // cents, after the discount
  discount: number; // percent off
  sizes: string[]; // empty when the product has no sizes
  soldOut: boolean;
  freeShipping: boolean;
  rating: number; // tenths of a star, 30..50
  blurb: string;
}

export interface CartLine {
  pid: number;
  size: string; // '' for products without sizes
  qty: number;
}

export interface ShopFilters {
  minDiscount: number; // [0, 1]
  inStock: boolean;
  freeShipping: boolean;
}

export interface ShopForm {
  name: string;
  street: string;
  city: string;
  zip: string;
  payment: string;
  giftWrap: boolean;
}

export interface ShopOrder {
  id: number;
  lines: CartLine[];
  form: ShopForm;
  total: number; // cents
}

export const SHOP_SORTS = ['Featured', 'Price: low to high', 'Price: high to low', 'Top rated'] as const;
export type ShopSort = (typeof SHOP_SORTS)[number];
export const QUANTITIES = ['1', '2', '3', '4', '5'] as const;
export const ALL = 'All';
export const GIFT_WRAP_CENTS = 300;

export interface ShopState {
  products: ShopProduct[];
  page: 'browse' | 'product' | 'cart' | 'checkout' | 'done';
  category: string; // ALL or a ShopCategory
  query: string;
  sort: ShopSort;
  openId: number | null;
  pick: { size: string; qty: string }; // the open product's dropdowns
  cart: CartLine[];
  filters: ShopFilters;
  pending: ShopFilters; // what the open filter dialog shows
  overlay: 'none' | 'filters' | 'sort' | 'confirm';
  form: ShopForm;
  orders: ShopOrder[];
  notice: string;
}

export interface ShopVariant extends AppVariant {
  columns: 0 | 2 | 3; // product cards per row; 0 lays products out as a list
  categories: 'tabs' | 'side';
  words: {
    search: string;
    add: string;
    cart: string;
    checkout: string;
    place: string;
    confirm: string;
    filters: string;
    apply: string;
  };
}

export const money = (cents: number) => `$${(cents / 100).toFixed(2)}`;
export const lineKey = (l: Pick<CartLine, 'pid' | 'size'>) => (l.size ? `${l.pid}-${l.size}` : `${l.pid}`);
export const productOf = (s: ShopState, id: number | null) => s.products.find((p) => p.id === id);
export const cartTotal = (s: ShopState) =>
  s.cart.reduce((sum, l) => sum + (productOf(s, l.pid)?.price ?? 0) * l.qty, 0) + (s.form.giftWrap ? GIFT_WRAP_CENTS : 0);

const NO_FILTERS: ShopFilters = { minDiscount: 0, inStock: false, freeShipping: false };

export function passesFilters(p: ShopProduct, f: ShopFilters): boolean {
  return p.discount + 0.5 >= f.minDiscount * 100 && (!f.inStock || !p.soldOut) && (!f.freeShipping || p.freeShipping);
}

export function visibleProducts(s: ShopState): ShopProduct[] {
  const q = s.query.trim().toLowerCase();
  const list = s.products.filter(
    (p) => (s.category === ALL || p.category === s.category) && (!q || p.name.toLowerCase().includes(q)) && passesFilters(p, s.filters),
  );
  if (s.sort === 'Price: low to high') return list.sort((a, b) => a.price - b.price || a.id - b.id);
  if (s.sort === 'Price: high to low') return list.sort((a, b) => b.price - a.price || a.id - b.id);
  if (s.sort === 'Top rated') return list.sort((a, b) => b.rating - a.rating || a.id - b.id);
  return list.sort((a, b) => a.id - b.id);
}

const set = (p: Partial<ShopState>): Update<ShopState> => (s) => ({ ...s, ...p });
const toBrowse = set({ page: 'browse', openId: null, notice: '', overlay: 'none' });
const toCart = set({ page: 'cart', notice: '', overlay: 'none' });
const openProduct = (p: ShopProduct): Update<ShopState> =>
  set({ page: 'product', openId: p.id, pick: { size: p.sizes[0] ?? '', qty: '1' }, notice: '', overlay: 'none' });

function addToCart(s: ShopState, p: ShopProduct): ShopState {
  if (p.soldOut) return { ...s, notice: 'Sorry, this item is sold out.' };
  const qty = Number(s.pick.qty);
  const key = lineKey({ pid: p.id, size: s.pick.size });
  const has = s.cart.some((l) => lineKey(l) === key);
  const cart = has ? s.cart.map((l) => (lineKey(l) === key ? { ...l, qty: l.qty + qty } : l)) : [...s.cart, { pid: p.id, size: s.pick.size, qty }];
  return { ...s, cart, notice: `Added ${qty} × ${p.name} to your cart.` };
}

function changeQty(s: ShopState, key: string, delta: number): ShopState {
  const cart = s.cart.map((l) => (lineKey(l) === key ? { ...l, qty: l.qty + delta } : l)).filter((l) => l.qty > 0);
  return { ...s, cart };
}

/** Price and discount; the discount takes what width is left, so a narrow card cuts it rather than overflowing. */
function priceRow(p: ShopProduct): Widget<ShopState> {
  const kids: Widget<ShopState>[] = [{ kind: 'text', text: money(p.price), tone: 'strong' }];
  if (p.discount) kids.push({ kind: 'text', text: `-${p.discount}%`, tone: 'small', color: 'red', grow: true });
  return { kind: 'row', children: kids };
}

const soldOut: Widget<ShopState> = { kind: 'text', text: 'Sold out', tone: 'muted' };

function productCards(list: ShopProduct[], columns: number): Widget<ShopState>[] {
  const rows: Widget<ShopState>[] = [];
  for (let i = 0; i < list.length; i += columns) {
    const cards: Widget<ShopState>[] = list.slice(i, i + columns).map((p) => ({
      kind: 'card',
      id: `card-${p.id}`,
      children: [
        { kind: 'image', id: `photo-${p.id}`, icon: 'image', size: 14 },
        { kind: 'link', id: `prod-${p.id}`, text: p.name, purpose: `open ${p.name}`, onClick: openProduct(p) },
        priceRow(p),
        ...(p.soldOut ? [soldOut] : []),
      ],
    }));
    // Empty columns keep the last row's cards as wide as the others.
    while (cards.length < columns) cards.push({ kind: 'column', children: [] });
    rows.push({ kind: 'row', children: cards });
  }
  return rows;
}

function productRows(list: ShopProduct[]): Widget<ShopState>[] {
  return list.map((p) => ({
    kind: 'list-item',
    id: `prod-${p.id}`,
    text: p.name,
    secondary: [money(p.price), p.discount ? `-${p.discount}%` : '', p.soldOut ? 'sold out' : p.category].filter(Boolean).join(' · '),
    onClick: openProduct(p),
  }));
}

function cartButton(v: ShopVariant): Widget<ShopState> {
  return { kind: 'icon-button', id: 'cart', icon: 'cart', purpose: `open the ${v.words.cart.toLowerCase()}`, onClick: toCart };
}

function browseView(s: ShopState, v: ShopVariant): View<ShopState> {
  const cats = [ALL, ...SHOP_CATEGORIES];
  const list = visibleProducts(s);
  const body: Widget<ShopState>[] = [];
  if (v.categories === 'tabs') {
    body.push({ kind: 'tabs', id: 'cats', tabs: cats, value: s.category, onSelect: (st, tab) => ({ ...st, category: tab }) });
  }
  const filtered = s.filters.minDiscount > 0 || s.filters.inStock || s.filters.freeShipping;
  body.push({ kind: 'text', text: `${list.length} ${list.length === 1 ? 'item' : 'items'}${filtered ? ' (filtered)' : ''} · ${s.sort}`, tone: 'muted' });
  if (!list.length) body.push({ kind: 'text', text: 'Nothing matches. Try another search.', tone: 'muted', wrap: true });
  else body.push(...(v.columns ? productCards(list, v.columns) : productRows(list)));
  return {
    screenId: 'browse',
    title: s.category === ALL ? 'Shopora' : s.category,
    nav: {
      title: 'Shopora',
      center: { kind: 'search-box', id: 'search', label: v.words.search, value: s.query, grow: true, onType: (st, q) => ({ ...st, query: q }) },
      actions: [
        { kind: 'icon-button', id: 'filter', icon: 'filter', purpose: 'filter the products', selected: filtered, onClick: (st) => ({ ...st, overlay: 'filters', pending: st.filters }) },
        { kind: 'icon-button', id: 'sort', icon: 'sort', purpose: 'sort the products', onClick: set({ overlay: 'sort' }) },
        cartButton(v),
      ],
    },
    side:
      v.categories === 'side'
        ? cats.map((c) => ({ kind: 'link', id: `cat-${c}`, text: c, selected: c === s.category, purpose: `show ${c.toLowerCase()} products`, onClick: (st: ShopState) => ({ ...st, category: c }) }))
        : undefined,
    sideWidth: 36,
    body,
    overlay: s.overlay === 'filters' ? filterDialog(s, v) : s.overlay === 'sort' ? sortMenu(s) : undefined,
  };
}

function filterDialog(s: ShopState, v: ShopVariant): View<ShopState>['overlay'] {
  const pend = (p: Partial<ShopFilters>): Update<ShopState> => (st) => ({ ...st, pending: { ...st.pending, ...p } });
  return {
    kind: 'dialog',
    id: 'filters-dialog',
    title: v.words.filters,
    body: [
      { kind: 'slider', id: 'min-discount', label: 'Minimum discount', icon: 'tag', level: s.pending.minDiscount, onSet: (st, l) => pend({ minDiscount: l })(st) },
      { kind: 'checkbox', id: 'in-stock', text: 'In stock only', checked: s.pending.inStock, onToggle: pend({ inStock: !s.pending.inStock }) },
      { kind: 'switch', id: 'free-shipping', text: 'Free shipping only', checked: s.pending.freeShipping, onToggle: pend({ freeShipping: !s.pending.freeShipping }) },
    ],
    actions: [
      { kind: 'button', id: 'filters.clear', text: 'Clear', onClick: set({ overlay: 'none', filters: NO_FILTERS, pending: NO_FILTERS }) },
      { kind: 'button', id: 'filters.apply', text: v.words.apply, primary: true, onClick: (st) => ({ ...st, overlay: 'none', filters: st.pending }) },
    ],
    onDismiss: set({ overlay: 'none' }),
  };
}

function sortMenu(s: ShopState): View<ShopState>['overlay'] {
  return {
    kind: 'menu',
    id: 'sort-menu',
    anchor: 'sort',
    items: SHOP_SORTS.map((o, i) => ({ id: `sort.${i}`, text: o, icon: o === s.sort ? 'check' : undefined, onClick: set({ sort: o, overlay: 'none' }) })),
    onDismiss: set({ overlay: 'none' }),
  };
}

function productView(s: ShopState, p: ShopProduct, v: ShopVariant): View<ShopState> {
  const choices: Widget<ShopState>[] = [];
  if (p.sizes.length) {
    choices.push({ kind: 'dropdown', id: 'size', label: 'Size', options: p.sizes, value: s.pick.size, onSelect: (st, o) => ({ ...st, pick: { ...st.pick, size: o } }) });
  }
  choices.push({ kind: 'dropdown', id: 'qty', label: 'Quantity', options: [...QUANTITIES], value: s.pick.qty, onSelect: (st, o) => ({ ...st, pick: { ...st.pick, qty: o } }) });
  const body: Widget<ShopState>[] = [
    {
      kind: 'row',
      children: [
        { kind: 'image', id: 'photo', icon: 'image', size: 26 },
        { kind: 'column', gap: 1, children: [{ kind: 'text', text: p.name, heading: true }, priceRow(p), ...(p.soldOut ? [soldOut] : []), { kind: 'text', text: `Rated ${(p.rating / 10).toFixed(1)} of 5${p.freeShipping ? ' · free shipping' : ''}`, tone: 'muted' }] },
      ],
    },
    { kind: 'text', text: p.blurb, wrap: true },
    { kind: 'row', children: choices },
    { kind: 'row', children: [{ kind: 'button', id: 'add', text: p.soldOut ? 'Sold out' : v.words.add, primary: !p.soldOut, purpose: `add ${p.name} to the cart`, onClick: (st) => addToCart(st, p) }] },
  ];
  if (s.notice) body.push({ kind: 'text', text: s.notice, wrap: true, color: p.soldOut ? 'red' : 'green' });
  return { screenId: `product-${p.id}`, title: p.name, nav: { title: 'Shopora', onBack: toBrowse, actions: [cartButton(v)] }, body };
}

function cartView(s: ShopState, v: ShopVariant): View<ShopState> {
  const lines: Widget<ShopState>[] = s.cart.map((l) => {
    const p = productOf(s, l.pid)!;
    const key = lineKey(l);
    return {
      kind: 'list-item',
      id: `line-${key}`,
      text: p.name,
      secondary: `${l.size ? `Size ${l.size} · ` : ''}${money(p.price)}`,
      onClick: openProduct(p),
      trailing: [
        { kind: 'icon-button', id: `minus-${key}`, icon: 'minus', purpose: `remove one ${p.name}`, onClick: (st) => changeQty(st, key, -1) },
        { kind: 'text', text: String(l.qty), tone: 'strong' },
        { kind: 'icon-button', id: `plus-${key}`, icon: 'plus', purpose: `add one more ${p.name}`, onClick: (st) => changeQty(st, key, 1) },
        { kind: 'icon-button', id: `remove-${key}`, icon: 'delete', color: 'red', purpose: `remove ${p.name} from the cart`, onClick: (st) => changeQty(st, key, -l.qty) },
      ],
    };
  });
  const checkout: Update<ShopState> = (st) => (st.cart.length ? { ...st, page: 'checkout', notice: '' } : { ...st, notice: 'Add something first.' });
  return {
    screenId: 'cart',
    title: v.words.cart,
    nav: { title: `Your ${v.words.cart.toLowerCase()}`, onBack: toBrowse },
    body: lines.length ? lines : [{ kind: 'text', text: `Your ${v.words.cart.toLowerCase()} is empty.`, tone: 'muted' }],
    footer: [
      {
        kind: 'row',
        justify: 'between',
        children: [
          { kind: 'text', text: `Total ${money(cartTotal({ ...s, form: { ...s.form, giftWrap: false } }))}`, tone: 'strong' },
          { kind: 'button', id: 'checkout', text: v.words.checkout, primary: true, purpose: 'go to checkout', onClick: checkout },
        ],
      },
    ],
  };
}

function checkoutView(s: ShopState, v: ShopVariant): View<ShopState> {
  const field = (key: 'name' | 'street' | 'city' | 'zip', label: string): Widget<ShopState> => ({
    kind: 'text-field',
    id: key,
    label,
    value: s.form[key],
    onType: (st, t) => ({ ...st, form: { ...st.form, [key]: t } }),
  });
  const place: Update<ShopState> = (st) =>
    st.form.name.trim() && st.form.street.trim() && st.form.city.trim() && st.form.zip.trim()
      ? { ...st, overlay: 'confirm', notice: '' }
      : { ...st, notice: 'Please fill in the whole address.' };
  const body: Widget<ShopState>[] = [
    field('name', 'Full name'),
    field('street', 'Street'),
    { kind: 'row', children: [field('city', 'City'), field('zip', 'ZIP code')] },
    { kind: 'checkbox', id: 'gift', text: `Gift wrap (+${money(GIFT_WRAP_CENTS)})`, checked: s.form.giftWrap, onToggle: (st) => ({ ...st, form: { ...st.form, giftWrap: !st.form.giftWrap } }) },
    { kind: 'radio-group', id: 'payment', label: 'Payment', options: [...SHOP_PAYMENTS], value: s.form.payment, onSelect: (st, o) => ({ ...st, form: { ...st.form, payment: o } }) },
  ];
  if (s.notice) body.push({ kind: 'text', text: s.notice, color: 'red', wrap: true });
  const confirm: Update<ShopState> = (st) => {
    const order: ShopOrder = { id: 1001 + st.orders.length, lines: st.cart, form: st.form, total: cartTotal(st) };
    return { ...st, orders: [...st.orders, order], cart: [], overlay: 'none', page: 'done' };
  };
  return {
    screenId: 'checkout',
    title: 'Checkout',
    nav: { title: 'Checkout', onBack: toCart },
    body,
    footer: [
      {
        kind: 'row',
        justify: 'between',
        children: [
          { kind: 'text', text: `Total ${money(cartTotal(s))}`, tone: 'strong' },
          { kind: 'button', id: 'place', text: v.words.place, primary: true, purpose: 'place the order', onClick: place },
        ],
      },
    ],
    overlay:
      s.overlay === 'confirm'
        ? {
            kind: 'dialog',
            id: 'confirm',
            title: 'Confirm your order',
            body: [{ kind: 'text', text: `${money(cartTotal(s))} to ${s.form.street}, ${s.form.city}, paid by ${s.form.payment.toLowerCase()}.`, wrap: true }],
            actions: [
              { kind: 'button', id: 'confirm.cancel', text: 'Cancel', onClick: set({ overlay: 'none' }) },
              { kind: 'button', id: 'confirm.ok', text: v.words.confirm, primary: true, purpose: 'confirm the order', onClick: confirm },
            ],
            onDismiss: set({ overlay: 'none' }),
          }
        : undefined,
  };
}

function doneView(s: ShopState): View<ShopState> {
  const order = s.orders[s.orders.length - 1];
  return {
    screenId: 'done',
    title: 'Order placed',
    nav: { title: 'Shopora', onBack: toBrowse },
    body: [
      { kind: 'text', text: 'Thank you for your order!', heading: true, wrap: true },
      { kind: 'text', text: `Order #${order?.id ?? 0} will be sent to ${order?.form.city ?? ''}.`, wrap: true },
      { kind: 'row', children: [{ kind: 'button', id: 'continue', text: 'Continue shopping', primary: true, onClick: toBrowse }] },
    ],
  };
}

function makeProducts(rng: Random): ShopProduct[] {
  const products: ShopProduct[] = [];
  const used = new Set<string>();
  for (const category of SHOP_CATEGORIES) {
    const kind = SHOP_CATALOG[category];
    const count = rng.int(3, 4);
    for (let k = 0; k < count; k++) {
      let name = '';
      for (let guard = 0; guard < 20 && (!name || used.has(name)); guard++) name = `${rng.pick(kind.qualifiers)} ${rng.pick(kind.nouns)}`;
      used.add(name);
      const discount = rng.pick(SHOP_DISCOUNTS);
      const list = rng.int(kind.price[0], kind.price[1]) * 100 + rng.pick([0, 0, 50, 99]);
      const sizes = kind.sizes === 'clothing' ? [...CLOTHING_SIZES] : kind.sizes === 'shoe' ? SHOE_SIZES.slice(rng.int(0, 2), rng.int(5, 7)) : [];
      products.push({
        id: 0,
        name,
        category,
        price: Math.round((list * (100 - discount)) / 100),
        discount,
        sizes,
        soldOut: rng.chance(0.12),
        freeShipping: rng.chance(0.4),
        rating: rng.int(30, 50),
        blurb: rng.pick(SHOP_BLURBS),
      });
    }
  }
  // "Featured" order mixes the categories.
  return rng.shuffle(products).map((p, i) => ({ ...p, id: i + 1 }));
}

export const SHOP_APP = defineApp<ShopState, ShopVariant>({
  id: 'shop',
  name: 'Shopora',
  icon: 'cart',
  domain: 'shopping',
  platform: 'web',
  variants: [
    {
      theme: { mode: 'light', accent: 'orange', font: 'Inter', density: 'compact', corner: 3 },
      labels: 'left',
      columns: 3,
      categories: 'tabs',
      words: { search: 'Search products', add: 'Add to cart', cart: 'Cart', checkout: 'Checkout', place: 'Place order', confirm: 'Confirm', filters: 'Filters', apply: 'Apply' },
    },
    {
      theme: { mode: 'dark', accent: 'teal', font: 'Noto Sans', density: 'comfortable', corner: 6 },
      labels: 'above',
      columns: 0,
      categories: 'side',
      words: { search: 'Search', add: 'Buy', cart: 'Bag', checkout: 'Go to checkout', place: 'Pay now', confirm: 'Yes, order', filters: 'Refine results', apply: 'Show results' },
    },
    {
      theme: { mode: 'light', accent: 'pink', font: 'Roboto Slab', density: 'comfortable', corner: 8 },
      labels: 'left',
      columns: 2,
      categories: 'tabs',
      words: { search: 'Find items', add: 'Add to bag', cart: 'Bag', checkout: 'Checkout', place: 'Review order', confirm: 'Place order', filters: 'Filter', apply: 'Done' },
    },
  ],
  init(rng) {
    const products = makeProducts(rng);
    const inCart = rng.shuffle(products.filter((p) => !p.soldOut)).slice(0, rng.int(1, 3));
    const cart = inCart.map((p) => ({ pid: p.id, size: p.sizes.length ? rng.pick(p.sizes) : '', qty: rng.int(1, 2) }));
    const name = `${rng.pick(FIRST_NAMES)} ${rng.pick(LAST_NAMES)}`;
    return {
      products,
      page: 'browse',
      category: ALL,
      query: '',
      sort: 'Featured',
      openId: null,
      pick: { size: '', qty: '1' },
      cart,
      filters: NO_FILTERS,
      pending: NO_FILTERS,
      overlay: 'none',
      form: { name, street: '', city: '', zip: '', payment: SHOP_PAYMENTS[0], giftWrap: false },
      orders: [],
      notice: '',
    };
  },
  view(s, v) {
    const open = s.page === 'product' ? productOf(s, s.openId) : undefined;
    if (open) return productView(s, open, v);
    if (s.page === 'cart') return cartView(s, v);
    if (s.page === 'checkout') return checkoutView(s, v);
    if (s.page === 'done') return doneView(s);
    return browseView(s, v);
  },
});
