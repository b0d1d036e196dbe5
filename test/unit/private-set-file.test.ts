import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { rgbPng } from '../../src/bytes/rgbPng';
import { checkPrivateSetSize, PRIVATE_SET_FORMAT, PRIVATE_SET_LIMITS, PrivateSetFileError, readPrivateSet, writePrivateSet } from '../../src/ownScreen/privateSetFile';
import type { PrivateShotRecord } from '../../src/store/schema';
import { Store } from '../../src/store/store';

let n = 0;
const freshName = () => `coevo-private-set-${++n}`;

function shot(i: number, width = 40, height = 30): PrivateShotRecord {
  const rgb = new Uint8Array(width * height * 3).map((_, k) => (k * 7 + i * 31) & 0xff);
  const png = rgbPng(rgb, width, height);
  return {
    id: `shot-${i}`,
    createdAt: 1_000 + i,
    name: `screen-${i}.png`,
    bytes: png.slice().buffer,
    width,
    height,
    scale: i % 2 ? { kind: 'fit' } : { kind: 'text', textPx: 14 },
    instruction: `click the button ${i}`,
    box: { x: 2 + i, y: 3, w: 10, h: 8 },
  };
}

const bytesOf = (r: PrivateShotRecord) => [...new Uint8Array(r.bytes)];
const edit = (text: string, f: (doc: { shots: Record<string, unknown>[]; [k: string]: unknown }) => void): string => {
  const doc = JSON.parse(text);
  f(doc);
  return JSON.stringify(doc);
};

describe('the private-set file', () => {
  it('gives back every screenshot, its bytes and its marking, exactly', () => {
    const shots = [shot(1), shot(2), shot(3, 64, 48)];
    const back = readPrivateSet(writePrivateSet(shots, 5));
    expect(back.map(({ bytes, ...rest }) => rest)).toEqual(shots.map(({ bytes, ...rest }) => rest));
    expect(back.map(bytesOf)).toEqual(shots.map(bytesOf));
    expect(JSON.parse(writePrivateSet(shots, 5))).toMatchObject({ format: PRIVATE_SET_FORMAT, version: 1, exportedAt: 5 });
  });

  it('refuses a damaged or foreign file whole, naming the first fault', () => {
    const good = writePrivateSet([shot(1), shot(2)]);
    const cases: [string, string, RegExp][] = [
      ['cut short', good.slice(0, good.length / 2), /not JSON/],
      ['another JSON file', JSON.stringify({ runId: 'x' }), /does not say "format": "coevo-private-set"/],
      ['a newer version', edit(good, (d) => (d.version = 2)), /version 2, and this app reads version 1/],
      ['no list', edit(good, (d) => (d.shots = {} as never)), /no list of shots/],
      ['a box outside its image', edit(good, (d) => ((d.shots[1].box as { x: number }).x = 35)), /screenshot 2 \(screen-2\.png\)'s box 10×8 at \(35, 3\) does not lie within its 40×30 image/],
      ['a box of no size', edit(good, (d) => ((d.shots[0].box as { w: number }).w = 0)), /screenshot 1 \(screen-1\.png\) has no box/],
      ['an image that is not base64', edit(good, (d) => (d.shots[0].image = 'not base64!')), /its image is not base64/],
      ['bytes that are no image', edit(good, (d) => (d.shots[0].image = btoa('hello, world'))), /does not begin like any image format/],
      ['a bad scale', edit(good, (d) => (d.shots[0].scale = { kind: 'text', textPx: -1 })), /has scale .*"kind": "fit"/],
      ['no instruction', edit(good, (d) => (d.shots[1].instruction = '  ')), /screenshot 2 has no instruction/],
      ['a fractional width', edit(good, (d) => (d.shots[0].width = 40.5)), /width is 40\.5, not a whole number of pixels/],
      ['a repeated id', edit(good, (d) => (d.shots[1].id = d.shots[0].id)), /screenshot 2 repeats the id shot-1/],
    ];
    for (const [what, text, why] of cases) {
      let caught: unknown = null;
      try {
        readPrivateSet(text);
      } catch (e) {
        caught = e;
      }
      expect(caught, what).toBeInstanceOf(PrivateSetFileError);
      expect((caught as Error).message, what).toMatch(why);
      expect((caught as Error).message, what).toMatch(/Nothing was added\.$/);
    }
    // Too large a file is refused by its size, before it is read.
    expect(() => checkPrivateSetSize(PRIVATE_SET_LIMITS.fileBytes + 1)).toThrow(/larger than the 256 MB this app reads\. Nothing was added\.$/);
    expect(() => checkPrivateSetSize(PRIVATE_SET_LIMITS.fileBytes)).not.toThrow();
  });

  it('adds what is new in one transaction and skips what the browser already keeps', async () => {
    const store = await Store.open(freshName());
    await store.putPrivateShot(shot(1));
    const file = readPrivateSet(writePrivateSet([shot(1), shot(2), shot(3)]));
    expect(await store.addPrivateShots(file)).toEqual({ added: 2, skipped: 1 });
    const kept = await store.listPrivateShots();
    expect(kept.map((r) => r.id)).toEqual(['shot-1', 'shot-2', 'shot-3']);
    expect(kept.map(bytesOf)).toEqual([shot(1), shot(2), shot(3)].map(bytesOf));
    expect(await store.addPrivateShots(file)).toEqual({ added: 0, skipped: 3 });
    store.close();
  });

  it('adds none of a file when one of its screenshots cannot be stored', async () => {
    const store = await Store.open(freshName());
    // A record without its key path makes IndexedDB refuse that put: the two before it must go too.
    const broken = { ...shot(3), id: undefined } as unknown as PrivateShotRecord;
    await expect(store.addPrivateShots([shot(1), shot(2), broken])).rejects.toThrow(/Adding the private set failed, so none of it was added/);
    expect(await store.countPrivateShots()).toBe(0);
    store.close();
  });
});
