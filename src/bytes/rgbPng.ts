/**
 * 8-bit RGB pixels as a PNG file, written here rather than by the browser
 * (canvas.convertToBlob): the bytes then depend on the pixels alone, so the
 * app's export and the command line's give byte-equal files, and so does
 * any Chromium build. No alpha channel: the grounder reads RGB only
 * (src/models/canvas.ts canvasFromRgba), and a PNG of exactly those values
 * is what a trainer should read. Rows are unfiltered and the data is
 * deflated with fflate at a fixed level, so equal pixels give equal bytes.
 */
import { zlibSync } from 'fflate';
import { concatBytes } from './concat';
import { crc32 } from './crc32';

const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  for (let i = 0; i < 4; i++) out[4 + i] = type.charCodeAt(i);
  out.set(data, 8);
  view.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
  return out;
}

export function rgbPng(rgb: Uint8Array, width: number, height: number): Uint8Array {
  if (!Number.isInteger(width) || !Number.isInteger(height) || width <= 0 || height <= 0) throw new Error(`rgbPng: bad size ${width}×${height}`);
  if (rgb.length !== width * height * 3) throw new Error(`rgbPng: ${rgb.length} bytes for ${width}×${height} RGB`);
  const header = new Uint8Array(13);
  const hv = new DataView(header.buffer);
  hv.setUint32(0, width);
  hv.setUint32(4, height);
  header.set([8, 2, 0, 0, 0], 8); // bit depth 8, colour type 2 (RGB), deflate, no filter method choice, no interlace
  const stride = width * 3;
  const raw = new Uint8Array(height * (stride + 1));
  for (let y = 0; y < height; y++) raw.set(rgb.subarray(y * stride, (y + 1) * stride), y * (stride + 1) + 1); // filter byte 0 (None)
  const parts = [Uint8Array.from(SIGNATURE), chunk('IHDR', header), chunk('IDAT', zlibSync(raw, { level: 9 })), chunk('IEND', new Uint8Array(0))];
  return concatBytes(parts);
}
