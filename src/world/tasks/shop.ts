/** Task templates for Shopora, the general web store. */
import type { Random } from '../../learn/random';
import { ALL, QUANTITIES, SHOP_SORTS, lineKey, type CartLine, type ShopProduct, type ShopState } from '../apps/shop';
import { SHOP_STREET_KINDS, SHOP_STREET_NAMES, SHOP_TOWNS } from '../data/shop-addresses';
import { SHOP_CATALOG, SHOP_CATEGORIES, SHOP_PAYMENTS } from '../data/shop-catalog';
import { defineTemplate, pct, type Intent, type Params } from './template';

const base = { appId: 'shop', platform: 'web', domain: 'shopping' } as const;
const CATS = [ALL, ...SHOP_CATEGORIES];

/** The category tab or side link, whichever this variant shows. */
const showCategory = (c: string): Intent => ({ do: 'click', id: [`cat-${c}`, `cats.${CATS.indexOf(c)}`] });
const product = (p: ShopProduct): Params => ({ product: String(p.id), name: p.name, category: p.category });
const byId = (s: ShopState, id: string) => s.products.find((p) => p.id === Number(id));
const lineOf = (s: ShopState, key: string) => s.cart.find((l) => lineKey(l) === key);
const openOn = (s: ShopState, id: string) => s.page === 'product' && s.openId === Number(id);

/** The noun a shopper would search for: the name without its qualifier ("yoga mat" in "Grip yoga mat"). */
function nounOf(p: ShopProduct): string {
  const nouns = SHOP_CATALOG[p.category].nouns;
  return nouns.find((n) => p.name.toLowerCase().endsWith(` ${n}`)) ?? p.name.split(' ').slice(1).join(' ');
}

function pickLine(rng: Random, s: ShopState): { line: CartLine; p: ShopProduct } | null {
  if (!s.cart.length) return null;
  const line = rng.pick(s.cart);
  return { line, p: byId(s, String(line.pid))! };
}

const sized = (p: Params) => (p.size ? ` in size ${p.size}` : '');

function street(rng: Random): string {
  return `${rng.int(2, 240)} ${rng.pick(SHOP_STREET_NAMES)} ${rng.pick(SHOP_STREET_KINDS)}`;
}

export const SHOP_TEMPLATES = [
  defineTemplate<ShopState>({
    id: 'shop.open',
    ...base,
    sample: (rng, s) => product(rng.pick(s.products)),
    phrasings: [
      (p) => `Show me the ${p.name}`,
      (p) => `Open the product page of the ${p.name}`,
      (p) => `Find the ${p.name} in the ${p.category} section`,
      (p) => `I'd like to look at the ${p.name} on Shopora`,
    ],
    goal: (p, s) => openOn(s, p.product),
    plan: (p) => [showCategory(p.category), { do: 'click', id: `prod-${p.product}` }],
  }),
  defineTemplate<ShopState>({
    id: 'shop.search',
    ...base,
    sample: (rng, s) => {
      const pr = rng.pick(s.products);
      return { ...product(pr), term: nounOf(pr) };
    },
    phrasings: [
      (p) => `Search for "${p.term}" and open the ${p.name}`,
      (p) => `Use the search box to look up ${p.term}, then open the ${p.name}`,
      (p) => `Type ${p.term} into the store search and show me the ${p.name}`,
    ],
    goal: (p, s) => openOn(s, p.product) && s.query.trim().toLowerCase() === p.term.toLowerCase(),
    plan: (p) => [{ do: 'type', id: 'search', text: p.term }, { do: 'click', id: `prod-${p.product}` }],
  }),
  defineTemplate<ShopState>({
    id: 'shop.cheapest',
    ...base,
    sample: (rng, s) => {
      for (const category of rng.shuffle(SHOP_CATEGORIES)) {
        const list = s.products.filter((p) => p.category === category).sort((a, b) => a.price - b.price);
        if (list.length >= 2 && list[0].price !== list[1].price) return product(list[0]);
      }
      return null;
    },
    phrasings: [
      (p) => `Open the cheapest item in ${p.category}`,
      (p) => `What is the lowest priced product under ${p.category}? Open it`,
      (p) => `Sort ${p.category} by price and open the least expensive one`,
    ],
    goal: (p, s) => openOn(s, p.product),
    plan: (p) => [showCategory(p.category), { do: 'click', id: 'sort' }, { do: 'click', id: `sort.${SHOP_SORTS.indexOf('Price: low to high')}` }, { do: 'click', id: `prod-${p.product}` }],
  }),
  defineTemplate<ShopState>({
    id: 'shop.add',
    ...base,
    sample: (rng, s) => {
      const free = s.products.filter((p) => !p.soldOut && !s.cart.some((l) => l.pid === p.id));
      if (!free.length) return null;
      const pr = rng.pick(free);
      return { ...product(pr), size: pr.sizes.length ? rng.pick(pr.sizes) : '', qty: rng.pick(QUANTITIES.slice(0, 3)) };
    },
    phrasings: [
      (p) => `Add ${p.qty === '1' ? `the ${p.name}` : `${p.qty} × ${p.name}`}${sized(p)} to my cart`,
      (p) => `Put the ${p.name}${sized(p)} in the cart${p.qty === '1' ? '' : `, quantity ${p.qty}`}`,
      (p) => `Buy the ${p.name}${sized(p)}${p.qty === '1' ? '' : ` (${p.qty} of them)`}: add it to the cart`,
    ],
    goal: (p, s) => lineOf(s, lineKey({ pid: Number(p.product), size: p.size }))?.qty === Number(p.qty),
    plan: (p, s) => {
      const pr = byId(s, p.product)!;
      // A shopper who names the item searches for it, as on the bookstore, rather than guessing its category.
      const out: Intent[] = [{ do: 'type', id: 'search', text: p.name }, { do: 'click', id: `prod-${p.product}` }];
      if (p.size && p.size !== pr.sizes[0]) out.push({ do: 'select', id: 'size', option: p.size });
      if (p.qty !== '1') out.push({ do: 'select', id: 'qty', option: p.qty });
      out.push({ do: 'click', id: 'add' });
      return out;
    },
  }),
  defineTemplate<ShopState>({
    id: 'shop.remove',
    ...base,
    sample: (rng, s) => {
      const got = pickLine(rng, s);
      return got && { line: lineKey(got.line), name: got.p.name, size: got.line.size };
    },
    phrasings: [
      (p) => `Remove the ${p.name}${sized(p)} from my cart`,
      (p) => `Take the ${p.name} out of the shopping cart`,
      (p) => `I changed my mind about the ${p.name}; delete it from the cart`,
    ],
    goal: (p, s) => !lineOf(s, p.line),
    plan: (p) => [{ do: 'click', id: 'cart' }, { do: 'click', id: `remove-${p.line}` }],
  }),
  defineTemplate<ShopState>({
    id: 'shop.cart-qty',
    ...base,
    sample: (rng, s) => {
      const got = pickLine(rng, s);
      if (!got) return null;
      const qty = rng.pick(['1', '2', '3', '4'].filter((q) => Number(q) !== got.line.qty));
      return { line: lineKey(got.line), name: got.p.name, size: got.line.size, qty };
    },
    phrasings: [
      (p) => `Change the quantity of the ${p.name} in my cart to ${p.qty}`,
      (p) => `I want exactly ${p.qty} of the ${p.name}${sized(p)} in the cart`,
      (p) => `Make it ${p.qty} × ${p.name} in the cart`,
    ],
    goal: (p, s) => lineOf(s, p.line)?.qty === Number(p.qty),
    plan: (p, s) => {
      const now = lineOf(s, p.line)!.qty;
      const diff = Number(p.qty) - now;
      const id = `${diff > 0 ? 'plus' : 'minus'}-${p.line}`;
      return [{ do: 'click', id: 'cart' }, ...Array.from({ length: Math.abs(diff) }, (): Intent => ({ do: 'click', id }))];
    },
  }),
  defineTemplate<ShopState>({
    id: 'shop.sort',
    ...base,
    sample: (rng, s) => ({ sort: rng.pick(SHOP_SORTS.filter((o) => o !== s.sort)) }),
    phrasings: [
      (p) => `Sort the products by "${p.sort}"`,
      (p) => `Order the store listing as ${p.sort.toLowerCase()}`,
      (p) => `Change the product order to ${p.sort}`,
    ],
    goal: (p, s) => s.sort === p.sort,
    plan: (p) => [{ do: 'click', id: 'sort' }, { do: 'click', id: `sort.${SHOP_SORTS.indexOf(p.sort as (typeof SHOP_SORTS)[number])}` }],
  }),
  defineTemplate<ShopState>({
    id: 'shop.deals',
    ...base,
    sample: (rng) => ({
      category: rng.pick(CATS),
      discount: pct(rng.int(1, 5) / 10),
      only: rng.pick(['none', 'in stock', 'free shipping']),
    }),
    phrasings: [
      (p) => `Show ${p.category === ALL ? 'all' : p.category} deals with at least ${p.discount} off${p.only === 'none' ? '' : `, ${p.only} only`}`,
      (p) => `Filter ${p.category === ALL ? 'the whole store' : `the ${p.category} tab`} to a minimum discount of ${p.discount}${p.only === 'none' ? '' : ` and only ${p.only} items`}`,
      (p) => `I only want to see ${p.only === 'none' ? '' : `${p.only} `}${p.category === ALL ? 'products' : `${p.category} products`} that are ${p.discount} off or more`,
    ],
    goal: (p, s) =>
      s.category === p.category &&
      Math.abs(s.filters.minDiscount - parseInt(p.discount, 10) / 100) < 0.025 &&
      s.filters.inStock === (p.only === 'in stock') &&
      s.filters.freeShipping === (p.only === 'free shipping') &&
      s.overlay === 'none',
    plan: (p) => {
      const out: Intent[] = [];
      if (p.category !== ALL) out.push(showCategory(p.category));
      out.push({ do: 'click', id: 'filter' }, { do: 'select', id: 'min-discount', option: p.discount });
      if (p.only === 'in stock') out.push({ do: 'click', id: 'in-stock' });
      if (p.only === 'free shipping') out.push({ do: 'click', id: 'free-shipping' });
      out.push({ do: 'click', id: 'filters.apply' });
      return out;
    },
  }),
  defineTemplate<ShopState>({
    id: 'shop.checkout',
    ...base,
    sample: (rng, s) =>
      s.cart.length
        ? { street: street(rng), city: rng.pick(SHOP_TOWNS), zip: String(rng.int(10000, 99999)), payment: rng.pick(SHOP_PAYMENTS) }
        : null,
    phrasings: [
      (p) => `Check out my cart: ship to ${p.street}, ${p.city} ${p.zip} and pay by ${p.payment.toLowerCase()}`,
      (p) => `Place the order for everything in the cart, delivered to ${p.street}, ${p.zip} ${p.city}, paying with ${p.payment}`,
      (p) => `Order what's in my cart. Address: ${p.street}, ${p.city}, ZIP ${p.zip}. Payment: ${p.payment}`,
    ],
    goal: (p, s) =>
      s.orders.some((o) => o.form.street === p.street && o.form.city === p.city && o.form.zip === p.zip && o.form.payment === p.payment),
    plan: (p, s) => {
      const out: Intent[] = [
        { do: 'click', id: 'cart' },
        { do: 'click', id: 'checkout' },
        { do: 'type', id: 'street', text: p.street },
        { do: 'type', id: 'city', text: p.city },
        { do: 'type', id: 'zip', text: p.zip },
      ];
      if (p.payment !== s.form.payment) out.push({ do: 'click', id: `payment.${SHOP_PAYMENTS.indexOf(p.payment as (typeof SHOP_PAYMENTS)[number])}` });
      out.push({ do: 'click', id: 'place' }, { do: 'click', id: 'confirm.ok' });
      return out;
    },
  }),
  defineTemplate<ShopState>({
    id: 'shop.gift-order',
    ...base,
    sample: (rng, s) => (s.cart.length ? { street: street(rng), city: rng.pick(SHOP_TOWNS), zip: String(rng.int(10000, 99999)) } : null),
    phrasings: [
      (p) => `Send my cart as a gift to ${p.street}, ${p.city} ${p.zip}, gift wrapped`,
      (p) => `Order everything in the cart with gift wrap, delivered to ${p.street}, ${p.zip} ${p.city}`,
      (p) => `It's a present: check out with gift wrapping and ship to ${p.street}, ${p.city}, ZIP ${p.zip}`,
    ],
    goal: (p, s) => s.orders.some((o) => o.form.giftWrap && o.form.street === p.street && o.form.city === p.city && o.form.zip === p.zip),
    plan: (p) => [
      { do: 'click', id: 'cart' },
      { do: 'click', id: 'checkout' },
      { do: 'type', id: 'street', text: p.street },
      { do: 'type', id: 'city', text: p.city },
      { do: 'type', id: 'zip', text: p.zip },
      { do: 'click', id: 'gift' },
      { do: 'click', id: 'place' },
      { do: 'click', id: 'confirm.ok' },
    ],
  }),
];
