/**
 * Screens in made-up words (src/pretrain/pseudoText.ts): the grounder's
 * pretraining shows some of its screens with every word replaced, so that
 * reading must go letter by letter. The rewrite must keep what the layout's
 * labels and the writers rely on: word lengths and places, capitals, which
 * texts are equal, which element owns each cell, and the targets.
 */
import { describe, expect, it } from 'vitest';
import { Random } from '../../src/learn/random';
import { trainingScreens, writeExample } from '../../src/pretrain/grounderScreens';
import { inventedScreen, wordInventor } from '../../src/pretrain/pseudoText';
import { cellLabels, shownText } from '../../src/world/cellLabels';
import { titleDrawnByChild } from '../../src/world/render/painter';
import type { UIElement } from '../../src/world/types';

const shape = (t: string) => t.replace(/[a-z]/g, 'a').replace(/[A-Z]/g, 'A').replace(/[0-9]/g, '9');

describe('made-up words', () => {
  it('keep each word’s length, capitals, digits and punctuation, and map a word the same way every time', () => {
    const invent = wordInventor(new Random(1));
    const text = 'Check in 3:00 pm, Room 12B (check in)';
    const made = invent(text);
    expect(shape(made)).toBe(shape(text));
    expect(made).not.toBe(text);
    const words = made.split(/[^A-Za-z0-9]+/);
    expect(words[0]).toBe(invent('Check'));
    expect(words[1]).toBe(words[words.length - 2]); // "in" twice
  });

  it('draw letters with English frequencies, so e is common and z rare', () => {
    const invent = wordInventor(new Random(2));
    const counts = new Map<string, number>();
    for (let i = 0; i < 2000; i++) for (const ch of invent(`word${i % 10}x${i}`)) counts.set(ch, (counts.get(ch) ?? 0) + 1);
    expect(counts.get('e') ?? 0).toBeGreaterThan(5 * (counts.get('z') ?? 0));
  });

  it('rewrite a screen’s texts but keep its cell ownership, equal titles and targets', () => {
    const rng = new Random(5);
    const screens = trainingScreens(new Random(3), 12);
    let changed = 0;
    for (const s of screens) {
      const before = JSON.stringify(s.screen);
      const inv = inventedScreen(rng, s);
      expect(JSON.stringify(s.screen)).toBe(before); // the pool's screen is not touched
      const a = cellLabels(s.screen);
      const b = cellLabels(inv.screen);
      expect(Array.from(b.element)).toEqual(Array.from(a.element));
      expect(Array.from(b.hasText)).toEqual(Array.from(a.hasText));
      inv.screen.elements.forEach((el, i) => {
        const old = s.screen.elements[i];
        expect(el.id).toBe(old.id);
        expect(shape(shownText(el) ?? '')).toBe(shape(shownText(old) ?? ''));
        expect(titleDrawnByChild(inv.screen, el)).toBe(titleDrawnByChild(s.screen, old));
        if ((shownText(el) ?? '') !== (shownText(old) ?? '')) changed++;
      });
      expect(inv.targets.map((t) => t.element.id)).toEqual(s.targets.map((t) => t.element.id));
      for (const t of inv.targets) expect(inv.screen.elements).toContain(t.element);
    }
    expect(changed).toBeGreaterThan(50);
  });

  it('give text-style instructions that quote the made-up words', () => {
    const rng = new Random(6);
    const quoted: string[] = [];
    const textsOf = (els: readonly UIElement[]) => new Set(els.flatMap((el) => [el.text, el.label, el.state.value]).filter((t): t is string => !!t).map((t) => t.toLowerCase()));
    for (const s of trainingScreens(new Random(8), 10)) {
      const inv = inventedScreen(rng, s);
      const made = textsOf(inv.screen.elements);
      const real = textsOf(s.screen.elements);
      // Typing steps quote the typed value first, which is not screen text.
      for (const t of inv.targets.filter((x) => x.step.type === 'CLICK')) {
        const q = writeExample(rng, inv, t, ['text'])?.instruction.match(/"([^"]+)"/)?.[1].toLowerCase();
        if (q === undefined) continue;
        expect(made).toContain(q);
        expect(real).not.toContain(q);
        quoted.push(q);
      }
    }
    expect(quoted.length).toBeGreaterThan(10);
  });
});
