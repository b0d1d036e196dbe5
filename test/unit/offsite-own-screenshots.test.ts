/**
 * The data owner's own screenshots as offsite tuning's private set: a marked
 * screenshot becomes the grounder tile that holds its target
 * (ownScreen/privateTile.ts) with the box in the tile's px, and a set of
 * them splits by screenshot into tuning and test items whose screens paint
 * as their own pixels (offsite/ownPrivateSet.ts). The whole path in the
 * app: ui-offsite.spec.ts.
 */
import { describe, expect, it } from 'vitest';
import { checkOffsiteOptions, OFFSITE_DEFAULTS } from '../../src/offsite/jobTypes';
import { MIN_OWN_SHOTS, ownPrivateSet } from '../../src/offsite/ownPrivateSet';
import { canvasFromRgba } from '../../src/models/canvas';
import { privateTile, tileForBox } from '../../src/ownScreen/privateTile';
import { planTiles } from '../../src/ownScreen/tiles';
import type { Screen } from '../../src/world/types';

/** A white w×h image with a red rectangle. */
function image(w: number, h: number, red: { x: number; y: number; w: number; h: number }) {
  const rgba = new Uint8Array(w * h * 4).fill(255);
  for (let y = red.y; y < red.y + red.h; y++) for (let x = red.x; x < red.x + red.w; x++) rgba.set([220, 20, 20, 255], (y * w + x) * 4);
  return { rgba, width: w, height: h };
}
const redIn = (t: { rgba: Uint8Array; width: number }, x: number, y: number) => t.rgba[(Math.round(y) * t.width + Math.round(x)) * 4] === 220;

describe('a marked screenshot as a grounder tile', () => {
  const box = { x: 1000, y: 600, w: 84, h: 28 };
  const shot = { image: image(1280, 800, box), source: { width: 1280, height: 800 }, scale: { kind: 'text' as const, textPx: 14 }, instruction: 'click the Cancel button', box };

  it('cuts the tile that holds the box at the Playground’s scale, with the box in the tile’s px over the same pixels', () => {
    const t = privateTile(shot);
    expect([t.platform, t.width, t.height]).toEqual(['web', 200, 128]);
    const k = 8 / 14;
    expect(t.box.w).toBeCloseTo(84 * k, 1); // the scaled image is whole px: 731 of 731.4
    expect(t.box.h).toBeCloseTo(28 * k, 1);
    // Inside the tile, and red at its centre, white well outside it.
    expect(t.box.x).toBeGreaterThanOrEqual(0);
    expect(t.box.x + t.box.w).toBeLessThanOrEqual(200);
    expect(redIn(t, t.box.x + t.box.w / 2, t.box.y + t.box.h / 2)).toBe(true);
    expect(redIn(t, (t.box.x + t.box.w + 200) / 2 + 5, t.box.y + t.box.h / 2)).toBe(false);
    expect(t.instruction).toBe('click the "Cancel" button');
  });

  it('reads the box in the file’s px when the pixels were shrunk from a larger file', () => {
    // The same page read at half size: the tile and box come out the same.
    const half = { ...shot, image: image(640, 400, { x: 500, y: 300, w: 42, h: 14 }) };
    const a = privateTile(shot);
    const b = privateTile(half);
    expect(b.box.x).toBeCloseTo(a.box.x, 0);
    expect(b.box.w).toBeCloseTo(a.box.w, 0);
    expect(redIn(b, b.box.x + b.box.w / 2, b.box.y + b.box.h / 2)).toBe(true);
  });

  it('prefers a tile that holds the whole box, nearest its centre; a box larger than any tile takes the tile holding most of it', () => {
    const plan = planTiles(1280, 800, { kind: 'text', textPx: 14 });
    const t = tileForBox(plan, { x: 10, y: 10, w: 20, h: 10 });
    expect([t.x, t.y]).toEqual([0, 0]);
    const big = tileForBox(plan, { x: 0, y: 0, w: plan.width, h: 60 });
    expect(big.y).toBe(0);
  });

  it('refuses an empty or outside box and an empty instruction, saying what to do', () => {
    expect(() => privateTile({ ...shot, box: { x: 5, y: 5, w: 0, h: 10 } })).toThrow(/drag a box over the target/);
    expect(() => privateTile({ ...shot, box: { x: 1300, y: 5, w: 10, h: 10 } })).toThrow(/outside the 1280×800 screenshot/);
    expect(() => privateTile({ ...shot, instruction: '  ' })).toThrow(/instruction is empty/);
  });
});

describe('the own-screenshot private set', () => {
  const tiles = Array.from({ length: 6 }, (_, i) => ({ platform: 'web' as const, ...image(200, 128, { x: 10 * i, y: 20, w: 30, h: 12 }), instruction: `click the "B${i}" button`, box: { x: 10 * i, y: 20, w: 30, h: 12 } }));

  it('splits by screenshot, deterministically, and paints each screen as its own pixels', () => {
    const a = ownPrivateSet(tiles, 77);
    const b = ownPrivateSet(tiles, 77);
    expect(a.test.map((x) => x.taskId)).toEqual(b.test.map((x) => x.taskId));
    expect(a.test).toHaveLength(3);
    expect(a.train).toHaveLength(3);
    expect(new Set([...a.train, ...a.test].map((x) => x.taskId)).size).toBe(6);
    const world = (_s: Screen) => new Float32Array([42]);
    const paint = a.paint(world);
    for (const item of [...a.train, ...a.test]) {
      const i = Number(item.taskId.slice(4));
      expect(item.box).toEqual(tiles[i].box);
      expect(item.screen.elements[0].box).toEqual(tiles[i].box);
      expect(paint(item.screen)).toEqual(canvasFromRgba(tiles[i].rgba, 200, 128));
    }
    // Any other screen is the world's.
    expect(paint({ ...a.test[0].screen })).toEqual(new Float32Array([42]));
  });

  it(`needs ${MIN_OWN_SHOTS} screenshots, and keeps two for testing and two for tuning at least`, () => {
    expect(() => ownPrivateSet(tiles.slice(0, 3), 1)).toThrow(/3 marked screenshot\(s\); mark at least 4 in the Playground/);
    const four = ownPrivateSet(tiles.slice(0, 4), 1);
    expect([four.train.length, four.test.length]).toEqual([2, 2]);
  });

  it('is a grounder option: the worker refuses it for the planner', () => {
    const g = { ...OFFSITE_DEFAULTS.grounder, agent: 'grounder' as const, preset: 'tiny' as const, lora: null, privateSet: 'own-screenshots' as const };
    expect(() => checkOffsiteOptions(g)).not.toThrow();
    expect(() => checkOffsiteOptions({ ...g, ...OFFSITE_DEFAULTS.planner, agent: 'planner' })).toThrow(/own-screenshots is for the grounder/);
  });
});
