/**
 * Tools for the archive fuzz test: a zip writer that declares whatever sizes
 * and CRCs it is told (fflate's zipSync always tells the truth), a deflate
 * stream that inflates to gigabytes, and a byte-exact dump of a database.
 */
import { Deflate, deflateSync, inflateSync, unzipSync } from 'fflate';
import { openDB } from 'idb';
import { crc32 } from '../../src/coevo/archive';
import { concatBytes } from '../../src/bytes/concat';

export interface RawEntry {
  name: string;
  /** The entry's data as stored in the zip: raw deflate (method 8) or the bytes themselves (method 0). */
  data: Uint8Array;
  method: 0 | 8;
  /** What the directory declares: not necessarily the truth. */
  crc: number;
  size: number;
}

/** An entry that tells the truth about `bytes`. */
export function entry(name: string, bytes: Uint8Array, method: 0 | 8 = 8): RawEntry {
  return { name, data: method === 8 ? deflateSync(bytes) : bytes, method, crc: crc32(bytes), size: bytes.length };
}

/** The entries of a zip, re-deflated, in its order. */
export function entriesOf(zip: Uint8Array): RawEntry[] {
  return Object.entries(unzipSync(zip)).map(([name, bytes]) => entry(name, bytes, name.endsWith('.png') ? 0 : 8));
}

export function writeZip(entries: readonly RawEntry[]): Uint8Array {
  const enc = new TextEncoder();
  const parts: Uint8Array[] = [];
  const central: Uint8Array[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = enc.encode(e.name);
    const local = new Uint8Array(30 + name.length);
    const lv = new DataView(local.buffer);
    lv.setUint32(0, 0x04034b50, true);
    lv.setUint16(4, 20, true);
    lv.setUint16(6, 0x800, true);
    lv.setUint16(8, e.method, true);
    lv.setUint32(14, e.crc, true);
    lv.setUint32(18, e.data.length, true);
    lv.setUint32(22, e.size, true);
    lv.setUint16(26, name.length, true);
    local.set(name, 30);
    const cd = new Uint8Array(46 + name.length);
    const cv = new DataView(cd.buffer);
    cv.setUint32(0, 0x02014b50, true);
    cv.setUint16(4, 20, true);
    cv.setUint16(6, 20, true);
    cv.setUint16(8, 0x800, true);
    cv.setUint16(10, e.method, true);
    cv.setUint32(16, e.crc, true);
    cv.setUint32(20, e.data.length, true);
    cv.setUint32(24, e.size, true);
    cv.setUint16(28, name.length, true);
    cv.setUint32(42, offset, true);
    cd.set(name, 46);
    parts.push(local, e.data);
    central.push(cd);
    offset += local.length + e.data.length;
  }
  const cdSize = central.reduce((n, c) => n + c.length, 0);
  const end = new Uint8Array(22);
  const ev = new DataView(end.buffer);
  ev.setUint32(0, 0x06054b50, true);
  ev.setUint16(8, entries.length, true);
  ev.setUint16(10, entries.length, true);
  ev.setUint32(12, cdSize, true);
  ev.setUint32(16, offset, true);
  return concatBytes([...parts, ...central, end]);
}


/**
 * A raw deflate stream of `repeats` × 64 MiB of zeros: one 64 MiB block run
 * is deflated once, flushed to a byte boundary, and repeated (its matches
 * reach back only into zeros, so every copy decodes the same). About 65 KB
 * per copy: 75 copies make a 4.9 MB stream that inflates to 4.7 GiB.
 */
export function zerosBomb(repeats: number): { stream: Uint8Array; inflatedBytes: number } {
  const chunks: Uint8Array[] = [];
  const d = new Deflate({ level: 9 }, (c) => chunks.push(c));
  d.push(new Uint8Array(64 * 1024 * 1024));
  d.flush();
  const block = concatBytes(chunks);
  chunks.length = 0;
  d.push(new Uint8Array(0), true);
  const tail = concatBytes(chunks);
  // One copy and the tail inflate to exactly 64 MiB of zeros: the stream is what it claims.
  const once = inflateSync(concatBytes([block, tail]));
  if (once.length !== 64 * 1024 * 1024 || once.some((b) => b !== 0)) throw new Error('the bomb block does not inflate to 64 MiB of zeros');
  return { stream: concatBytes([...Array.from({ length: repeats }, () => block), tail]), inflatedBytes: repeats * 64 * 1024 * 1024 };
}

/** Every object store of a database, keys and values, blobs as their bytes: two equal dumps mean byte-identical contents. */
export async function dumpDatabase(name: string): Promise<string> {
  const db = await openDB(name);
  try {
    const out: Record<string, unknown> = {};
    for (const storeName of [...db.objectStoreNames].sort()) {
      const tx = db.transaction(storeName, 'readonly');
      const [keys, values] = await Promise.all([tx.store.getAllKeys(), tx.store.getAll()]);
      out[storeName] = await Promise.all(keys.map(async (k, i) => [k, await plain(values[i])]));
    }
    return JSON.stringify(out, (_k, v: unknown) => (typeof v === 'number' && !Number.isFinite(v) ? `#${v}` : v));
  } finally {
    db.close();
  }
}

async function plain(v: unknown): Promise<unknown> {
  if (v instanceof Blob) return { blob: v.type, bytes: hex(new Uint8Array(await v.arrayBuffer())) };
  if (v instanceof ArrayBuffer) return { buffer: hex(new Uint8Array(v)) };
  if (ArrayBuffer.isView(v)) return { view: hex(new Uint8Array(v.buffer, v.byteOffset, v.byteLength)) };
  if (Array.isArray(v)) return Promise.all(v.map(plain));
  if (typeof v === 'object' && v !== null) return Object.fromEntries(await Promise.all(Object.entries(v).map(async ([k, x]) => [k, await plain(x)])));
  return v;
}

function hex(b: Uint8Array): string {
  return Buffer.from(b).toString('hex');
}
