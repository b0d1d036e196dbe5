/**
 * The rule-based verifier: which element of a screen a reference points at.
 * It decides whether a written instruction is usable (the writers keep only
 * references that resolve to their target) and scores planner output.
 *
 * Rules:
 * - Only visible elements count: centre on the screen and not covered by a
 *   dialog painted after them (unless inside that dialog).
 * - Text: case-insensitive, whitespace-normalised equality with the
 *   element's text or its label. Icon: equal icon names.
 * - A named role matches its family: 'button' matches button, icon-button and
 *   back-button; 'icon-button' matches icon-button and back-button;
 *   'text-field' matches text-field and search-box; 'text' matches text and
 *   heading; every other role matches itself only.
 * - Text and icon references without a role: if several elements match and
 *   some are interactive, only the interactive ones count (a label and its
 *   field share a word; the instruction means the field).
 * - Position without ordinal: the element of that role whose centre lies in
 *   the region (screen thirds: 'top' is the upper third, 'top-left' the upper
 *   left ninth, 'center' the middle ninth). With an ordinal and an edge: the
 *   n-th counted from that edge ('top': top-to-bottom, then left-to-right
 *   within a row; 'bottom': bottom-to-top rows; 'left'/'right': columns, then
 *   top-to-bottom). With an ordinal and a corner or the centre: the n-th in
 *   reading order among those inside it.
 * - Relation: the anchor is any visible element whose text equals the anchor
 *   text; the target is the nearest element of the role in that direction
 *   (below/above: overlapping columns, smallest gap; left of/right of: overlapping
 *   rows, smallest gap; next to: left or right). Equal gaps, or several anchors
 *   with different nearest elements, are ambiguous.
 * - Colour: elements of the role whose colour is the named one.
 * - Function: elements whose purpose equals the named one (normalised).
 */
import type { Box, Instruction, Position, Ref, Relation, Role, Screen, UIElement } from './types';

export type Resolution = { kind: 'element'; id: string } | { kind: 'ambiguous'; ids: string[] } | { kind: 'none' };

const ROLE_FAMILY: Partial<Record<Role, readonly Role[]>> = {
  'button': ['button', 'icon-button', 'back-button'],
  'icon-button': ['icon-button', 'back-button'],
  'text-field': ['text-field', 'search-box'],
  'text': ['text', 'heading'],
};

/** Whether a reference naming `refRole` may mean an element of `elementRole`. */
export function roleMatches(refRole: Role, elementRole: Role): boolean {
  return (ROLE_FAMILY[refRole] ?? [refRole]).includes(elementRole);
}

/** The role words that may name an element of this role, its own first. */
export function rolesNaming(role: Role): Role[] {
  const out: Role[] = [role];
  for (const [ref, family] of Object.entries(ROLE_FAMILY) as [Role, readonly Role[]][]) {
    if (ref !== role && family.includes(role)) out.push(ref);
  }
  return out;
}

export function normText(s: string): string {
  return s.replace(/\s+/g, ' ').trim().toLowerCase();
}

function cx(b: Box): number {
  return b.x + b.w / 2;
}
function cy(b: Box): number {
  return b.y + b.h / 2;
}

function inside(b: Box, x: number, y: number): boolean {
  return x >= b.x && x < b.x + b.w && y >= b.y && y < b.y + b.h;
}

function isWithin(el: UIElement, ancestorId: string, byId: Map<string, UIElement>): boolean {
  for (let p = el.parent; p; p = byId.get(p)?.parent) if (p === ancestorId) return true;
  return false;
}

/** Elements a person can see, in paint order. */
export function visibleElements(screen: Screen): UIElement[] {
  const els = screen.elements;
  const byId = new Map(els.map((e) => [e.id, e]));
  const dialogs = els.map((e, i) => ({ e, i })).filter(({ e }) => e.role === 'dialog');
  return els.filter((e, i) => {
    const x = cx(e.box);
    const y = cy(e.box);
    if (x < 0 || y < 0 || x >= screen.width || y >= screen.height) return false;
    return !dialogs.some((d) => d.i > i && inside(d.e.box, x, y) && !isWithin(e, d.e.id, byId));
  });
}

const ROW_TOLERANCE = 4;

/**
 * Lines (rows or columns) as counted from an edge: elements grouped by one
 * centre coordinate within a tolerance, the groups ordered from that edge,
 * each group ordered by the other coordinate (left-to-right, top-to-bottom).
 */
export function lineGroups(edge: 'top' | 'bottom' | 'left' | 'right', els: UIElement[]): UIElement[][] {
  const main = edge === 'top' || edge === 'bottom' ? cy : cx;
  const cross = main === cy ? cx : cy;
  const descending = edge === 'bottom' || edge === 'right';
  const sorted = els.slice().sort((a, b) => (descending ? main(b.box) - main(a.box) : main(a.box) - main(b.box)));
  const groups: UIElement[][] = [];
  let start = 0;
  for (const e of sorted) {
    const last = groups[groups.length - 1];
    if (last && Math.abs(main(e.box) - start) <= ROW_TOLERANCE) last.push(e);
    else {
      groups.push([e]);
      start = main(e.box);
    }
  }
  for (const g of groups) g.sort((a, b) => cross(a.box) - cross(b.box));
  return groups;
}

/** The order an ordinal counts in "the n-th … from the <edge>". */
export function orderFrom(edge: 'top' | 'bottom' | 'left' | 'right', els: UIElement[]): UIElement[] {
  return lineGroups(edge, els).flat();
}

/** Reading order: top-to-bottom rows, left-to-right inside a row. */
export function readingOrder(els: UIElement[]): UIElement[] {
  return orderFrom('top', els);
}

/** Which third of the screen the element's centre is in, per axis: 0, 1 or 2. */
function thirds(screen: Screen, el: UIElement): { row: number; col: number } {
  const third = (v: number, size: number) => (v < size / 3 ? 0 : v < (2 * size) / 3 ? 1 : 2);
  return { row: third(cy(el.box), screen.height), col: third(cx(el.box), screen.width) };
}

export function inRegion(screen: Screen, el: UIElement, pos: Position): boolean {
  const { row, col } = thirds(screen, el);
  switch (pos) {
    case 'top':
      return row === 0;
    case 'bottom':
      return row === 2;
    case 'left':
      return col === 0;
    case 'right':
      return col === 2;
    case 'top-left':
      return row === 0 && col === 0;
    case 'top-right':
      return row === 0 && col === 2;
    case 'bottom-left':
      return row === 2 && col === 0;
    case 'bottom-right':
      return row === 2 && col === 2;
    case 'center':
      return row === 1 && col === 1;
  }
}

function overlap(a0: number, a1: number, b0: number, b1: number): number {
  return Math.min(a1, b1) - Math.max(a0, b0);
}

/** Gap from anchor box to candidate box in a direction, or null if not in that direction. */
export function gapTo(a: Box, b: Box, rel: Relation): number | null {
  const cols = overlap(a.x, a.x + a.w, b.x, b.x + b.w) > 0;
  const rows = overlap(a.y, a.y + a.h, b.y, b.y + b.h) > 0;
  switch (rel) {
    case 'below':
      return cols && b.y >= cy(a) ? b.y - (a.y + a.h) : null;
    case 'above':
      return cols && b.y + b.h <= cy(a) ? a.y - (b.y + b.h) : null;
    case 'right of':
      return rows && b.x >= cx(a) ? b.x - (a.x + a.w) : null;
    case 'left of':
      return rows && b.x + b.w <= cx(a) ? a.x - (b.x + b.w) : null;
    case 'next to':
      return gapTo(a, b, 'right of') ?? gapTo(a, b, 'left of');
  }
}

const TIE = 0.5;

function fromIds(ids: string[]): Resolution {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return { kind: 'none' };
  if (unique.length === 1) return { kind: 'element', id: unique[0] };
  return { kind: 'ambiguous', ids: unique };
}

function preferInteractive(els: UIElement[]): UIElement[] {
  if (els.length <= 1) return els;
  const active = els.filter((e) => e.interactive);
  return active.length > 0 ? active : els;
}

function resolveRelation(els: UIElement[], role: Role, relation: Relation, anchor: string): Resolution {
  const want = normText(anchor);
  const anchors = els.filter((e) => e.text !== undefined && normText(e.text) === want);
  const winners: string[] = [];
  for (const a of anchors) {
    const scored = els
      .filter((e) => e !== a && roleMatches(role, e.role))
      .map((e) => ({ e, gap: gapTo(a.box, e.box, relation) }))
      .filter((s): s is { e: UIElement; gap: number } => s.gap !== null);
    if (scored.length === 0) continue;
    const best = Math.min(...scored.map((s) => s.gap));
    winners.push(...scored.filter((s) => s.gap <= best + TIE).map((s) => s.e.id));
  }
  return fromIds(winners);
}

/** Order the result ids as the screen lists its elements, so resolutions compare stably. */
function inPaintOrder(screen: Screen, r: Resolution): Resolution {
  if (r.kind !== 'ambiguous') return r;
  const index = new Map(screen.elements.map((e, i) => [e.id, i]));
  return { kind: 'ambiguous', ids: r.ids.slice().sort((a, b) => (index.get(a) ?? 0) - (index.get(b) ?? 0)) };
}

export function resolveRef(screen: Screen, ref: Ref): Resolution {
  const els = visibleElements(screen);
  const ofRole = (role: Role) => els.filter((e) => roleMatches(role, e.role));
  let ids: string[];
  switch (ref.style) {
    case 'text': {
      const want = normText(ref.text);
      const pool = ref.role ? ofRole(ref.role) : els;
      const hits = pool.filter(
        (e) => (e.text !== undefined && normText(e.text) === want) || (e.label !== undefined && normText(e.label) === want),
      );
      ids = (ref.role ? hits : preferInteractive(hits)).map((e) => e.id);
      break;
    }
    case 'icon': {
      const pool = ref.role ? ofRole(ref.role) : els;
      const hits = pool.filter((e) => e.icon === ref.icon);
      ids = (ref.role ? hits : preferInteractive(hits)).map((e) => e.id);
      break;
    }
    case 'position': {
      const pool = ofRole(ref.role);
      const p = ref.position;
      if (ref.ordinal === undefined) {
        ids = pool.filter((e) => inRegion(screen, e, p)).map((e) => e.id);
      } else {
        const ordered =
          p === 'top' || p === 'bottom' || p === 'left' || p === 'right'
            ? orderFrom(p, pool)
            : readingOrder(pool.filter((e) => inRegion(screen, e, p)));
        const hit = ordered[ref.ordinal - 1];
        ids = hit ? [hit.id] : [];
      }
      break;
    }
    case 'relation':
      return inPaintOrder(screen, resolveRelation(els, ref.role, ref.relation, ref.anchor));
    case 'color':
      ids = ofRole(ref.role)
        .filter((e) => e.color === ref.color)
        .map((e) => e.id);
      break;
    case 'function': {
      const want = normText(ref.purpose);
      ids = els.filter((e) => e.purpose !== undefined && normText(e.purpose) === want).map((e) => e.id);
      break;
    }
  }
  return inPaintOrder(screen, fromIds(ids));
}

/**
 * Whether the instruction points at the target: its reference resolves to
 * exactly that element. Instructions without a target (SCROLL, BACK,
 * OPEN_APP, DONE) verify when no target is expected.
 */
export function verifyInstruction(screen: Screen, instruction: Instruction, targetId?: string): boolean {
  if (!instruction.ref) return targetId === undefined && !['CLICK', 'TYPE', 'SELECT'].includes(instruction.action);
  if (targetId === undefined) return false;
  const r = resolveRef(screen, instruction.ref);
  return r.kind === 'element' && r.id === targetId;
}
