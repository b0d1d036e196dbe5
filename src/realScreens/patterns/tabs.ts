/**
 * A site header (name, links, a bell and an account icon) over a row of
 * tabs; the content below is titled with one tab's word and tells the
 * reader to open another, so the words appear outside their controls.
 */
import { NAV_LINKS, SITE_NAMES, TABS } from '../vocab';
import { escapeXml } from '../markup';
import { draw, iconButton, type PatternFn } from './common';
import type { IconName } from '../../world/types';

export const tabs: PatternFn = (m, rng) => {
  const site = rng.pick(SITE_NAMES);
  const links = draw(rng, NAV_LINKS, 3);
  const names = draw(rng, TABS, 4);
  const [iconA, iconB] = draw(rng, ['bell', 'account', 'settings', 'search', 'cart'] as IconName[], 2);
  const linkIds = links.map((l) => m.register({ role: 'link', text: l, interactive: true }));
  const icA = iconButton(m, iconA);
  const icB = iconButton(m, iconB);
  const selected = rng.int(0, names.length - 1);
  const tabIds = names.map((t, i) => m.register({ role: 'tab', text: t, interactive: true }));
  const target = (selected + rng.int(1, names.length - 1)) % names.length;
  const mentioned = (target + rng.int(1, names.length - 1)) % names.length;
  const nav =
    `<span class="h">${escapeXml(site)}</span>` +
    links.map((l, i) => `<span class="link" data-rs="${linkIds[i]}">${escapeXml(l)}</span>`).join('') +
    `<span class="grow"></span>` +
    icA.html +
    icB.html;
  const tabRow = names.map((t, i) => `<span class="tab${i === selected ? ' sel' : ''}" data-rs="${tabIds[i]}">${escapeXml(t)}</span>`).join('');
  const link = rng.int(0, links.length - 1);
  const html = [
    m.box('nav', nav),
    m.box('tabs', tabRow),
    m.heading(names[selected], tabIds[selected]),
    m.text(`Open ${names[mentioned]} to see more.`, tabIds[mentioned]),
    m.text(`${links[link]} is in the header.`, linkIds[link], 'small'),
  ].join('');
  return {
    html,
    plans: [
      { style: 'text', targetId: tabIds[target], ref: { style: 'text', text: names[target], role: 'tab' } },
      { style: 'text', targetId: tabIds[mentioned], ref: { style: 'text', text: names[mentioned] } },
      { style: 'text', targetId: linkIds[link], ref: { style: 'text', text: links[link], role: 'link' } },
      { style: 'icon', targetId: icA.id, ref: { style: 'icon', icon: iconA, role: 'icon-button' } },
      { style: 'icon', targetId: icB.id, ref: { style: 'icon', icon: iconB } },
      { style: 'relation', targetId: tabIds[1], ref: { style: 'relation', role: 'tab', relation: 'right of', anchor: names[0] } },
    ],
  };
};
