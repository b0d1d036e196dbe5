/**
 * What a file is, from its first bytes (its "magic number"), not from the
 * MIME type the browser or the operating system guessed from its name: a
 * PNG saved as "shot.jpg", a WebP with no type, or a screenshot tool's
 * untyped blob are all still images, and a text file named ".png" is not.
 * Plain data, no DOM: the page decodes whatever this recognises with
 * createImageBitmap, and the browser has the last word on whether it can.
 */
export type ImageFormat = 'png' | 'jpeg' | 'gif' | 'webp' | 'bmp' | 'avif' | 'ico';

export const IMAGE_FORMAT_NAMES: Readonly<Record<ImageFormat, string>> = {
  png: 'PNG',
  jpeg: 'JPEG',
  gif: 'GIF',
  webp: 'WebP',
  bmp: 'BMP',
  avif: 'AVIF',
  ico: 'ICO',
};

/** The types a file input offers to pick; sniffing, not this list, decides what is read. */
export const IMAGE_ACCEPT = 'image/*,.png,.jpg,.jpeg,.gif,.webp,.bmp,.avif,.ico';

const ascii = (b: Uint8Array, at: number, s: string) => b.length >= at + s.length && [...s].every((ch, i) => b[at + i] === ch.charCodeAt(0));
const bytesAt = (b: Uint8Array, at: number, want: readonly number[]) => b.length >= at + want.length && want.every((v, i) => b[at + i] === v);

/** The image format the bytes begin with, or null when they begin like none of them. */
export function sniffImageFormat(b: Uint8Array): ImageFormat | null {
  if (bytesAt(b, 0, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
  if (bytesAt(b, 0, [0xff, 0xd8, 0xff])) return 'jpeg';
  if (ascii(b, 0, 'GIF87a') || ascii(b, 0, 'GIF89a')) return 'gif';
  if (ascii(b, 0, 'RIFF') && ascii(b, 8, 'WEBP')) return 'webp';
  // "BM" alone is too weak (a text file may start so): the header's pixel-data offset must lie within the file's first few KB.
  if (ascii(b, 0, 'BM') && b.length >= 14) {
    const offset = b[10] | (b[11] << 8) | (b[12] << 16) | (b[13] << 24);
    if (offset >= 26 && offset < 4096) return 'bmp';
  }
  // ISO-BMFF: a box size, "ftyp", then the major brand (or a compatible one) saying AVIF.
  if (ascii(b, 4, 'ftyp')) {
    const size = Math.min(b.length, ((b[0] << 24) | (b[1] << 16) | (b[2] << 8) | b[3]) >>> 0 || b.length);
    for (let at = 8; at + 4 <= size; at += 4) if (ascii(b, at, 'avif') || ascii(b, at, 'avis')) return 'avif';
  }
  // ICO: reserved 0, type 1, then a count of images ≥ 1.
  if (bytesAt(b, 0, [0, 0, 1, 0]) && b.length >= 6 && (b[4] | (b[5] << 8)) > 0) return 'ico';
  return null;
}

/** A guess at what a non-image is, for an error a person can act on. */
export function describeNonImage(b: Uint8Array): string {
  if (b.length === 0) return 'an empty file';
  if (ascii(b, 0, '%PDF')) return 'a PDF document';
  if (bytesAt(b, 0, [0x50, 0x4b, 0x03, 0x04])) return 'a zip archive (or an Office document)';
  if (ascii(b, 4, 'ftyp')) return 'a video or HEIC photo (an ISO media file this page does not read)';
  const head = b.subarray(0, 512);
  const trimmed = new TextDecoder('utf-8', { fatal: false }).decode(head).trimStart().toLowerCase();
  if (trimmed.startsWith('<svg') || (trimmed.startsWith('<?xml') && trimmed.includes('<svg'))) return 'an SVG drawing (a vector image, not a screenshot)';
  if (trimmed.startsWith('<!doctype html') || trimmed.startsWith('<html')) return 'an HTML page (take a screenshot of it instead)';
  let printable = 0;
  for (const v of head) if (v === 9 || v === 10 || v === 13 || (v >= 32 && v < 127) || v >= 0xc2) printable++;
  if (printable / head.length > 0.95) return 'a text file';
  return 'not an image this page recognises';
}
