import { describe, expect, it } from 'vitest';
import { realPage, realPages, realScreenSuite, splitOfSeed, SUITE_PAGES, TEST_SEED_BASE as REAL_BASE } from '../../src/realScreens/pages';
import { LAYOUT_FREE_STYLES, chanceOf, screenOfPage } from '../../src/realScreens/screen';
import { figuresTable, realScreenFigures, type RealGrounding } from '../../src/realScreens/score';
import { figuresChartSvg } from '../../src/realScreens/chart';
import { LOOKS, PATTERNS } from '../../src/realScreens/types';
import { parseInstruction, sameInstruction } from '../../src/text/grammar';
import { ICON_WORDS } from '../../src/world/icons';
import { TEST_SEED_BASE } from '../../src/world/suites';
import { REF_STYLES, SCREEN_SIZE } from '../../src/world/types';
import { resolveRef } from '../../src/world/verifier';

const suite = realScreenSuite();
const train = realPages('train', SUITE_PAGES);

describe('real-screen fixture pages', () => {
  it('the held-out suite has at least 40 pages over every pattern and look, at the world web screen size', () => {
    expect(SUITE_PAGES).toBeGreaterThanOrEqual(40);
    expect(suite).toHaveLength(SUITE_PAGES);
    expect(new Set(suite.map((p) => p.pattern))).toEqual(new Set(PATTERNS));
    expect(new Set(suite.map((p) => p.look))).toEqual(new Set(LOOKS));
    expect(new Set(suite.map((p) => p.font)).size).toBeGreaterThanOrEqual(3);
    for (const p of suite) expect([p.width, p.height]).toEqual([SCREEN_SIZE.web.width, SCREEN_SIZE.web.height]);
  });

  it('is deterministic: the same seed gives the same page, other seeds other pages', () => {
    expect(realPage(TEST_SEED_BASE + 5)).toEqual(realScreenSuite()[5]);
    expect(realPages('train', 3)).toEqual(train.slice(0, 3));
    expect(new Set(suite.map((p) => p.html)).size).toBe(suite.length);
  });

  it('held-out and training pages are disjoint by the world rule (seeds ≥ TEST_SEED_BASE are held out)', () => {
    expect(suite.every((p) => p.split === 'held-out' && p.seed >= TEST_SEED_BASE)).toBe(true);
    expect(train.every((p) => p.split === 'train' && p.seed < TEST_SEED_BASE)).toBe(true);
    expect(REAL_BASE).toBe(TEST_SEED_BASE);
    expect(splitOfSeed(TEST_SEED_BASE - 1)).toBe('train');
    const ids = new Set(suite.map((p) => p.id));
    expect(train.some((p) => ids.has(p.id))).toBe(false);
    const html = new Set(suite.map((p) => p.html));
    expect(train.some((p) => html.has(p.html))).toBe(false);
  });

  it('every instruction names an interactive element of its page, prints in the grammar and parses back', () => {
    const styles = new Set<string>();
    for (const p of [...suite, ...train]) {
      expect(p.instructions.length).toBeGreaterThanOrEqual(4);
      for (const ins of p.instructions) {
        const target = p.elements.find((e) => e.id === ins.targetId);
        expect(target, `${p.id}: ${ins.text}`).toBeDefined();
        expect(target?.interactive).toBe(true);
        expect(REF_STYLES).toContain(ins.style);
        expect(ins.instruction.ref?.style).toBe(ins.style);
        const back = parseInstruction(ins.text);
        expect(back && sameInstruction(back, ins.instruction), ins.text).toBe(true);
        styles.add(ins.style);
      }
    }
    for (const s of ['text', 'icon', 'relation']) expect(styles).toContain(s);
  });

  it('every marked element is in the markup exactly once, and the markup has no inline style', () => {
    for (const p of suite) {
      for (const e of p.elements) expect(p.html.split(`data-rs="${e.id}"`).length - 1, `${p.id}/${e.id}`).toBe(1);
      expect(p.html).not.toMatch(/style=/);
      expect(p.css.split('}').filter((r) => r.trim() !== '').every((r) => r.trim().startsWith('.rs-page'))).toBe(true);
    }
  });

  it('text, icon, colour and function instructions single out their target by the world verifier; relation anchors are on the page', () => {
    for (const p of suite) {
      const screen = screenOfPage(p);
      for (const ins of p.instructions) {
        const ref = ins.instruction.ref;
        if (!ref) throw new Error('no ref');
        if ((LAYOUT_FREE_STYLES as readonly string[]).includes(ins.style)) {
          expect(resolveRef(screen, ref), `${p.id}: ${ins.text}`).toEqual({ kind: 'element', id: ins.targetId });
        }
        if (ref.style === 'relation') expect(p.elements.filter((e) => e.text === ref.anchor).length, `${p.id}: ${ins.text}`).toBeGreaterThanOrEqual(1);
      }
    }
  });

  it('every page prints a target word outside its control: non-interactive distractor text that repeats it', () => {
    for (const p of suite) {
      const distractors = p.elements.filter((e) => e.distractorOf !== undefined);
      expect(distractors.length, p.id).toBeGreaterThanOrEqual(1);
      for (const d of distractors) {
        const target = p.elements.find((e) => e.id === d.distractorOf);
        expect(target?.interactive, `${p.id}/${d.id}`).toBe(true);
        expect(d.interactive).toBe(false);
        const word = (target?.text ?? (target?.icon ? ICON_WORDS[target.icon] : '')).toLowerCase();
        expect(word).not.toBe('');
        expect(d.text?.toLowerCase(), `${p.id}/${d.id}`).toContain(word);
      }
      // At least one distractor names a control an instruction targets.
      expect(distractors.some((d) => p.instructions.some((i) => i.targetId === d.distractorOf)), p.id).toBe(true);
    }
  });
});

describe('real-screen figures', () => {
  it('counts clicks inside the box per style and look, with Wilson intervals and both chance levels', () => {
    const base = { pageId: 'a', look: 'plain', pattern: 'form', instruction: 'x', box: { x: 10, y: 10, w: 20, h: 10 }, chanceControls: 0.25, chanceArea: 0.01 } as const;
    const items: RealGrounding[] = [
      { ...base, style: 'text', point: { x: 10, y: 20 } }, // an edge counts
      { ...base, style: 'text', point: { x: 31, y: 15 } },
      { ...base, pageId: 'b', look: 'dark', style: 'icon', point: { x: 20, y: 15 }, chanceControls: 0.5 },
    ];
    const f = realScreenFigures(items);
    expect(f.pages).toBe(2);
    expect(f.byStyle.text).toMatchObject({ n: 2, hits: 1, accuracy: 0.5, chanceControls: 0.25 });
    expect(f.byStyle.icon).toMatchObject({ n: 1, hits: 1, chanceControls: 0.5 });
    expect(f.byLook.plain?.n).toBe(2);
    expect(f.overall.interval.low).toBeGreaterThan(0.2);
    expect(f.overall.interval.high).toBeLessThan(1);
    expect(f.overall.chanceArea).toBeCloseTo(0.01);
    expect(figuresTable(f)).toContain('| text style | 2 | 1 | 50.0% |');
    // One bar per style, per look and overall, each with its chance tick.
    const svg = figuresChartSvg(f, 'test');
    expect(svg.match(/stroke-dasharray/g)).toHaveLength(5);
    expect(svg).toContain('n=2');
  });

  it('chance by controls counts the visible interactive elements the dialog leaves', () => {
    const p = suite.find((x) => x.pattern === 'dialog');
    if (!p) throw new Error('no dialog page');
    const dialogAt = p.elements.findIndex((e) => e.role === 'dialog');
    const boxes = Object.fromEntries(p.elements.map((e, i) => [e.id, i <= dialogAt ? { x: 0, y: 0, w: 200, h: 128 } : { x: 60, y: 60, w: 10, h: 10 }]));
    const inside = p.elements.slice(dialogAt + 1).filter((e) => e.interactive).length;
    expect(chanceOf(screenOfPage(p, boxes), { x: 0, y: 0, w: 20, h: 16 })).toEqual({ controls: 1 / inside, area: (20 * 16) / (200 * 128) });
  });
});
