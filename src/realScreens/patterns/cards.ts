/**
 * A shop row of product cards, each with its name, price and the same "Add"
 * button (told apart only by what is above it), under a header with a cart
 * icon and a text button; the promotion line repeats a product's name.
 */
import { ACTIONS, PRODUCTS, SITE_NAMES } from '../vocab';
import { escapeXml } from '../markup';
import type { IconName } from '../../world/types';
import { button, draw, iconButton, labelText, type PatternFn } from './common';

export const cards: PatternFn = (m, rng) => {
  const products = draw(rng, PRODUCTS, 3);
  const add = rng.pick(['Add', 'Buy', 'Add to cart']);
  const headIcon = rng.pick(['cart', 'heart', 'search'] as IconName[]);
  const headAct = rng.pick(ACTIONS.filter((a) => a.label.length <= 8));
  const site = rng.pick(SITE_NAMES);
  const cart = iconButton(m, headIcon, true);
  const bHead = button(m, headAct, { ghost: true });
  const cardsOut = products.map((p) => {
    const nameId = m.register({ role: 'link', text: p.name, interactive: true });
    const name = { id: nameId, html: `<span class="link" data-rs="${nameId}">${escapeXml(p.name)}</span>` };
    const price = labelText(m, p.price, 'p');
    const addId = m.register({ role: 'button', text: add, interactive: true });
    return { p, name, price, addId, html: m.box('card', name.html + price.html + `<span class="btn" data-rs="${addId}">${escapeXml(add)}</span>`) };
  });
  const a = rng.int(0, cardsOut.length - 1);
  const b = (a + rng.int(1, cardsOut.length - 1)) % cardsOut.length;
  const html = [
    m.box('row between', `<span class="h">${escapeXml(site)} shop</span>` + `<span class="row">` + bHead.html + cart.html + `</span>`),
    m.text(`${add} ${cardsOut[a].p.name.toLowerCase()} today, save 10%.`, cardsOut[a].addId, 'small'),
    m.box('cards', cardsOut.map((c) => c.html).join('')),
  ].join('');
  return {
    html,
    plans: [
      { style: 'relation', targetId: cardsOut[a].addId, ref: { style: 'relation', role: 'button', relation: 'below', anchor: cardsOut[a].p.price } },
      { style: 'relation', targetId: cardsOut[b].addId, ref: { style: 'relation', role: 'button', relation: 'below', anchor: cardsOut[b].p.price } },
      { style: 'icon', targetId: cart.id, ref: { style: 'icon', icon: headIcon, role: 'icon-button' } },
      { style: 'text', targetId: bHead.id, ref: { style: 'text', text: headAct.label, role: 'button' } },
      { style: 'text', targetId: cardsOut[b].name.id, ref: { style: 'text', text: cardsOut[b].p.name, role: 'link' } },
    ],
  };
};
