/**
 * The screenshot's pixels at the plan's scale and cut into tiles, in plain
 * TypeScript so that the same arithmetic runs in the worker and in unit
 * tests (no canvas: its resampling differs between browsers).
 */
import type { Tile, TilePlan } from './tiles';

export interface RgbaImage {
  rgba: Uint8Array;
  width: number;
  height: number;
}

/** For each output index, the source indices it covers and their area weights (summing to 1): a box filter. */
function boxWeights(from: number, to: number): { start: number; weights: number[] }[] {
  const ratio = from / to;
  return Array.from({ length: to }, (_, i) => {
    const a = i * ratio;
    const b = (i + 1) * ratio;
    const start = Math.floor(a);
    const weights: number[] = [];
    for (let s = start; s < Math.min(from, Math.ceil(b)); s++) weights.push((Math.min(b, s + 1) - Math.max(a, s)) / ratio);
    return { start, weights };
  });
}

/** Resizes by area averaging (each output pixel is the mean of the source area it covers): sharp enough for text, no aliasing when shrinking. */
export function resizeRgba(src: RgbaImage, width: number, height: number): RgbaImage {
  if (src.rgba.length !== src.width * src.height * 4) throw new Error(`resizeRgba: ${src.rgba.length} bytes for ${src.width}×${src.height} RGBA.`);
  if (width === src.width && height === src.height) return { rgba: src.rgba.slice(), width, height };
  const wx = boxWeights(src.width, width);
  const wy = boxWeights(src.height, height);
  // Rows first into floats, then columns.
  const mid = new Float32Array(width * src.height * 4);
  for (let y = 0; y < src.height; y++) {
    for (let x = 0; x < width; x++) {
      const { start, weights } = wx[x];
      const o = (y * width + x) * 4;
      for (let k = 0; k < weights.length; k++) {
        const i = (y * src.width + start + k) * 4;
        const w = weights[k];
        mid[o] += src.rgba[i] * w;
        mid[o + 1] += src.rgba[i + 1] * w;
        mid[o + 2] += src.rgba[i + 2] * w;
        mid[o + 3] += src.rgba[i + 3] * w;
      }
    }
  }
  const out = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    const { start, weights } = wy[y];
    for (let x = 0; x < width; x++) {
      const o = (y * width + x) * 4;
      for (let c = 0; c < 4; c++) {
        let v = 0;
        for (let k = 0; k < weights.length; k++) v += mid[((start + k) * width + x) * 4 + c] * weights[k];
        out[o + c] = Math.round(v);
      }
    }
  }
  return { rgba: out, width, height };
}

/** Transparent pixels over white, as a screenshot shows them (the world's screens have no alpha). */
export function flattenOnWhite(img: RgbaImage): RgbaImage {
  const rgba = img.rgba.slice();
  for (let i = 0; i < rgba.length; i += 4) {
    const a = rgba[i + 3] / 255;
    if (a === 1) continue;
    for (let c = 0; c < 3; c++) rgba[i + c] = Math.round(rgba[i + c] * a + 255 * (1 - a));
    rgba[i + 3] = 255;
  }
  return { rgba, width: img.width, height: img.height };
}

/** One tile's screen: the scaled image's pixels under it, white where the image does not reach. */
export function cutTile(scaled: RgbaImage, plan: Pick<TilePlan, 'tileWidth' | 'tileHeight'>, tile: Pick<Tile, 'x' | 'y'>): RgbaImage {
  const { tileWidth: tw, tileHeight: th } = plan;
  const out = new Uint8Array(tw * th * 4).fill(255);
  for (let y = 0; y < th; y++) {
    const sy = tile.y + y;
    if (sy < 0 || sy >= scaled.height) continue;
    const x0 = Math.max(0, -tile.x);
    const x1 = Math.min(tw, scaled.width - tile.x);
    if (x1 <= x0) continue;
    out.set(scaled.rgba.subarray((sy * scaled.width + tile.x + x0) * 4, (sy * scaled.width + tile.x + x1) * 4), (y * tw + x0) * 4);
  }
  return { rgba: out, width: tw, height: th };
}
