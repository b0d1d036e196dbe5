/**
 * A confirmation dialog over a veiled page. The page behind has its own
 * buttons (registered before the dialog, so the world's verifier counts
 * them as hidden, as a person would); the dialog's text repeats the words
 * of its own buttons.
 */
import { ACTIONS, COLOURED_ACTIONS, ROW_NAMES, TOPICS } from '../vocab';
import type { ColorName } from '../../world/types';
import { button, draw, iconButton, type PatternFn } from './common';

const FILLS: readonly ColorName[] = ['red', 'blue', 'green', 'teal'];

export const dialog: PatternFn = (m, rng) => {
  const [behindA, behindB, cancel] = draw(rng, ACTIONS, 3);
  const danger = rng.pick(COLOURED_ACTIONS);
  const fill = rng.pick(FILLS);
  const item = rng.pick(ROW_NAMES);
  // The page behind the veil first: paint order decides what the dialog hides.
  const back = [
    m.heading(`${rng.pick(TOPICS)} files`),
    m.text(`${item} was changed today.`),
    m.box('row', button(m, behindA).html + button(m, behindB, { ghost: true }).html),
  ].join('');
  const dlgId = m.register({ role: 'dialog', interactive: false });
  const close = iconButton(m, 'close');
  const bCancel = button(m, cancel, { ghost: true });
  const bDanger = button(m, danger, { fill });
  const dlg =
    m.box('row between', m.heading(`${danger.label} ${item}?`, bDanger.id) + close.html) +
    m.text(`${danger.label} removes it for good.`, bDanger.id) +
    m.text(`Or press ${cancel.label} to go back.`, bCancel.id, 'small') +
    m.box('row end', bCancel.html + bDanger.html);
  const html = back + `<div class="veil"></div>` + `<div class="dlg" data-rs="${dlgId}">${dlg}</div>`;
  return {
    html,
    plans: [
      { style: 'text', targetId: bDanger.id, ref: { style: 'text', text: danger.label, role: 'button' } },
      { style: 'text', targetId: bCancel.id, ref: { style: 'text', text: cancel.label } },
      { style: 'icon', targetId: close.id, ref: { style: 'icon', icon: 'close', role: 'icon-button' } },
      { style: 'color', targetId: bDanger.id, ref: { style: 'color', role: 'button', color: fill } },
      { style: 'relation', targetId: bDanger.id, ref: { style: 'relation', role: 'button', relation: 'right of', anchor: cancel.label } },
      { style: 'function', targetId: bCancel.id, ref: { style: 'function', purpose: cancel.purpose } },
    ],
  };
};
