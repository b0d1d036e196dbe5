/**
 * The two shopping sites, Shopora (shop) and Pageturn (books): their task
 * spaces are large, their variants really differ, and their forms, carts and
 * filters behave like a store's, checked by acting on the laid-out screens.
 */
import { describe, expect, it } from 'vitest';
import { act, appById, createWorld, screenOf, type WorldState } from '../../src/world/env';
import { centerOf } from '../../src/world/hit';
import { TEMPLATES, makeTask, templateById } from '../../src/world/tasks';
import { visibleProducts, type ShopState } from '../../src/world/apps/shop';
import { visibleBooks, type BooksState } from '../../src/world/apps/books';
import type { Task } from '../../src/world/types';

function click(state: WorldState, id: string): WorldState {
  const el = screenOf(state).elements.find((e) => e.id === id && e.interactive);
  if (!el) throw new Error(`${id} not on ${screenOf(state).screenId}`);
  return act(state, { type: 'CLICK', ...centerOf(el.box) });
}

function type(state: WorldState, id: string, text: string): WorldState {
  const el = screenOf(state).elements.find((e) => e.id === id && e.interactive)!;
  return act(state, { type: 'TYPE', text, ...centerOf(el.box) });
}

const world = (templateId: string, seed: number, variant: number): WorldState => {
  const task: Task = { ...makeTask(templateById(templateId), seed), variant };
  return createWorld(task);
};
const shopOf = (w: WorldState) => w.apps.shop as ShopState;
const booksOf = (w: WorldState) => w.apps.books as BooksState;

describe('shopping sites', () => {
  it('are two web shopping apps with at least seven templates each', () => {
    for (const id of ['shop', 'books']) {
      const app = appById(id);
      expect(app.domain).toBe('shopping');
      expect(app.platform).toBe('web');
      expect(app.variants.length).toBeGreaterThanOrEqual(2);
      expect(TEMPLATES.filter((t) => t.appId === id).length).toBeGreaterThanOrEqual(7);
    }
    expect(appById('shop').name).not.toBe(appById('books').name);
  });

  it('draw many distinct tasks from seeded data', () => {
    for (const id of ['shop', 'books']) {
      const keys = new Set<string>();
      for (const t of TEMPLATES.filter((x) => x.appId === id)) {
        for (let seed = 1; seed <= 150; seed++) keys.add(JSON.stringify([t.id, makeTask(t, seed).params]));
      }
      expect(keys.size, id).toBeGreaterThan(1000);
    }
  });

  it('lay out differently in each variant', () => {
    for (const [templateId, variants] of [['shop.open', 3], ['books.search', 3]] as const) {
      const looks = new Set<string>();
      for (let v = 0; v < variants; v++) {
        const s = screenOf(world(templateId, 5, v));
        looks.add(JSON.stringify([s.theme, s.elements.map((e) => [e.role, e.box])]));
      }
      expect(looks.size).toBe(variants);
    }
  });

  it('shop: the minus button takes a cart line down and then out', () => {
    let w = click(world('shop.remove', 3, 0), 'cart');
    const line = shopOf(w).cart[0];
    const key = line.size ? `${line.pid}-${line.size}` : `${line.pid}`;
    for (let i = 0; i < line.qty; i++) w = click(w, `minus-${key}`);
    expect(shopOf(w).cart.some((l) => l.pid === line.pid && l.size === line.size)).toBe(false);
  });

  it('shop: an order needs an address and a confirmation', () => {
    let w = click(click(world('shop.checkout', 4, 0), 'cart'), 'checkout');
    w = click(w, 'place');
    expect(shopOf(w).overlay).toBe('none');
    expect(shopOf(w).notice).toMatch(/address/);
    w = type(type(type(w, 'street', '5 Mill Road'), 'city', 'Upton'), 'zip', '12345');
    w = click(w, 'place');
    expect(screenOf(w).elements.some((e) => e.role === 'dialog')).toBe(true);
    expect(shopOf(w).orders).toHaveLength(0);
    w = click(w, 'confirm.ok');
    expect(shopOf(w).orders).toHaveLength(1);
    expect(shopOf(w).cart).toHaveLength(0);
    expect(shopOf(w).page).toBe('done');
  });

  it('shop: the discount filter hides products below it once applied', () => {
    let w = click(world('shop.deals', 6, 1), 'filter');
    const before = visibleProducts(shopOf(w)).length;
    const el = screenOf(w).elements.find((e) => e.id === 'min-discount')!;
    w = act(w, { type: 'SELECT', option: '40%', ...centerOf(el.box) });
    expect(visibleProducts(shopOf(w)).length).toBe(before); // still pending
    w = click(w, 'filters.apply');
    const shown = visibleProducts(shopOf(w));
    expect(shown.every((p) => p.discount >= 40)).toBe(true);
    expect(shown.length).toBe(shopOf(w).products.filter((p) => p.discount >= 40).length);
  });

  it('books: paying needs the terms accepted', () => {
    let w = click(click(world('books.checkout', 8, 2), 'basket'), 'checkout');
    w = type(type(w, 'address', '9 Elm Way, Oakham'), 'postcode', 'OX1 2AB');
    w = click(w, 'pay');
    expect(booksOf(w).orders).toHaveLength(0);
    expect(booksOf(w).notice).toMatch(/terms/);
    w = click(w, 'terms');
    w = click(w, 'pay');
    expect(booksOf(w).orders).toHaveLength(1);
    expect(booksOf(w).orders[0].form.postcode).toBe('OX1 2AB');
  });

  it('books: an unknown promo code is refused, a known one applied', () => {
    let w = click(world('books.promo', 2, 0), 'basket');
    w = click(type(w, 'promo', 'FREEBOOKS'), 'apply-promo');
    expect(booksOf(w).promo).toBe('');
    w = click(type(w, 'promo', 'read10'), 'apply-promo');
    expect(booksOf(w).promo).toBe('READ10');
  });

  it('books: ticking genres narrows the list to those genres', () => {
    let w = world('books.filter', 12, 0);
    const [a, b] = [...new Set(booksOf(w).books.map((x) => x.genre))];
    w = click(click(w, `genre-${a}`), `genre-${b}`);
    const shown = visibleBooks(booksOf(w));
    expect(shown.length).toBe(booksOf(w).books.filter((x) => x.genre === a || x.genre === b).length);
    expect(shown.length).toBeLessThan(booksOf(w).books.length);
    const onScreen = screenOf(w).elements.filter((e) => /^book-\d+$/.test(e.id)).map((e) => Number(e.id.slice(5)));
    expect(onScreen.length).toBeGreaterThan(0);
    expect(onScreen.every((id) => shown.some((x) => x.id === id))).toBe(true);
    w = click(w, `genre-${a}`);
    expect(booksOf(w).genres).toEqual([b]);
  });
});
