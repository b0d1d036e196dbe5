/**
 * What a pattern writes: its markup (into a Markup that registers the
 * elements) and the instructions it plans on them, as world references.
 * The page generator prints the plans in the world's grammar.
 */
import type { Random } from '../../learn/random';
import type { Ref, RefStyle } from '../../world/types';
import { escapeXml, iconSvg, type Markup } from '../markup';
import type { Action } from '../vocab';
import type { IconName, ColorName } from '../../world/types';

export interface Plan {
  style: RefStyle;
  targetId: string;
  ref: Ref;
  /** TYPE into a field (with `value`); CLICK otherwise. */
  type?: { value: string };
}

export interface PatternOut {
  html: string;
  plans: Plan[];
}

export type PatternFn = (m: Markup, rng: Random) => PatternOut;

/** `n` distinct items drawn from a list. */
export function draw<T>(rng: Random, items: readonly T[], n: number): T[] {
  return rng.shuffle(items).slice(0, n);
}

/** A text button; `fill` gives it a named colour (for colour-style instructions). */
export function button(m: Markup, a: Action, opts: { fill?: ColorName; ghost?: boolean } = {}): { id: string; html: string } {
  const cls = ['btn', opts.fill ? `c-${opts.fill}` : '', opts.ghost ? 'ghost' : ''].filter(Boolean).join(' ');
  const id = m.register({ role: 'button', text: a.label, purpose: a.purpose, interactive: true, ...(opts.fill ? { color: opts.fill } : {}) });
  return { id, html: `<span class="${cls}" data-rs="${id}">${escapeXml(a.label)}</span>` };
}

export function iconButton(m: Markup, icon: IconName, framed = false): { id: string; html: string } {
  const id = m.register({ role: 'icon-button', icon, interactive: true });
  return { id, html: `<span class="ibtn${framed ? ' framed' : ''}" data-rs="${id}">${iconSvg(icon)}</span>` };
}

/** A label printed before a field; the field carries the label too, as a world field does. */
export function labelText(m: Markup, text: string, cls = 'lbl'): { id: string; html: string } {
  const id = m.register({ role: 'text', text, interactive: false });
  return { id, html: `<span class="${cls}" data-rs="${id}">${escapeXml(text)}</span>` };
}

export function field(m: Markup, label: string, wide = false): { id: string; html: string } {
  const id = m.register({ role: 'text-field', label, interactive: true });
  return { id, html: `<span class="field${wide ? ' wide' : ''}" data-rs="${id}"></span>` };
}

/** A printed hint that repeats a control's words outside it: the distractor the issue asks for. */
export function hint(rng: Random, word: string, purpose?: string): string {
  const forms = [
    `Press ${word} to keep your changes.`,
    `Click ${word} when you are done.`,
    `Tip: ${word} is at the bottom.`,
    `Use ${word} below to go on.`,
    ...(purpose ? [`Choose ${word} to ${purpose}.`] : []),
  ];
  // Long hints would run off a 200 px screen at 7–8 px text.
  const fit = forms.filter((f) => f.length <= 34);
  return rng.pick(fit.length > 0 ? fit : [`${word}: see below.`]);
}
