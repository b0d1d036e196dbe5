/**
 * A list with the same actions on every row (an "Open" button and a trash
 * icon per row), so only the row's name tells them apart: relation
 * instructions. A header row holds a unique link and an icon button; the
 * hint above repeats a row's name and the action's word.
 */
import { ROW_ACTIONS, ROW_NAMES, TOPICS } from '../vocab';
import { escapeXml } from '../markup';
import type { IconName } from '../../world/types';
import { draw, iconButton, labelText, type PatternFn } from './common';

export const list: PatternFn = (m, rng) => {
  const rows = draw(rng, ROW_NAMES, rng.int(3, 4));
  const action = rng.pick(ROW_ACTIONS);
  const headIcon = rng.pick(['upload', 'filter', 'sort', 'refresh'] as IconName[]);
  const viewAll = rng.pick(['View all', 'Show more', 'See archive']);
  const topic = rng.pick(TOPICS);
  const head = labelText(m, `${topic} files`);
  const headBtn = iconButton(m, headIcon, true);
  const allId = m.register({ role: 'link', text: viewAll, interactive: true });
  const items = rows.map((name) => {
    const label = labelText(m, name, 'lbl grow');
    const openId = m.register({ role: 'button', text: action, interactive: true });
    const del = iconButton(m, 'delete');
    const html = label.html + `<span class="btn ghost" data-rs="${openId}">${escapeXml(action)}</span>` + del.html;
    return { name, label, openId, del, html };
  });
  const a = rng.int(0, items.length - 1);
  const b = (a + rng.int(1, items.length - 1)) % items.length;
  const html = [
    m.box('row between', head.html + `<span class="row">` + `<span class="link" data-rs="${allId}">${escapeXml(viewAll)}</span>` + headBtn.html + `</span>`),
    m.text(`${action} ${items[a].name} to read it.`, items[a].openId, 'small'),
    m.box('list', items.map((it) => m.box('li', it.html)).join('')),
  ].join('');
  return {
    html,
    plans: [
      { style: 'relation', targetId: items[a].openId, ref: { style: 'relation', role: 'button', relation: 'right of', anchor: items[a].name } },
      { style: 'relation', targetId: items[b].openId, ref: { style: 'relation', role: 'button', relation: 'next to', anchor: items[b].name } },
      { style: 'relation', targetId: items[b].del.id, ref: { style: 'relation', role: 'icon-button', relation: 'right of', anchor: items[b].name } },
      { style: 'text', targetId: allId, ref: { style: 'text', text: viewAll, role: 'link' } },
      { style: 'icon', targetId: headBtn.id, ref: { style: 'icon', icon: headIcon, role: 'icon-button' } },
    ],
  };
};
