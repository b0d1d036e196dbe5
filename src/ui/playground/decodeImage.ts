/**
 * A person's screenshot → the pixels the grounder reads: decoded by the
 * browser (createImageBitmap), scaled to fit one of the world's screen sizes
 * without distortion and centred on a white background (letterboxed), read
 * back as RGBA. The grounder was trained on screens of exactly these sizes,
 * so anything else must be brought to them first.
 */
import { SCREEN_SIZE, type Platform } from '../../world/types';

export interface Screenshot {
  rgba: Uint8Array;
  width: number;
  height: number;
  platform: Platform;
  /** The file's own size, to say how much it was scaled. */
  sourceWidth: number;
  sourceHeight: number;
  name: string;
}

export const ACCEPTED_TYPES = ['image/png', 'image/jpeg'] as const;

/** Landscape images become web screens, portrait ones mobile screens. */
export function platformFor(width: number, height: number): Platform {
  return width >= height ? 'web' : 'mobile';
}

/** Where the image goes inside the target: the largest centred rectangle of its aspect ratio. */
export function letterbox(sw: number, sh: number, tw: number, th: number): { x: number; y: number; w: number; h: number } {
  const scale = Math.min(tw / sw, th / sh);
  const w = Math.max(1, Math.round(sw * scale));
  const h = Math.max(1, Math.round(sh * scale));
  return { x: Math.floor((tw - w) / 2), y: Math.floor((th - h) / 2), w, h };
}

export async function decodeScreenshot(file: File, platform: Platform | 'auto' = 'auto'): Promise<Screenshot> {
  if (!(ACCEPTED_TYPES as readonly string[]).includes(file.type)) {
    throw new Error(`“${file.name}” is ${file.type ? `a ${file.type} file` : 'not an image'}; drop a PNG or JPEG screenshot.`);
  }
  let bitmap: ImageBitmap;
  try {
    bitmap = await createImageBitmap(file);
  } catch {
    throw new Error(`“${file.name}” could not be decoded as an image; is it a complete PNG or JPEG file?`);
  }
  try {
    const p = platform === 'auto' ? platformFor(bitmap.width, bitmap.height) : platform;
    const { width, height } = SCREEN_SIZE[p];
    const canvas = document.createElement('canvas');
    canvas.width = width;
    canvas.height = height;
    const ctx = canvas.getContext('2d', { willReadFrequently: true });
    if (!ctx) throw new Error('This browser gave no 2D canvas to scale the screenshot with.');
    ctx.fillStyle = '#ffffff';
    ctx.fillRect(0, 0, width, height);
    ctx.imageSmoothingEnabled = true;
    ctx.imageSmoothingQuality = 'high';
    const at = letterbox(bitmap.width, bitmap.height, width, height);
    ctx.drawImage(bitmap, at.x, at.y, at.w, at.h);
    const data = ctx.getImageData(0, 0, width, height).data;
    return { rgba: new Uint8Array(data.buffer.slice(0)), width, height, platform: p, sourceWidth: bitmap.width, sourceHeight: bitmap.height, name: file.name };
  } finally {
    bitmap.close();
  }
}
