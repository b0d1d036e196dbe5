/**
 * Turns a template's intents into executable oracle steps: finds each target
 * on the current screen (scrolling to it when it is off screen), records its
 * box before the step and the canonical text- or icon-style instruction.
 */
import { act, layoutOf, type WorldState } from '../env';
import { centerOf } from '../hit';
import type { Action, Instruction, OracleStep, Ref, RefStyle, Screen, UIElement } from '../types';
import { resolveRef } from '../verifier';
import { uniqueRefs } from '../writers';
import type { Intent } from './template';

/** Fields are named by their label; everything else by its visible text, else its icon. */
export function refOf(el: UIElement): Ref {
  const labelFirst = el.role === 'text-field' || el.role === 'search-box' || el.role === 'dropdown' || el.role === 'slider' || el.role === 'switch';
  const text = labelFirst ? (el.label ?? el.text) : (el.text ?? el.label);
  if (text) return { style: 'text', text, role: el.role };
  if (el.icon) return { style: 'icon', icon: el.icon, role: el.role };
  throw new Error(`element ${el.id} has neither text nor icon`);
}

/**
 * The oracle's reference: the plain one (label, text or icon) when it singles
 * the target out on this screen, else the first unique one in the order a
 * careful person would reach for ("the star icon next to 'Lunch'").
 */
const FALLBACK_STYLES: readonly RefStyle[] = ['text', 'icon', 'relation', 'position', 'color', 'function'];

export function canonicalRef(screen: Screen, el: UIElement): Ref {
  const plain = refOf(el);
  const r = resolveRef(screen, plain);
  if (r.kind === 'element' && r.id === el.id) return plain;
  for (const style of FALLBACK_STYLES) {
    const unique = uniqueRefs(screen, el, style);
    if (unique.length > 0) return unique[0];
  }
  return plain;
}

function step(action: Action, instruction: Omit<Instruction, 'phrasing'>, el?: UIElement, value?: string): OracleStep {
  return {
    action,
    type: action.type,
    targetId: el?.id,
    box: el ? { ...el.box } : undefined,
    value,
    instruction: { ...instruction, phrasing: 0 },
  };
}

/** Scrolls until one of `ids` is on screen; returns the state, the scroll steps and the element. */
function reach(state: WorldState, ids: string[], steps: OracleStep[]): { state: WorldState; el: UIElement; screen: Screen } {
  for (let guard = 0; guard < 20; guard++) {
    const lay = layoutOf(state);
    const el = lay.screen.elements.find((e) => ids.includes(e.id) && e.interactive);
    if (el) return { state, el, screen: lay.screen };
    const side = ids.map((id) => lay.offscreen[id]).find(Boolean);
    if (!side) throw new Error(`oracle: none of ${ids.join(', ')} on screen ${lay.screen.appId}/${lay.screen.screenId}`);
    const direction = side === 'below' ? 'down' : 'up';
    const next = act(state, { type: 'SCROLL', direction });
    if (next === state) throw new Error(`oracle: cannot scroll ${direction} to ${ids.join(', ')}`);
    steps.push(step({ type: 'SCROLL', direction }, { action: 'SCROLL', direction }, undefined, direction));
    state = next;
  }
  throw new Error(`oracle: gave up scrolling to ${ids.join(', ')}`);
}

/** Execute intents from `start`; returns the steps and the final state. */
export function runIntents(start: WorldState, intents: Intent[]): { steps: OracleStep[]; state: WorldState } {
  const steps: OracleStep[] = [];
  let state = start;
  for (const it of intents) {
    if (it.do === 'back') {
      steps.push(step({ type: 'BACK' }, { action: 'BACK' }));
      state = act(state, { type: 'BACK' });
      continue;
    }
    const ids = Array.isArray(it.id) ? it.id : [it.id];
    const found = reach(state, ids, steps);
    state = found.state;
    const el = found.el;
    const p = centerOf(el.box);
    const ref = canonicalRef(found.screen, el);
    let s: OracleStep;
    if (it.do === 'click') s = step({ type: 'CLICK', ...p }, { action: 'CLICK', ref }, el);
    else if (it.do === 'type') s = step({ type: 'TYPE', text: it.text, ...p }, { action: 'TYPE', ref, value: it.text }, el, it.text);
    else s = step({ type: 'SELECT', option: it.option, ...p }, { action: 'SELECT', ref, value: it.option }, el, it.option);
    steps.push(s);
    const next = act(state, s.action);
    if (next === state) throw new Error(`oracle: ${it.do} on ${el.id} changed nothing`);
    state = next;
  }
  return { steps, state };
}
