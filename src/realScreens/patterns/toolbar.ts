/**
 * An editor: a toolbar of icon buttons in two labelled groups and a text
 * button, over a document whose text names an icon's word and the button's
 * word (so reading "share" in the body is not the answer).
 */
import { ACTIONS, TOOL_ICONS } from '../vocab';
import { ICON_WORDS } from '../../world/icons';
import { button, draw, iconButton, labelText, type PatternFn } from './common';

export const toolbar: PatternFn = (m, rng) => {
  const icons = draw(rng, TOOL_ICONS, 5);
  const act = rng.pick(ACTIONS);
  const [groupA, groupB] = draw(rng, ['Edit', 'View', 'Insert', 'Format', 'Tools'], 2);
  const gA = labelText(m, groupA, 'small');
  const first = icons.slice(0, 3).map((i) => iconButton(m, i));
  const gB = labelText(m, groupB, 'small');
  const second = icons.slice(3).map((i) => iconButton(m, i));
  const bAct = button(m, act);
  const named = rng.int(0, icons.length - 1);
  const all = [...first, ...second];
  const html = [
    m.box('toolbar', gA.html + first.map((b) => b.html).join('') + '<span class="sep"></span>' + gB.html + second.map((b) => b.html).join('') + '<span class="grow"></span>' + bAct.html),
    m.heading(`Draft: ${act.label} checklist`, bAct.id),
    m.text(`Use the ${ICON_WORDS[icons[named]]} button above.`, all[named].id),
    m.text(`Then ${act.label.toLowerCase()} when it reads well.`, bAct.id),
    m.text('Notes are saved every minute.', undefined, 'small'),
  ].join('');
  const pickA = rng.int(0, 2);
  const pickB = 3 + rng.int(0, 1);
  return {
    html,
    plans: [
      { style: 'icon', targetId: all[pickA].id, ref: { style: 'icon', icon: icons[pickA], role: 'icon-button' } },
      { style: 'icon', targetId: all[pickB].id, ref: { style: 'icon', icon: icons[pickB] } },
      { style: 'icon', targetId: all[named].id, ref: { style: 'icon', icon: icons[named], role: 'button' } },
      { style: 'relation', targetId: first[0].id, ref: { style: 'relation', role: 'icon-button', relation: 'right of', anchor: groupA } },
      { style: 'relation', targetId: second[0].id, ref: { style: 'relation', role: 'icon-button', relation: 'next to', anchor: groupB } },
      { style: 'text', targetId: bAct.id, ref: { style: 'text', text: act.label, role: 'button' } },
      { style: 'function', targetId: bAct.id, ref: { style: 'function', purpose: act.purpose } },
    ],
  };
};
