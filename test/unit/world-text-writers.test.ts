import { describe, expect, it } from 'vitest';
import { Random } from '../../src/learn/random';
import { parseInstruction, printInstruction } from '../../src/text/grammar';
import { resolveRef, verifyInstruction, visibleElements } from '../../src/world/verifier';
import {
  DEFAULT_WRITERS,
  ambiguousRefs,
  canDescribe,
  makeWriter,
  uniqueRefs,
  writeInstruction,
  type StepSpec,
} from '../../src/world/writers';
import { REF_STYLES, type RefStyle, type Screen, type UIElement } from '../../src/world/types';
import { CART, COMPOSE, FIXTURE_SCREENS, INBOX, SETTINGS, byId } from './fixtures/screens';

function stepFor(el: UIElement): StepSpec {
  if (el.role === 'text-field' || el.role === 'search-box') return { type: 'TYPE', value: 'hello "you"' };
  if (el.role === 'dropdown') return { type: 'SELECT', value: 'High' };
  return { type: 'CLICK' };
}

function targets(screen: Screen): UIElement[] {
  return visibleElements(screen).filter((e) => e.interactive);
}

describe('instruction writers', () => {
  it('write, in every style that can describe a target, an instruction the verifier resolves to it', () => {
    const perStyle = new Map<RefStyle, number>();
    let written = 0;
    for (const screen of FIXTURE_SCREENS) {
      for (const target of targets(screen)) {
        for (const style of REF_STYLES) {
          for (let seed = 0; seed < 4; seed++) {
            const w = writeInstruction(screen, target, stepFor(target), style, new Random(seed));
            expect(w === null, `${screen.screenId}/${target.id}/${style}`).toBe(!canDescribe(screen, target, style));
            if (!w) continue;
            expect(w.corrupted).toBe(false);
            expect(w.instruction.ref?.style).toBe(style);
            expect(verifyInstruction(screen, w.instruction, target.id), printInstruction(w.instruction)).toBe(true);
            // The spoken form carries the same meaning.
            const back = parseInstruction(printInstruction(w.instruction));
            expect(back).toEqual(w.instruction);
            written++;
            perStyle.set(style, (perStyle.get(style) ?? 0) + 1);
          }
        }
      }
    }
    for (const style of REF_STYLES) expect(perStyle.get(style) ?? 0, style).toBeGreaterThan(0);
    expect(written).toBeGreaterThan(200);
  });

  it('return null when a style cannot single out the target', () => {
    const rng = new Random(1);
    // Two list items say "Lunch on Friday"; a list item has no icon or colour.
    expect(writeInstruction(INBOX, byId(INBOX, 'mail-1'), { type: 'CLICK' }, 'text', rng)).toBeNull();
    expect(writeInstruction(INBOX, byId(INBOX, 'mail-1'), { type: 'CLICK' }, 'icon', rng)).toBeNull();
    expect(writeInstruction(INBOX, byId(INBOX, 'mail-1'), { type: 'CLICK' }, 'color', rng)).toBeNull();
    // Every trash button has the same purpose.
    expect(writeInstruction(INBOX, byId(INBOX, 'del-2'), { type: 'CLICK' }, 'function', rng)).toBeNull();
    // ...but position and relation still can.
    expect(writeInstruction(INBOX, byId(INBOX, 'mail-1'), { type: 'CLICK' }, 'position', rng)).not.toBeNull();
    expect(writeInstruction(INBOX, byId(INBOX, 'del-2'), { type: 'CLICK' }, 'relation', rng)).not.toBeNull();
    // A button hidden under the dialog cannot be referred to at all.
    for (const style of REF_STYLES) expect(canDescribe(CART, byId(CART, 'remove-2'), style)).toBe(false);
  });

  it('use a role to disambiguate a shared text', () => {
    const refs = uniqueRefs(COMPOSE, byId(COMPOSE, 'send'), 'text');
    expect(refs).toContainEqual({ style: 'text', text: 'Send', role: 'button' });
    expect(refs).not.toContainEqual({ style: 'text', text: 'Send' });
    expect(ambiguousRefs(COMPOSE, byId(COMPOSE, 'send'), 'text')).toContainEqual({ style: 'text', text: 'Send' });
  });

  it('are deterministic for a seed', () => {
    const run = (seed: number) =>
      FIXTURE_SCREENS.flatMap((s) =>
        targets(s).map((t) => writeInstruction(s, t, stepFor(t), REF_STYLES[seed % 6], new Random(seed), { errorRate: 0.5 })),
      );
    expect(run(3)).toEqual(run(3));
    expect(run(3)).not.toEqual(run(4));
  });

  it('when corrupted, write something that does not single out the target', () => {
    let corrupted = 0;
    let ambiguous = 0;
    let other = 0;
    let tries = 0;
    for (const screen of FIXTURE_SCREENS) {
      for (const target of targets(screen)) {
        for (const style of REF_STYLES) {
          for (let seed = 0; seed < 3; seed++) {
            const w = writeInstruction(screen, target, stepFor(target), style, new Random(100 + seed), { errorRate: 1 });
            if (!w) continue;
            tries++;
            if (!w.corrupted) continue;
            corrupted++;
            expect(verifyInstruction(screen, w.instruction, target.id)).toBe(false);
            const r = resolveRef(screen, w.instruction.ref!);
            if (r.kind === 'ambiguous') ambiguous++;
            if (r.kind === 'element') other++;
          }
        }
      }
    }
    // Nearly every instruction can be corrupted on these screens, in more than one way.
    expect(corrupted / tries).toBeGreaterThan(0.9);
    expect(ambiguous).toBeGreaterThan(10);
    expect(other).toBeGreaterThan(10);
  });

  it('corrupt at about their error rate', () => {
    const target = byId(SETTINGS, 'wifi');
    let corrupted = 0;
    const n = 400;
    for (let seed = 0; seed < n; seed++) {
      const w = writeInstruction(SETTINGS, target, { type: 'CLICK' }, 'position', new Random(seed), { errorRate: 0.25 });
      if (w?.corrupted) corrupted++;
    }
    expect(corrupted / n).toBeGreaterThan(0.17);
    expect(corrupted / n).toBeLessThan(0.33);
  });

  it('write steps without a target in any style, flipping a scroll when corrupted', () => {
    const rng = new Random(5);
    const back = writeInstruction(SETTINGS, null, { type: 'BACK' }, 'icon', rng);
    expect(back?.instruction.action).toBe('BACK');
    const app = writeInstruction(SETTINGS, null, { type: 'OPEN_APP', value: 'Music  Player' }, 'text', rng);
    expect(app?.instruction.app).toBe('Music Player');
    const flipped = writeInstruction(SETTINGS, null, { type: 'SCROLL', value: 'down' }, 'text', rng, { errorRate: 1 });
    expect(flipped).toMatchObject({ corrupted: true, instruction: { direction: 'up' } });
    expect(writeInstruction(SETTINGS, null, { type: 'CLICK' }, 'text', rng)).toBeNull();
  });

  it('make writers from a pool that stick to their styles', () => {
    expect(DEFAULT_WRITERS.length).toBeGreaterThanOrEqual(3);
    for (const spec of DEFAULT_WRITERS) {
      const writer = makeWriter(spec);
      expect(writer.name).toBe(spec.name);
      const rng = new Random(9);
      for (const screen of FIXTURE_SCREENS) {
        for (const target of targets(screen)) {
          const w = writer.write(screen, target, stepFor(target), rng);
          if (!w) {
            for (const style of spec.styles) expect(canDescribe(screen, target, style)).toBe(false);
            continue;
          }
          expect(spec.styles).toContain(w.style);
          if (spec.errorRate === 0) expect(verifyInstruction(screen, w.instruction, target.id)).toBe(true);
          if (!w.corrupted) expect(verifyInstruction(screen, w.instruction, target.id)).toBe(true);
        }
      }
    }
  });
});
