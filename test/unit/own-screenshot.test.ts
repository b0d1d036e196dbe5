/**
 * The own-screenshot path's engine (src/ownScreen, issue 30): formats known
 * by their bytes, the tiling geometry at native scale, points mapped back to
 * the screenshot's own px, the area resize, and combining tiles by logit
 * with the confidence threshold.
 */
import { describe, expect, it } from 'vitest';
import { describeNonImage, sniffImageFormat } from '../../src/ownScreen/sniff';
import { MAX_TILES, TILE_OVERLAP, WORLD_TEXT_PX, planTiles, tileInImage, tileStarts, toImagePoint } from '../../src/ownScreen/tiles';
import { cutTile, flattenOnWhite, resizeRgba } from '../../src/ownScreen/pixels';
import { CONFIDENT_MARGIN, SPELL_WEIGHT, bestInTile, combineTiles, type TileScores } from '../../src/ownScreen/combine';
import { CELL, GRID_CELLS, GRID_COLS, validCells } from '../../src/models/canvas';

const bytes = (...parts: (number[] | string)[]) => new Uint8Array(parts.flatMap((p) => (typeof p === 'string' ? [...p].map((c) => c.charCodeAt(0)) : p)));

describe('sniffImageFormat', () => {
  it('knows each format by its first bytes', () => {
    expect(sniffImageFormat(bytes([0x89], 'PNG', [0x0d, 0x0a, 0x1a, 0x0a, 0, 0]))).toBe('png');
    expect(sniffImageFormat(bytes([0xff, 0xd8, 0xff, 0xe0]))).toBe('jpeg');
    expect(sniffImageFormat(bytes('GIF89a', [1, 0]))).toBe('gif');
    expect(sniffImageFormat(bytes('GIF87a'))).toBe('gif');
    expect(sniffImageFormat(bytes('RIFF', [1, 2, 3, 4], 'WEBPVP8 '))).toBe('webp');
    expect(sniffImageFormat(bytes('BM', [70, 0, 0, 0, 0, 0, 0, 0, 54, 0, 0, 0]))).toBe('bmp');
    expect(sniffImageFormat(bytes([0, 0, 0, 28], 'ftyp', 'avif', [0, 0, 0, 0], 'mif1'))).toBe('avif');
    expect(sniffImageFormat(bytes([0, 0, 0, 28], 'ftyp', 'mif1', [0, 0, 0, 0], 'avif'))).toBe('avif');
    expect(sniffImageFormat(bytes([0, 0, 1, 0, 1, 0, 16, 16]))).toBe('ico');
  });

  it('refuses what only looks alike, and names what it is', () => {
    expect(sniffImageFormat(bytes('BM is a text file that starts with BM'))).toBeNull();
    expect(sniffImageFormat(bytes('RIFF', [1, 2, 3, 4], 'WAVE'))).toBeNull();
    expect(sniffImageFormat(bytes([0, 0, 0, 28], 'ftyp', 'isom'))).toBeNull();
    expect(sniffImageFormat(bytes('hello'))).toBeNull();
    expect(sniffImageFormat(new Uint8Array())).toBeNull();
    expect(describeNonImage(bytes('hello world\n'))).toBe('a text file');
    expect(describeNonImage(new Uint8Array())).toBe('an empty file');
    expect(describeNonImage(bytes('%PDF-1.7'))).toBe('a PDF document');
    expect(describeNonImage(bytes('<svg xmlns="http://www.w3.org/2000/svg"/>'))).toContain('SVG');
    expect(describeNonImage(bytes('<!DOCTYPE html><html>'))).toContain('HTML');
    expect(describeNonImage(bytes([0, 1, 2, 3, 250, 251]))).toBe('not an image this page recognises');
  });
});

describe('tiling', () => {
  it('tile starts cover the length with at least the overlap, the last flush with the end', () => {
    for (const [length, tile, overlap] of [[731, 200, 64], [457, 128, 40], [201, 200, 64], [2000, 120, 40]] as const) {
      const s = tileStarts(length, tile, overlap);
      expect(s[0]).toBe(0);
      expect(s[s.length - 1]).toBe(length - tile);
      for (let i = 1; i < s.length; i++) expect(s[i - 1] + tile - s[i]).toBeGreaterThanOrEqual(overlap);
    }
    // Shorter than a tile: one tile, the image centred in it.
    expect(tileStarts(100, 200, 64)).toEqual([-50]);
  });

  it('a 1280×800 screenshot at native scale (14-px text) becomes overlapping web screens', () => {
    const plan = planTiles(1280, 800, { kind: 'text', textPx: 14 });
    expect(plan.platform).toBe('web');
    expect(plan.scale).toBeCloseTo(WORLD_TEXT_PX / 14);
    expect(plan.width).toBe(731);
    expect(plan.height).toBe(457);
    expect(plan.tiles.length).toBe(plan.rows * plan.cols);
    expect(plan.tiles.length).toBeLessThanOrEqual(MAX_TILES);
    expect(plan.lowered).toBeNull();
    // Every pixel of the scaled image lies in some tile, and any 60×36 box lies wholly inside one.
    for (let y = 0; y + 36 <= plan.height; y += 7) {
      for (let x = 0; x + 60 <= plan.width; x += 11) {
        expect(plan.tiles.some((t) => t.x <= x && t.y <= y && x + 60 <= t.x + plan.tileWidth && y + 36 <= t.y + plan.tileHeight)).toBe(true);
      }
    }
    expect(TILE_OVERLAP.x).toBeGreaterThanOrEqual(60);
  });

  it('fit puts the whole image into one letterboxed screen; portrait images get mobile screens', () => {
    const fit = planTiles(480, 300, { kind: 'fit' });
    expect(fit.tiles).toHaveLength(1);
    expect([fit.width, fit.height]).toEqual([200, 125]);
    expect(fit.tiles[0]).toMatchObject({ x: 0, y: -1 });
    const phone = planTiles(390, 844, { kind: 'text', textPx: 16 });
    expect(phone.platform).toBe('mobile');
    expect([phone.tileWidth, phone.tileHeight]).toEqual([120, 208]);
    const one = planTiles(1, 1, { kind: 'text', textPx: 14 });
    expect(one.tiles).toHaveLength(1);
    expect([one.width, one.height]).toEqual([1, 1]);
  });

  it('a huge screenshot is scaled down to the tile budget, and the plan says so', () => {
    const plan = planTiles(7680, 4320, { kind: 'text', textPx: 14 });
    expect(plan.tiles.length).toBeLessThanOrEqual(MAX_TILES);
    expect(plan.scale).toBeLessThan(WORLD_TEXT_PX / 14);
    expect(plan.lowered).toMatch(/tiles/);
    expect(() => planTiles(0, 10, { kind: 'fit' })).toThrow(/1×1/);
    expect(() => planTiles(10, 10, { kind: 'text', textPx: 0 })).toThrow(/textPx/);
  });

  it('maps a tile point back to the screenshot px, inside the image', () => {
    const plan = planTiles(1280, 800, { kind: 'text', textPx: 14 });
    const t = plan.tiles[plan.tiles.length - 1];
    const p = toImagePoint(plan, t, 100, 64, { width: 1280, height: 800 });
    expect(p.x).toBeCloseTo(((t.x + 100) * 1280) / plan.width, 6);
    expect(p.y).toBeCloseTo(((t.y + 64) * 800) / plan.height, 6);
    // The bottom-right tile's far corner is the image's corner.
    expect(toImagePoint(plan, t, plan.tileWidth, plan.tileHeight, { width: 1280, height: 800 })).toEqual({ x: 1280, y: 800 });
    // Letterboxed: a point in the white bar is pulled onto the image.
    const fit = planTiles(480, 300, { kind: 'fit' });
    expect(toImagePoint(fit, fit.tiles[0], 100, 0, { width: 480, height: 300 })).toEqual({ x: 240, y: 0 });
    const rect = tileInImage(plan, plan.tiles[0], { width: 1280, height: 800 });
    expect(rect.x).toBe(0);
    expect(rect.width).toBeCloseTo((200 * 1280) / plan.width, 6);
  });
});

describe('pixels', () => {
  it('area resize keeps the mean and halves a checkerboard into grey', () => {
    const w = 4;
    const rgba = new Uint8Array(w * w * 4);
    for (let i = 0; i < w * w; i++) rgba.fill((i + Math.floor(i / w)) % 2 ? 255 : 0, i * 4, i * 4 + 3), (rgba[i * 4 + 3] = 255);
    const half = resizeRgba({ rgba, width: w, height: w }, 2, 2);
    expect([...half.rgba.subarray(0, 4)]).toEqual([128, 128, 128, 255]);
    const up = resizeRgba({ rgba: new Uint8Array([10, 20, 30, 255]), width: 1, height: 1 }, 3, 2);
    expect(up.rgba.length).toBe(24);
    expect([...up.rgba.subarray(20, 24)]).toEqual([10, 20, 30, 255]);
    const odd = resizeRgba({ rgba: new Uint8Array(7 * 5 * 4).fill(200), width: 7, height: 5 }, 3, 2);
    expect(odd.rgba.every((v) => v === 200)).toBe(true);
  });

  it('transparency is flattened on white; a tile past the image edge is white', () => {
    const flat = flattenOnWhite({ rgba: new Uint8Array([0, 0, 0, 0, 0, 0, 0, 255]), width: 2, height: 1 });
    expect([...flat.rgba]).toEqual([255, 255, 255, 255, 0, 0, 0, 255]);
    const img = { rgba: new Uint8Array(3 * 2 * 4).fill(7), width: 3, height: 2 };
    const tile = cutTile(img, { tileWidth: 5, tileHeight: 4 }, { x: -1, y: -1 });
    const at = (x: number, y: number) => tile.rgba[(y * 5 + x) * 4];
    expect([at(0, 0), at(1, 1), at(3, 2), at(4, 2), at(1, 3)]).toEqual([255, 7, 7, 255, 255]);
  });
});

describe('combining tiles', () => {
  // Two tiles side by side at scale 1 (a hand-made plan: planTiles would overlap them).
  const plan = { ...planTiles(400, 128, { kind: 'text', textPx: 8 }), tiles: [0, 200].map((x, i) => ({ index: i, row: 0, col: i, x, y: 0 })) };
  const flat = (): TileScores => ({ logits: new Float32Array(GRID_CELLS).map((_, i) => (validCells('web')[i] ? 0 : -1e9)), offsets: new Float32Array(GRID_CELLS * 2).fill(0.5) });

  it('the highest logit over all tiles wins, in image px; confidence is the margin over a blank screen', () => {
    const a = flat();
    const b = flat();
    a.logits[2 * GRID_COLS + 3] = 6;
    b.logits[5 * GRID_COLS + 10] = 9;
    const c = combineTiles(plan, [a, b], flat());
    expect(c.best.tile).toBe(1);
    expect([c.best.x, c.best.y]).toEqual([10.5 * CELL, 5.5 * CELL]);
    expect(toImagePoint(plan, plan.tiles[1], c.best.x, c.best.y, { width: 400, height: 128 })).toEqual({ x: 284, y: 44 });
    expect(c.margin).toBe(9);
    expect(c.confident).toBe(9 >= CONFIDENT_MARGIN);
    expect(c.perTile[0]?.score).toBe(6);
    // An image the grounder likes no more than a blank screen: margin 0, not confident.
    const none = combineTiles(plan, [flat(), flat()], flat());
    expect(none.margin).toBe(0);
    expect(none.confident).toBe(false);
    expect(none.best.mass).toBeLessThanOrEqual(9 / 400 + 1e-9);
  });

  it('across tiles the spelled match outweighs the logit; the confidence stays on the logit; a flat spelled map changes nothing', () => {
    const spelled = (): Float32Array => new Float32Array(GRID_CELLS).fill(-8);
    const a = { ...flat(), spelled: spelled() };
    const b = { ...flat(), spelled: spelled() };
    a.logits[2 * GRID_COLS + 3] = 9; // the higher logit: a menu item the position prior likes
    b.logits[5 * GRID_COLS + 10] = 6; // the button whose letters spell the target
    b.spelled[5 * GRID_COLS + 10] = -0.5;
    a.spelled[2 * GRID_COLS + 3] = -3;
    const c = combineTiles(plan, [a, b], flat());
    expect(c.best.tile).toBe(1);
    expect(c.best.score).toBeCloseTo(6 - 0.5 * SPELL_WEIGHT, 5);
    expect(c.best.logit).toBe(6);
    expect(c.margin).toBe(6);
    // Weight 0: the logits alone, as before the spelled match was read back.
    expect(combineTiles(plan, [a, b], flat(), CONFIDENT_MARGIN, 0).best.tile).toBe(0);
    // An instruction that spells nothing has a flat 0 map: the logit decides.
    const flatSpell = combineTiles(plan, [{ ...a, spelled: new Float32Array(GRID_CELLS) }, { ...b, spelled: new Float32Array(GRID_CELLS) }], flat());
    expect(flatSpell.best.tile).toBe(0);
    expect(() => combineTiles(plan, [a, b], flat(), CONFIDENT_MARGIN, -1)).toThrow(/spell weight must be a number ≥ 0/);
    expect(() => bestInTile(plan, plan.tiles[0], { ...a, spelled: new Float32Array(3) })).toThrow(/3 spelled-match values/);
  });

  it('cells on the white margin around a small image cannot win', () => {
    const small = planTiles(40, 40, { kind: 'text', textPx: 8 }); // centred: the image covers tile x 80–120, y 44–84
    const s = flat();
    s.logits[0] = 50; // the corner, outside the image
    s.logits[7 * GRID_COLS + 12] = 1; // inside
    const best = bestInTile(small, small.tiles[0], s);
    expect(best?.cell).toBe(7 * GRID_COLS + 12);
    // The margin still counts in the confidence: the mass is spread over the whole screen.
    expect(best!.mass).toBeLessThan(0.01);
  });
});

describe('reading an instruction as people type it', () => {
  it('quotes the target text so the grammar, and the grounder, read it', async () => {
    const { readLoosely } = await import('../../src/text/looseInstruction');
    const { parseInstruction } = await import('../../src/text/grammar');
    expect(readLoosely('click the Cancel button')).toBe('click the "Cancel" button');
    expect(readLoosely('Tap the Sign in link.')).toBe('tap the "Sign in" link');
    expect(readLoosely('click Settings')).toBe('click "Settings"');
    expect(readLoosely('press the “Help” button')).toBe('press the "Help" button');
    // What already parses is kept as written; what cannot be read stays as it was.
    expect(readLoosely('click the element that says "Save"')).toBe('click the element that says "Save"');
    expect(readLoosely('tap the search icon')).toBe('tap the search icon');
    expect(readLoosely('do something nice')).toBe('do something nice');
    for (const s of ['click the Cancel button', 'click Settings']) expect(parseInstruction(readLoosely(s))?.ref).toMatchObject({ style: 'text' });
  });
});

describe('what the page says about a grounded screenshot', () => {
  it('names the file, the scale and tiles, the point in image px, the tile and the confidence', async () => {
    const { describeFile, describePoint, describeScaling } = await import('../../src/ui/playground/imageNotes');
    expect(describeFile('a.png', 'webp', 1280, 800, { width: 1280, height: 800 })).toBe('“a.png”, a WebP of 1280×800 px.');
    expect(describeFile('big.png', 'png', 8000, 6000, { width: 4618, height: 3464 })).toContain('read at 4618×3464');
    const plan = planTiles(1280, 800, { kind: 'text', textPx: 14 });
    const { tiles, ...info } = plan;
    expect(describeScaling({ plan: info, source: { width: 1280, height: 800 } })).toBe('Scaled ×0.57 to 731×457 and cut into 25 overlapping web screens of 200×128 (5 rows × 5 columns).');
    const answer = { point: { x: 612.4, y: 388.6 }, tile: 7, tiles: tiles.map(() => ({ x: 0, y: 0, width: 1, height: 1 })), plan: info, confidence: 11.2, confident: true, threshold: 5, ms: 2800 };
    expect(describePoint(answer)).toBe("Point (612, 389) in your image's pixels in tile 8 of 25 (row 2, column 3); confidence 11.20; 5.00 or more counts as confident. 2.8 s.");
    expect(describePoint({ ...answer, confident: false, confidence: 0 })).toMatch(/^The grounder found nothing confident here \(confidence 0\.00; .*\(612, 389\) in tile 8 of 25/);
  });
});
