import { describe, expect, it } from 'vitest';
import { heatPixels, mapMax, viridis } from '../../src/ui/heatmap/colormap';
import { inside, pct } from '../../src/ui/heatmap/marks';
import { planTiles, tilePlatform } from '../../src/ownScreen/tiles';
import { describeAction } from '../../src/ui/playground/steps';
import { suggestionsFor } from '../../src/ui/playground/suggestions';
import { createWorld, screenOf } from '../../src/world/env';
import { nextStep, taskFor } from '../../src/world/play';

describe('heat-map colours', () => {
  it('runs viridis from dark purple to yellow and clamps outside [0, 1]', () => {
    expect(viridis(0)).toEqual([68, 1, 84]);
    expect(viridis(1)).toEqual([253, 231, 37]);
    expect(viridis(-3)).toEqual(viridis(0));
    expect(viridis(Number.NaN)).toEqual(viridis(0));
    // Lightness grows along the map (the property that survives colour-blindness and greyscale).
    const light = (c: number[]) => 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2];
    for (let v = 0.1; v <= 1; v += 0.1) expect(light(viridis(v))).toBeGreaterThan(light(viridis(v - 0.1)));
  });

  it('draws the top cell brightest and opaque as asked, zero cells transparent, an empty map not at all', () => {
    const px = heatPixels(Float32Array.from([0, 0.25, 1, 0.5]), 0.8);
    expect(Array.from(px.slice(8, 12))).toEqual([253, 231, 37, 204]);
    expect(px[3]).toBe(0);
    expect(px[7]).toBe(Math.round(204 * 0.5));
    expect(heatPixels(new Float32Array(4), 1).every((v) => v === 0)).toBe(true);
    expect(mapMax([0.1, 0.7, 0.2])).toBe(0.7);
  });

  it('counts box edges as inside and words probabilities sensibly', () => {
    const box = { x: 10, y: 10, w: 20, h: 10 };
    expect(inside({ x: 30, y: 20 }, box)).toBe(true);
    expect(inside({ x: 30.1, y: 20 }, box)).toBe(false);
    expect(inside({ x: 15, y: 15 }, null)).toBe(false);
    expect([pct(0.123), pct(0.0456), pct(0.00123)]).toEqual(['12%', '4.6%', '0.12%']);
  });
});

describe('screenshots', () => {
  it('fits an image into a screen size without distortion, centred', () => {
    // 'fit' (src/ownScreen/tiles.ts): the scaled size, and the one tile's offset (negative: the image is centred in it).
    const fit = (w: number, h: number) => {
      const p = planTiles(w, h, { kind: 'fit' });
      return { x: 0 - p.tiles[0].x, y: 0 - p.tiles[0].y, w: p.width, h: p.height };
    };
    expect(fit(400, 256)).toEqual({ x: 0, y: 0, w: 200, h: 128 });
    expect(fit(480, 300)).toEqual({ x: 0, y: 1, w: 200, h: 125 });
    expect(fit(100, 400)).toEqual({ x: 34, y: 0, w: 52, h: 208 });
    expect(tilePlatform(1280, 800)).toBe('web');
    expect(tilePlatform(390, 844)).toBe('mobile');
  });
});

describe('playground words', () => {
  it('describes actions as a person would read them', () => {
    expect(describeAction({ type: 'CLICK', x: 10.4, y: 20.6 })).toBe('click at (10, 21)');
    expect(describeAction({ type: 'TYPE', text: 'hi' })).toBe('type “hi”');
    expect(describeAction({ type: 'SCROLL', direction: 'down' })).toBe('scroll down');
    expect(describeAction(null)).toMatch(/nothing/);
  });

  it('suggests the true next step in several styles, or clicks on labelled elements when it needs no point', () => {
    const task = taskFor('mail.delete', 3);
    const state = createWorld(task);
    const screen = screenOf(state);
    const next = nextStep({ task, state, history: [] });
    const s = suggestionsFor(screen, next, 1);
    expect(s.length).toBeGreaterThan(0);
    expect(new Set(s).size).toBe(s.length);
    if (next.kind === 'step' && next.step.targetId) expect(s.length).toBeGreaterThan(1);
    const fallback = suggestionsFor(screen, { kind: 'reached' }, 1);
    expect(fallback.length).toBeGreaterThan(0);
    for (const t of fallback) expect(t).toMatch(/^(click|tap|press|select|open|choose|hit)/i);
  });
});
