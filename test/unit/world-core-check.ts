/** Layout invariants shared by the world-core tests. */
import type { Box, Screen, UIElement } from '../../src/world/types';

const overlaps = (a: Box, b: Box) => a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
const within = (a: Box, b: Box) => a.x >= b.x && a.y >= b.y && a.x + a.w <= b.x + b.w && a.y + a.h <= b.y + b.h;

function isAncestor(byId: Map<string, UIElement>, anc: string, el: UIElement): boolean {
  for (let p = el.parent; p; p = byId.get(p)?.parent) if (p === anc) return true;
  return false;
}

/** Every problem found on a screen, as readable strings (empty when the screen is sound). */
export function layoutProblems(screen: Screen): string[] {
  const out: string[] = [];
  const byId = new Map(screen.elements.map((e) => [e.id, e]));
  if (byId.size !== screen.elements.length) out.push('duplicate element ids');
  for (const e of screen.elements) {
    const b = e.box;
    if (![b.x, b.y, b.w, b.h].every(Number.isFinite)) out.push(`${e.id}: non-finite box`);
    if (b.x < 0 || b.y < 0 || b.x + b.w > screen.width || b.y + b.h > screen.height) out.push(`${e.id}: off screen ${JSON.stringify(b)}`);
    if (e.interactive && (b.w < 6 || b.h < 6)) out.push(`${e.id}: too small ${b.w}x${b.h}`);
    if (b.w <= 0 || b.h <= 0) out.push(`${e.id}: empty box`);
    if (e.parent && !byId.has(e.parent)) out.push(`${e.id}: parent ${e.parent} missing`);
    if (e.parent && byId.has(e.parent) && !within(b, byId.get(e.parent)!.box) && e.role !== 'option' && e.role !== 'menu-item') {
      out.push(`${e.id}: outside its parent ${e.parent}`);
    }
  }
  const els = screen.elements;
  for (let i = 0; i < els.length; i++) {
    for (let j = i + 1; j < els.length; j++) {
      const a = els[i];
      const b = els[j];
      if (!overlaps(a.box, b.box)) continue;
      if (isAncestor(byId, a.id, b) || isAncestor(byId, b.id, a)) continue;
      out.push(`${a.id} overlaps ${b.id}`);
    }
  }
  return out;
}
