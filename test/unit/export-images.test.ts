/**
 * Issue 32: the screenshots of a trainer export. A run stores none, so the
 * export rebuilds each kept sample's screen from its task and step and has
 * it rendered; these tests check the PNG files (read back by Python's zlib,
 * not by the code that wrote them), that each row names the screen of its
 * own state at the screen's size, and that a renderer's or a run's faults
 * are reported rather than written. The real renderer's pixels are checked
 * in the browser (test/e2e/export-trl.spec.ts).
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { rgbPng } from '../../src/bytes/rgbPng';
import { buildTrainerExport } from '../../src/export/build';
import { screenOf } from '../../src/world/env';
import { stateBefore } from '../../src/world/suites';
import { SCREEN_SIZE } from '../../src/world/types';
import { pythonFiles } from '../../scripts/export/python-files';
import { standInRenderer, tinyRunBundle } from './export-fixtures';

/** Decodes a PNG with Python's zlib, checking every chunk's CRC; prints width, height and the sha256 of the RGB bytes. */
const DECODE = `
import struct, sys, zlib, hashlib
b = open(sys.argv[1], 'rb').read()
assert b[:8] == bytes([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), 'signature'
at, idat, ihdr = 8, b'', None
while at < len(b):
    n, kind = struct.unpack('>I4s', b[at:at + 8])
    data = b[at + 8:at + 8 + n]
    assert struct.unpack('>I', b[at + 8 + n:at + 12 + n])[0] == zlib.crc32(kind + data), 'crc of ' + kind.decode()
    if kind == b'IHDR': ihdr = struct.unpack('>IIBBBBB', data)
    if kind == b'IDAT': idat += data
    at += 12 + n
w, h, depth, colour, _, _, interlace = ihdr
assert (depth, colour, interlace) == (8, 2, 0), ihdr
raw = zlib.decompress(idat)
assert len(raw) == h * (w * 3 + 1), 'size'
rows = [raw[y * (w * 3 + 1):(y + 1) * (w * 3 + 1)] for y in range(h)]
assert all(r[0] == 0 for r in rows), 'filter'
print(w, h, hashlib.sha256(b''.join(r[1:] for r in rows)).hexdigest())
`;

function decode(png: Uint8Array): string {
  const dir = mkdtempSync(join(tmpdir(), 'coevo-png-'));
  writeFileSync(join(dir, 'a.png'), png);
  return execFileSync('python3', ['-c', DECODE, join(dir, 'a.png')], { encoding: 'utf8' }).trim();
}

const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

describe('exported screenshots', () => {
  it('rgbPng writes a PNG that Python reads back as the same RGB pixels', () => {
    const rgb = Uint8Array.from({ length: 7 * 5 * 3 }, (_, i) => (i * 37) % 256);
    expect(decode(rgbPng(rgb, 7, 5))).toBe(`7 5 ${sha(rgb)}`);
    expect(() => rgbPng(rgb, 7, 4)).toThrow(/105 bytes for 7×4/);
  });

  it("each row's image is its own state's screen, rendered at the screen's size", async () => {
    const bundle = await tinyRunBundle(40, 'img');
    const { files, summary } = await buildTrainerExport(bundle, 'trl', pythonFiles(), standInRenderer);
    expect(summary.skipped.noReplay).toBe(0);
    const byId = new Map(bundle.samples.map((s) => [s.id, s]));
    const rows = new TextDecoder().decode(files['datasets/d0/grounder_grpo.jsonl']).trim().split('\n').map((l) => JSON.parse(l) as { images: string[]; coevo_id: string; screen_width: number; screen_height: number });
    expect(rows.length).toBeGreaterThan(10);
    const platforms = new Set<string>();
    for (const row of rows) {
      const s = byId.get(row.coevo_id)!;
      platforms.add(s.platform);
      expect([row.screen_width, row.screen_height]).toEqual([SCREEN_SIZE[s.platform].width, SCREEN_SIZE[s.platform].height]);
      const [expected] = await standInRenderer([screenOf(stateBefore(s.task, s.stepIndex))]);
      expect(row.images).toEqual([`images/${expected.hash}.png`]);
      expect(Buffer.from(files[row.images[0]]).equals(Buffer.from(expected.png))).toBe(true);
    }
    expect(platforms).toEqual(new Set(['web', 'mobile']));
    const one = rows[0];
    expect(decode(files[one.images[0]]).split(' ').slice(0, 2)).toEqual([String(one.screen_width), String(one.screen_height)]);
    expect(summary.images).toBe(Object.keys(files).filter((p) => p.startsWith('images/')).length);
  });

  it('refuses screenshots of the wrong size or number, and counts samples whose task no longer replays', async () => {
    const bundle = await tinyRunBundle(12, 'bad');
    await expect(buildTrainerExport(bundle, 'swift', pythonFiles(), async (screens) => (await standInRenderer(screens)).map((s) => ({ ...s, width: s.width + 1 })))).rejects.toThrow(/screen was rendered at/);
    await expect(buildTrainerExport(bundle, 'swift', pythonFiles(), async (screens) => (await standInRenderer(screens)).slice(1))).rejects.toThrow(/screenshots for \d+ screens/);
    const kept = bundle.samples.filter((s) => s.kept);
    const gone = { ...bundle, samples: bundle.samples.map((s) => (s === kept[0] ? { ...s, task: { ...s.task, templateId: 'no.such-template', id: 'gone' } } : s)) };
    const { summary, files } = await buildTrainerExport(gone, 'swift', pythonFiles(), standInRenderer);
    expect(summary.skipped.noReplay).toBe(1);
    expect(new TextDecoder().decode(files['manifest.json'])).toContain('"noReplay": 1');
  });
});
