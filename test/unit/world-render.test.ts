/**
 * Renderer logic checked in Node with a recording 2D context: fixtures are
 * valid screens covering every role, colours look like their names, and
 * renderScreen is deterministic and keeps every text inside its element.
 * (Real pixels are checked in the browser: test/e2e/world-render.spec.ts.)
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { renderScreen, SUPPORTED_ROLES } from '../../src/world/render/draw';
import { FIXTURES } from '../../src/world/render/fixtures';
import { COLOR_NAMES, hueOf, luminance, onColor, PALETTE, saturationOf } from '../../src/world/render/palette';
import type { Ctx2D } from '../../src/world/render/painter';
import { visibleText } from '../../src/world/render/text';
import type { Role, Screen } from '../../src/world/types';

interface Call {
  name: string;
  args: unknown[];
  state: Record<string, unknown>;
}

/** A 2D context that records calls, with text measured as 0.55 em per character. */
function recorder(): { ctx: Ctx2D; calls: Call[] } {
  const calls: Call[] = [];
  const state: Record<string, unknown> = { font: '10px sans-serif', textAlign: 'start' };
  const stack: Record<string, unknown>[] = [];
  const methods: Record<string, (...a: unknown[]) => unknown> = {
    save: () => stack.push({ ...state }),
    restore: () => Object.assign(state, stack.pop()),
    measureText: (t) => ({ width: String(t).length * 0.55 * Number(/([\d.]+)px/.exec(String(state.font))?.[1] ?? 10) }),
    createLinearGradient: () => ({ addColorStop: () => undefined }),
  };
  const ctx = new Proxy({} as Record<string, unknown>, {
    get: (_t, key: string) => {
      if (key in state) return state[key];
      return (...args: unknown[]) => {
        calls.push({ name: key, args, state: { ...state } });
        return methods[key]?.(...args);
      };
    },
    set: (_t, key: string, value) => {
      state[key] = value;
      return true;
    },
  });
  return { ctx: ctx as unknown as Ctx2D, calls };
}

beforeAll(() => {
  // Node has no Path2D; icons only need to be constructible here.
  (globalThis as { Path2D?: unknown }).Path2D ??= class {
    constructor(readonly d?: string) {}
  };
});

const screens = Object.entries(FIXTURES);

describe('fixtures', () => {
  it('use every role the renderer supports', () => {
    const used = new Set<Role>(Object.values(FIXTURES).flatMap((s) => s.elements.map((e) => e.role)));
    expect([...SUPPORTED_ROLES].filter((r) => !used.has(r))).toEqual([]);
    expect(SUPPORTED_ROLES.length).toBe(22);
  });

  it.each(screens)('%s is a well-formed screen', (_name, s: Screen) => {
    const ids = s.elements.map((e) => e.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const e of s.elements) {
      expect(e.box.x).toBeGreaterThanOrEqual(0);
      expect(e.box.y).toBeGreaterThanOrEqual(0);
      expect(e.box.x + e.box.w).toBeLessThanOrEqual(s.width);
      expect(e.box.y + e.box.h).toBeLessThanOrEqual(s.height);
      if (e.parent) expect(ids).toContain(e.parent);
    }
  });
});

describe('palette', () => {
  const hueRange: Record<string, [number, number]> = {
    red: [345, 370], orange: [15, 35], yellow: [38, 60], green: [100, 160], teal: [160, 190],
    blue: [200, 250], purple: [250, 290], pink: [310, 345],
  };
  it.each(COLOR_NAMES.filter((c) => c !== 'gray'))('%s looks like its name on light and dark themes', (name) => {
    const [lo, hi] = hueRange[name];
    for (const c of [PALETTE[name].base, PALETTE[name].bright]) {
      const h = hueOf(c) < lo ? hueOf(c) + 360 : hueOf(c);
      expect(h).toBeGreaterThanOrEqual(lo);
      expect(h).toBeLessThanOrEqual(hi);
      expect(saturationOf(c)).toBeGreaterThan(0.4);
    }
  });
  it('gray is gray, and text on every fill has contrast', () => {
    expect(saturationOf(PALETTE.gray.base)).toBeLessThan(0.25);
    for (const name of COLOR_NAMES) {
      const fill = PALETTE[name].base;
      const [a, b] = [luminance(fill), luminance(onColor(fill))].sort((x, y) => y - x);
      expect((a + 0.05) / (b + 0.05)).toBeGreaterThan(2.5);
    }
  });
});

function clipOf(call: Call, calls: Call[]): number[] | undefined {
  // drawText clips to the element box with rect() + clip() just before fillText.
  const i = calls.indexOf(call);
  for (let j = i - 1; j >= 0; j--) if (calls[j].name === 'clip') return calls[j - 1]?.name === 'rect' ? (calls[j - 1].args as number[]) : undefined;
  return undefined;
}

describe('renderScreen', () => {
  it.each(screens)('%s: same screen, same drawing calls', (_n, s: Screen) => {
    const a = recorder();
    const b = recorder();
    renderScreen(a.ctx, s);
    renderScreen(b.ctx, s);
    expect(a.calls.length).toBeGreaterThan(50);
    expect(JSON.stringify(a.calls)).toBe(JSON.stringify(b.calls));
  });

  it.each(screens)('%s: every text is drawn, squeezed to fit and clipped to its element box', (_n, s: Screen) => {
    const { ctx, calls } = recorder();
    renderScreen(ctx, s);
    const texts = calls.filter((c) => c.name === 'fillText');
    const same = (clip: number[] | undefined, b: { x: number; y: number; w: number; h: number }) =>
      JSON.stringify(clip) === JSON.stringify([b.x, b.y, b.w, b.h]);
    // Every fillText is clipped to the box of an element whose visible text it is part of, and stays in that box.
    for (const c of texts) {
      const [str, x, y, maxW] = c.args as [string, number, number, number];
      const clip = clipOf(c, calls);
      const owner = s.elements.find((e) => same(clip, e.box) && (visibleText(e) ?? '').replace(/\n/g, ' ').includes(str));
      expect(owner, `text "${str}"`).toBeDefined();
      const b = owner!.box;
      const left = c.state.textAlign === 'center' ? x - maxW / 2 : c.state.textAlign === 'right' ? x - maxW : x;
      expect(left, owner!.id).toBeGreaterThanOrEqual(b.x - 0.01);
      expect(left + maxW, owner!.id).toBeLessThanOrEqual(b.x + b.w + 0.01);
      expect(y, owner!.id).toBeGreaterThan(b.y);
      expect(y, owner!.id).toBeLessThanOrEqual(b.y + b.h);
    }
    // And every element with visible text gets at least one.
    for (const el of s.elements) {
      if (!visibleText(el)) continue;
      expect(texts.filter((c) => same(clipOf(c, calls), el.box)).length, el.id).toBeGreaterThan(0);
    }
  });

  it('hideTextOf drops exactly that element\'s text and nothing else', () => {
    const s = FIXTURES['web-mail'];
    const full = recorder();
    const hidden = recorder();
    renderScreen(full.ctx, s);
    renderScreen(hidden.ctx, s, { hideTextOf: 'compose' });
    const texts = (c: Call[]) => c.filter((k) => k.name === 'fillText').map((k) => String(k.args[0]));
    expect(texts(full.calls)).toContain('Compose');
    expect(texts(hidden.calls)).not.toContain('Compose');
    expect(texts(hidden.calls).length).toBe(texts(full.calls).length - 1);
  });

  it('light and dark themes paint different backgrounds', () => {
    const s = FIXTURES['web-mail'];
    const bg = (mode: 'light' | 'dark') => {
      const r = recorder();
      renderScreen(r.ctx, { ...s, theme: { ...s.theme, mode } });
      return r.calls.find((c) => c.name === 'fillRect')?.state.fillStyle;
    };
    expect(bg('light')).not.toBe(bg('dark'));
  });
});
