/**
 * Reading the zip container without trusting it. The central directory is
 * parsed first, so every entry's name and declared sizes are known (and can
 * be refused) before a byte is inflated; then each entry is inflated in small
 * steps into a buffer of exactly its declared size, and refused the moment it
 * would grow past it. A zip bomb therefore costs at most what it declares,
 * and what it may declare is capped (limits.ts).
 *
 * fflate's unzipSync inflates everything first and checks nothing (not even
 * CRCs), which is why this module exists.
 */
import { Inflate, strFromU8 } from 'fflate';
import { ARCHIVE_LIMITS, formatBytes } from './limits';
import { crc32, invalid, notAnExport, show, truncated } from './format';

/** One file of the zip as its central directory declares it. */
export interface ZipEntry {
  path: string;
  /** 0: stored, 8: deflated. */
  method: 0 | 8;
  crc32: number;
  compressedSize: number;
  /** The inflated size the directory declares: inflation never goes past it. */
  size: number;
  /** Where the entry's (compressed) data starts in the zip. */
  dataStart: number;
}

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
const ZIP64_MARK = 0xffffffff;

export function looksLikeZip(b: Uint8Array): boolean {
  // A local file header (PK\3\4), or the end record of an empty zip (PK\5\6).
  return b.length >= 4 && b[0] === 0x50 && b[1] === 0x4b && ((b[2] === 3 && b[3] === 4) || (b[2] === 5 && b[3] === 6));
}

/** The zip's entries from its central directory, each checked to lie inside the file; inflates nothing. */
export function readDirectory(bytes: Uint8Array): ZipEntry[] {
  if (!looksLikeZip(bytes)) throw notAnExport('it is not a zip file');
  if (bytes.length > ARCHIVE_LIMITS.archiveBytes) {
    throw invalid(`the file is ${formatBytes(bytes.length)}, more than the ${formatBytes(ARCHIVE_LIMITS.archiveBytes)} this app imports`);
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const end = findEnd(view);
  if (view.getUint16(end + 4, true) !== 0 || view.getUint16(end + 6, true) !== 0) throw invalid('it is a multi-part zip, which a run export never is');
  const count = view.getUint16(end + 10, true);
  const dirSize = view.getUint32(end + 12, true);
  const dirStart = view.getUint32(end + 16, true);
  if (count === 0xffff || dirSize === ZIP64_MARK || dirStart === ZIP64_MARK) throw tooBigForZip32();
  if (dirStart + dirSize > end) throw truncated();
  if (count > ARCHIVE_LIMITS.entries) throw invalid(`it holds ${count} files, more than the ${ARCHIVE_LIMITS.entries} a run export may hold`);

  const entries: ZipEntry[] = [];
  let at = dirStart;
  for (let i = 0; i < count; i++) {
    if (at + 46 > dirStart + dirSize || view.getUint32(at, true) !== CENTRAL) throw truncated();
    const flags = view.getUint16(at + 8, true);
    const method = view.getUint16(at + 10, true);
    const crc = view.getUint32(at + 16, true);
    const compressedSize = view.getUint32(at + 20, true);
    const size = view.getUint32(at + 24, true);
    const nameLength = view.getUint16(at + 28, true);
    const next = at + 46 + nameLength + view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
    const localStart = view.getUint32(at + 42, true);
    if (next > dirStart + dirSize) throw truncated();
    const path = entryName(bytes.subarray(at + 46, at + 46 + nameLength), (flags & 0x800) !== 0);
    if (compressedSize === ZIP64_MARK || size === ZIP64_MARK || localStart === ZIP64_MARK) throw tooBigForZip32();
    if (flags & 1) throw invalid(`${show(path)} is encrypted, which a run export never is`);
    if (method !== 0 && method !== 8) throw invalid(`${show(path)} is compressed with method ${method}; a run export uses only stored or deflated entries`);
    if (method === 0 && compressedSize !== size) throw truncated(`${path} is damaged`);
    entries.push({ path, method, crc32: crc, compressedSize, size, dataStart: dataStart(view, localStart, compressedSize, dirStart, path) });
    at = next;
  }
  checkNames(entries);
  return entries;
}

/**
 * Refuses what a whole archive declares past the limits: its total inflated
 * size, absolutely and as a multiple of the file's size (a zip bomb's mark).
 */
export function checkDeclaredTotal(entries: readonly ZipEntry[], archiveBytes: number): void {
  const total = entries.reduce((sum, e) => sum + e.size, 0);
  const { inflatedBytes, inflatedRatio, inflatedFloor } = ARCHIVE_LIMITS;
  const cap = Math.min(inflatedBytes, Math.max(inflatedFloor, inflatedRatio * archiveBytes));
  if (total > cap) {
    throw invalid(
      `its files would expand to ${formatBytes(total)}, more than the ${formatBytes(cap)} this app imports from a ${formatBytes(archiveBytes)} file ` +
        `(at most ${inflatedRatio} times the file's size, and ${formatBytes(inflatedBytes)} in all)`,
    );
  }
}

/** The entry's bytes: never more than its declared size, and refused unless they match its declared size and CRC-32. */
export function inflateEntry(bytes: Uint8Array, entry: ZipEntry): Uint8Array {
  const data = bytes.subarray(entry.dataStart, entry.dataStart + entry.compressedSize);
  const out = entry.method === 0 ? data.slice() : inflateBounded(data, entry);
  // fflate checks no CRCs: without this a damaged entry would read as other bytes.
  if (crc32(out) !== entry.crc32) throw truncated(`${entry.path} is damaged`);
  return out;
}

class Overflow extends Error {}

function inflateBounded(data: Uint8Array, entry: ZipEntry): Uint8Array {
  const out = new Uint8Array(entry.size);
  let filled = 0;
  const inflater = new Inflate((chunk) => {
    if (filled + chunk.length > out.length) throw new Overflow();
    out.set(chunk, filled);
    filled += chunk.length;
  });
  const step = ARCHIVE_LIMITS.inflateChunk;
  try {
    if (data.length === 0) inflater.push(data, true);
    for (let i = 0; i < data.length; i += step) inflater.push(data.subarray(i, i + step), i + step >= data.length);
  } catch (e) {
    if (e instanceof Overflow) {
      throw invalid(`${entry.path} expands past the ${formatBytes(entry.size)} its zip directory declares (a zip bomb, or a damaged file), so it was not read further`);
    }
    throw truncated(`${entry.path} is damaged`);
  }
  if (filled !== out.length) throw truncated(`${entry.path} is damaged`);
  return out;
}

function tooBigForZip32(): never {
  throw invalid('it is a zip64 file (entries or offsets past 4 GiB), larger than any run export this app imports');
}

/** The end-of-central-directory record's offset; a zip cut short has none. */
function findEnd(view: DataView): number {
  const last = view.byteLength - 22;
  for (let at = last; at >= 0 && at >= last - 0xffff; at--) {
    if (view.getUint32(at, true) === EOCD && at + 22 + view.getUint16(at + 20, true) <= view.byteLength) return at;
  }
  throw truncated();
}

function dataStart(view: DataView, localStart: number, compressedSize: number, dirStart: number, path: string): number {
  if (localStart + 30 > dirStart || view.getUint32(localStart, true) !== LOCAL) throw truncated(`${path} is damaged`);
  const start = localStart + 30 + view.getUint16(localStart + 26, true) + view.getUint16(localStart + 28, true);
  if (start + compressedSize > dirStart) throw truncated(`${path} is damaged`);
  return start;
}

function entryName(raw: Uint8Array, utf8: boolean): string {
  if (!utf8) return strFromU8(raw, true);
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(raw);
  } catch {
    throw invalid('an entry name is not UTF-8 text');
  }
}

/** Plain relative paths only: no '..' or '.' segments, no absolute or Windows paths, no control characters, no duplicates. */
function checkNames(entries: readonly ZipEntry[]): void {
  const seen = new Set<string>();
  for (const { path } of entries) {
    const segments = path.split('/');
    const plain =
      path.length > 0 &&
      path.length <= ARCHIVE_LIMITS.pathChars &&
      !/[\\:\u0000-\u001f\u007f]/.test(path) &&
      segments.every((s) => s !== '' && s !== '.' && s !== '..');
    if (!plain) throw invalid(`it holds an entry named ${show(path)}, which is not a plain path inside the export`);
    if (seen.has(path)) throw invalid(`it holds ${path} twice`);
    seen.add(path);
  }
}
