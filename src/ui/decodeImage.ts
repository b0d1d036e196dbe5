/**
 * A person's screenshot → its pixels at its own size, for the worker to
 * scale and tile (src/ownScreen). The file's first bytes say what it is
 * (sniff.ts), not the MIME type its name suggested, and the browser decodes
 * whatever it can (createImageBitmap); nothing is refused for its size: an
 * image past MAX_PIXELS is shrunk here, once, and the answer says so.
 */
import { IMAGE_FORMAT_NAMES, describeNonImage, sniffImageFormat, type ImageFormat } from '../ownScreen/sniff';

/** Pixels read at most (a 4K screen is 8.3 MP): bounds the RGBA sent to the worker to 64 MB. */
export const MAX_PIXELS = 16_000_000;

export interface Screenshot {
  rgba: Uint8Array;
  width: number;
  height: number;
  /** The file's own size and format. */
  sourceWidth: number;
  sourceHeight: number;
  format: ImageFormat;
  name: string;
  /** The file's bytes as given: what a kept private example stores. */
  bytes: Uint8Array;
}

const MIME: Record<ImageFormat, string> = { png: 'image/png', jpeg: 'image/jpeg', gif: 'image/gif', webp: 'image/webp', bmp: 'image/bmp', avif: 'image/avif', ico: 'image/x-icon' };

/** The browser's decoding of the bytes, by the format they begin with; a clear error for what is no image or does not decode. */
async function openBitmap(bytes: Uint8Array<ArrayBuffer>, name: string): Promise<{ bitmap: ImageBitmap; format: ImageFormat }> {
  const format = sniffImageFormat(bytes);
  if (!format) throw new Error(`“${name}” is ${describeNonImage(bytes)}, not an image; drop a screenshot (PNG, JPEG, WebP, GIF, BMP or AVIF).`);
  try {
    // The type its bytes say, whatever the file claimed.
    return { bitmap: await createImageBitmap(new Blob([bytes], { type: MIME[format] })), format };
  } catch {
    throw new Error(`“${name}” begins like a ${IMAGE_FORMAT_NAMES[format]} image, but this browser could not decode it; is the file complete? (Saving it as PNG always works.)`);
  }
}

/** The image's own size, without reading its pixels. */
export async function imageSize(bytes: Uint8Array<ArrayBuffer>, name: string): Promise<{ width: number; height: number }> {
  const { bitmap } = await openBitmap(bytes, name);
  const size = { width: bitmap.width, height: bitmap.height };
  bitmap.close();
  return size;
}

export async function decodeScreenshot(file: Blob, name: string): Promise<Screenshot> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  const { bitmap, format } = await openBitmap(bytes, name);
  try {
    const shrink = Math.min(1, Math.sqrt(MAX_PIXELS / (bitmap.width * bitmap.height)));
    const width = Math.max(1, Math.floor(bitmap.width * shrink));
    const height = Math.max(1, Math.floor(bitmap.height * shrink));
    const canvas = document.createElement('canvas');
    canvas.width = width;
    canvas.height = height;
    const ctx = canvas.getContext('2d', { willReadFrequently: true });
    if (!ctx) throw new Error('This browser gave no 2D canvas to read the screenshot with.');
    ctx.imageSmoothingEnabled = true;
    ctx.imageSmoothingQuality = 'high';
    ctx.drawImage(bitmap, 0, 0, width, height);
    const data = ctx.getImageData(0, 0, width, height).data;
    return { rgba: new Uint8Array(data.buffer.slice(0)), width, height, sourceWidth: bitmap.width, sourceHeight: bitmap.height, format, name, bytes };
  } finally {
    bitmap.close();
  }
}
