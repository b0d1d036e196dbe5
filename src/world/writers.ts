/**
 * Instruction writers: turn one oracle step into a low-level instruction in a
 * chosen referring style. Like the imperfect planner pool the paper trained
 * its grounder on, a writer may be sloppy: with its error rate it refers to
 * another element, miscounts, or says something ambiguous. Clean writers only
 * use references the verifier resolves to the target alone.
 */
import type { ActionType, Box, Instruction, Ref, RefStyle, Relation, Screen, UIElement } from './types';
import { REF_STYLES } from './types';
import type { Random } from '../learn/random';
import { hasRef, phrasingCount, roundTrips } from '../text/grammar';
import { AREAS, EDGES } from '../text/phrasings';
import {
  gapTo,
  inRegion,
  lineGroups,
  readingOrder,
  resolveRef,
  roleMatches,
  rolesNaming,
  verifyInstruction,
  visibleElements,
} from './verifier';

export interface StepSpec {
  type: ActionType;
  value?: string; // TYPE text, SELECT option; also the app name or scroll direction, as in OracleStep
  direction?: 'up' | 'down';
  app?: string;
}

export interface Written {
  instruction: Instruction;
  corrupted: boolean; // deliberately wrong or ambiguous (diagnostics only; the instruction looks normal)
  style: RefStyle | null; // the style used, null for steps without a target
}

export interface WriteOptions {
  errorRate?: number;
}

const RELATIONS: readonly Relation[] = ['next to', 'below', 'above', 'right of', 'left of'];
const MAX_ORDINAL = 10;

function texts(el: UIElement): string[] {
  const out: string[] = [];
  for (const t of [el.text, el.label]) if (t !== undefined && t.trim() !== '' && !out.includes(t)) out.push(t);
  return out;
}

/** A reference and how readily a person would say it (higher is likelier). */
interface Mention {
  ref: Ref;
  weight: number;
}

function contains(outer: Box, inner: Box): boolean {
  return outer.x <= inner.x && outer.y <= inner.y && outer.x + outer.w >= inner.x + inner.w && outer.y + outer.h >= inner.y + inner.h;
}

/**
 * Whether the target is the very next thing from the anchor in that direction,
 * nothing else in between: people say "the switch next to Wi-Fi" of a row's
 * own switch, not of one three rows away.
 */
function adjacent(els: UIElement[], anchor: UIElement, target: UIElement, relation: Relation): boolean {
  const gap = gapTo(anchor.box, target.box, relation);
  if (gap === null) return false;
  return !els.some((e) => {
    if (e.id === anchor.id || e.id === target.id) return false;
    if (contains(e.box, anchor.box) || contains(e.box, target.box) || contains(target.box, e.box)) return false;
    const g = gapTo(anchor.box, e.box, relation);
    return g !== null && g < gap;
  });
}

/**
 * Every reference of the style that mentions the target truthfully, unique
 * or not, weighted towards what people say: a region before an ordinal, small
 * ordinals, ordinals only where the lines are clear, relations only to an
 * adjacent anchor.
 */
function mentions(screen: Screen, target: UIElement, style: RefStyle): Mention[] {
  const roles = rolesNaming(target.role);
  const out: Mention[] = [];
  const add = (ref: Ref, weight = 1) => out.push({ ref, weight });
  switch (style) {
    case 'text':
      for (const text of texts(target)) {
        add({ style: 'text', text });
        for (const role of roles) add({ style: 'text', text, role });
      }
      break;
    case 'icon':
      if (target.icon) {
        add({ style: 'icon', icon: target.icon });
        for (const role of roles) add({ style: 'icon', icon: target.icon, role });
      }
      break;
    case 'position': {
      const els = visibleElements(screen);
      for (const role of roles) {
        const pool = els.filter((e) => roleMatches(role, e.role));
        for (const position of [...EDGES, ...AREAS]) {
          if (inRegion(screen, target, position)) add({ style: 'position', role, position }, 2);
        }
        for (const edge of EDGES) {
          const groups = lineGroups(edge, pool);
          const k = groups.findIndex((g) => g.some((e) => e.id === target.id)) + 1;
          const clear = k >= 1 && groups.slice(0, k).every((g) => g.length === 1);
          if (clear && k <= MAX_ORDINAL) add({ style: 'position', role, position: edge, ordinal: k }, 1 / k);
        }
        for (const area of AREAS) {
          const inArea = pool.filter((e) => inRegion(screen, e, area));
          const k = readingOrder(inArea).findIndex((e) => e.id === target.id) + 1;
          if (k >= 1 && k <= MAX_ORDINAL) add({ style: 'position', role, position: area, ordinal: k }, 0.5 / k);
        }
      }
      break;
    }
    case 'relation': {
      const els = visibleElements(screen);
      const anchors = els.filter((e) => e.id !== target.id && e.text !== undefined && e.text.trim() !== '');
      for (const relation of RELATIONS) {
        const near = anchors.filter((a) => adjacent(els, a, target, relation));
        for (const text of new Set(near.map((a) => a.text ?? ''))) {
          for (const role of roles) add({ style: 'relation', role, relation, anchor: text });
        }
      }
      break;
    }
    case 'color':
      if (target.color) for (const role of roles) add({ style: 'color', role, color: target.color });
      break;
    case 'function':
      if (target.purpose && target.purpose.trim() !== '') {
        add({ style: 'function', purpose: target.purpose.replace(/\s+/g, ' ').trim() });
      }
      break;
  }
  return out;
}

function resolvesTo(screen: Screen, ref: Ref, id: string): boolean {
  const r = resolveRef(screen, ref);
  return r.kind === 'element' && r.id === id;
}

function uniqueMentions(screen: Screen, target: UIElement, style: RefStyle): Mention[] {
  return mentions(screen, target, style).filter((m) => resolvesTo(screen, m.ref, target.id));
}

/** References of the style that the verifier resolves to the target alone. */
export function uniqueRefs(screen: Screen, target: UIElement, style: RefStyle): Ref[] {
  return uniqueMentions(screen, target, style).map((m) => m.ref);
}

/** References of the style that fit the target but also other elements. */
export function ambiguousRefs(screen: Screen, target: UIElement, style: RefStyle): Ref[] {
  return mentions(screen, target, style)
    .map((m) => m.ref)
    .filter((ref) => {
      const r = resolveRef(screen, ref);
      return r.kind === 'ambiguous' && r.ids.includes(target.id);
    });
}

/** Whether the style can single out the target on this screen. */
export function canDescribe(screen: Screen, target: UIElement, style: RefStyle): boolean {
  return uniqueMentions(screen, target, style).length > 0;
}

/** A random order that puts heavier items first more often (keys u^(1/w), largest first). */
function weightedOrder(items: Mention[], rng: Random): Ref[] {
  return items
    .map((m) => ({ ref: m.ref, key: Math.pow(rng.next(), 1 / m.weight) }))
    .sort((a, b) => b.key - a.key)
    .map((x) => x.ref);
}

function baseInstruction(step: StepSpec, ref?: Ref): Instruction {
  const i: Instruction = { action: step.type, phrasing: 0 };
  if (hasRef(step.type)) i.ref = ref;
  if (step.type === 'TYPE' || step.type === 'SELECT') i.value = step.value ?? '';
  if (step.type === 'SCROLL') i.direction = step.direction ?? (step.value === 'up' ? 'up' : 'down');
  if (step.type === 'OPEN_APP') i.app = (step.app ?? step.value ?? '').replace(/\s+/g, ' ').trim();
  return i;
}

/** A random phrasing that survives print → parse; null if none does. */
function phrase(step: StepSpec, ref: Ref | undefined, rng: Random): Instruction | null {
  const base = baseInstruction(step, ref);
  const n = phrasingCount(step.type, ref);
  const start = rng.int(0, n - 1);
  for (let k = 0; k < n; k++) {
    const i = { ...base, phrasing: (start + k) % n };
    if (roundTrips(i)) return i;
  }
  return null;
}

type Corruption = 'other' | 'ambiguous' | 'ordinal';

function otherElementRef(screen: Screen, target: UIElement, style: RefStyle, rng: Random): Ref | null {
  const targetRoles = rolesNaming(target.role);
  const others = visibleElements(screen).filter((e) => e.interactive && e.id !== target.id);
  const alike = others.filter((e) => rolesNaming(e.role).some((r) => targetRoles.includes(r)));
  const order = [...rng.shuffle(alike), ...rng.shuffle(others.filter((e) => !alike.includes(e)))];
  for (const other of order.slice(0, 12)) {
    const refs = uniqueMentions(screen, other, style);
    if (refs.length > 0) return weightedOrder(refs, rng)[0];
  }
  return null;
}

function miscounted(refs: Ref[], rng: Random): Ref | null {
  const counted = refs.filter((r): r is Extract<Ref, { style: 'position' }> => r.style === 'position' && r.ordinal !== undefined);
  if (counted.length === 0) return null;
  const r = rng.pick(counted);
  const k = r.ordinal ?? 1;
  const ordinal = k > 1 && rng.chance(0.5) ? k - 1 : k + 1;
  return { ...r, ordinal };
}

function corruptRef(screen: Screen, target: UIElement, style: RefStyle, good: Ref[], rng: Random): Ref | null {
  const ways: Corruption[] = rng.shuffle(['other', 'ambiguous', 'ordinal'] as Corruption[]);
  for (const way of ways) {
    let ref: Ref | null = null;
    if (way === 'other') ref = otherElementRef(screen, target, style, rng);
    else if (way === 'ordinal') ref = style === 'position' ? miscounted(good, rng) : null;
    else {
      const loose = ambiguousRefs(screen, target, style);
      ref = loose.length > 0 ? rng.pick(loose) : null;
    }
    if (ref && !resolvesTo(screen, ref, target.id)) return ref;
  }
  return null;
}

/**
 * Write the instruction for one step in one referring style. Null when the
 * step needs a target and the style cannot single it out on this screen (no
 * icon, no colour, no label nearby, a duplicate text …). With probability
 * `errorRate` the result is deliberately wrong or ambiguous and marked so;
 * if no such corruption exists on this screen, the correct one is returned.
 */
export function writeInstruction(
  screen: Screen,
  target: UIElement | null | undefined,
  step: StepSpec,
  style: RefStyle,
  rng: Random,
  opts: WriteOptions = {},
): Written | null {
  const roll = rng.next();
  const corrupt = roll < (opts.errorRate ?? 0);
  if (!hasRef(step.type)) {
    const flip = corrupt && step.type === 'SCROLL';
    const base = baseInstruction(step);
    const s: StepSpec = flip ? { ...step, direction: base.direction === 'up' ? 'down' : 'up', value: undefined } : step;
    const i = phrase(s, undefined, rng);
    return i ? { instruction: i, corrupted: flip, style: null } : null;
  }
  if (!target) return null;
  const good = uniqueMentions(screen, target, style);
  if (good.length === 0) return null;
  if (corrupt) {
    const bad = corruptRef(screen, target, style, good.map((m) => m.ref), rng);
    const i = bad ? phrase(step, bad, rng) : null;
    if (i && !verifyInstruction(screen, i, target.id)) return { instruction: i, corrupted: true, style };
  }
  for (const ref of weightedOrder(good, rng)) {
    const i = phrase(step, ref, rng);
    if (i) return { instruction: i, corrupted: false, style };
  }
  return null;
}

export interface WriterSpec {
  name: string;
  styles: readonly RefStyle[];
  errorRate: number;
}

export interface Writer extends WriterSpec {
  /** Tries the writer's styles in a random order; null if none can single out the target. */
  write(screen: Screen, target: UIElement | null | undefined, step: StepSpec, rng: Random): Written | null;
}

export function makeWriter(spec: WriterSpec): Writer {
  const styles = spec.styles.length > 0 ? spec.styles : REF_STYLES;
  return {
    ...spec,
    styles,
    write(screen, target, step, rng) {
      for (const style of rng.shuffle(styles)) {
        const w = writeInstruction(screen, target, step, style, rng, { errorRate: spec.errorRate });
        if (w) return w;
      }
      return null;
    },
  };
}

/**
 * A default pool of writers of different habits and care, standing in for
 * the paper's pool of imperfect planners.
 */
export const DEFAULT_WRITERS: readonly WriterSpec[] = [
  { name: 'literal', styles: ['text', 'icon'], errorRate: 0 },
  { name: 'spatial', styles: ['position', 'relation'], errorRate: 0.1 },
  { name: 'visual', styles: ['icon', 'color', 'position'], errorRate: 0.15 },
  { name: 'functional', styles: ['function', 'text'], errorRate: 0.1 },
  { name: 'sloppy', styles: REF_STYLES, errorRate: 0.35 },
];
