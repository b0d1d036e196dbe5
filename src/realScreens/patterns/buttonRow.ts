/**
 * A settings panel: labelled rows each with its own button, a printed hint
 * and heading that repeat a button's words, and a row of actions at the
 * bottom right, one of them filled with a colour.
 */
import { ACTIONS, COLOURED_ACTIONS, TOPICS } from '../vocab';
import type { ColorName } from '../../world/types';
import { button, draw, hint, labelText, type PatternFn } from './common';

const FILLS: readonly ColorName[] = ['red', 'green', 'orange', 'pink'];

export const buttonRow: PatternFn = (m, rng) => {
  const [rowA, rowB, main, second] = draw(rng, ACTIONS, 4);
  const danger = rng.pick(COLOURED_ACTIONS);
  const fill = rng.pick(FILLS);
  const topic = rng.pick(TOPICS);
  const [thingA, thingB] = draw(rng, ['Backups', 'Alerts', 'Sharing', 'Exports', 'Domains', 'Devices'], 2);
  const lA = labelText(m, thingA, 'lbl w');
  const bA = button(m, rowA, { ghost: true });
  const lB = labelText(m, thingB, 'lbl w');
  const bB = button(m, rowB, { ghost: true });
  const bMain = button(m, main);
  const bSecond = button(m, second, { ghost: true });
  const bDanger = button(m, danger, { fill });
  const html = [
    m.heading(`${topic} ${main.label.toLowerCase()} options`, bMain.id),
    m.text(hint(rng, main.label, main.purpose), bMain.id),
    m.box('row', lA.html + bA.html),
    m.box('row', lB.html + bB.html),
    m.text(`${danger.label} cannot be undone.`, bDanger.id, 'small'),
    m.box('row end', bDanger.html + bSecond.html + bMain.html),
  ].join('');
  return {
    html,
    plans: [
      { style: 'text', targetId: bMain.id, ref: { style: 'text', text: main.label, role: 'button' } },
      { style: 'text', targetId: bSecond.id, ref: { style: 'text', text: second.label } },
      { style: 'relation', targetId: bA.id, ref: { style: 'relation', role: 'button', relation: 'right of', anchor: thingA } },
      { style: 'relation', targetId: bB.id, ref: { style: 'relation', role: 'button', relation: 'next to', anchor: thingB } },
      { style: 'color', targetId: bDanger.id, ref: { style: 'color', role: 'button', color: fill } },
      { style: 'function', targetId: bMain.id, ref: { style: 'function', purpose: main.purpose } },
    ],
  };
};
