/**
 * The grounder's reading of the last screenshot's tiles, kept between
 * instructions: encoding the screens (stem, glyph reader) is about three
 * quarters of a grounding and does not depend on the instruction, so the
 * next instruction typed over the same screenshot costs only the rest
 * (measured on the tiny preset, WASM in Node: 1.1–1.5 s encoding and
 * 0.4–0.8 s grounding for 8 tiles). One screenshot is kept (tens of MB of
 * tensors); another frees it.
 */
import * as tf from '../models/tf';
import type { ScreenFeatures } from '../models/grounder';

/** FNV-1a over the bytes as 32-bit words: tells two screenshots apart, cheaply (about 1 M words for 1280×800). */
export function pixelKey(rgba: Uint8Array, width: number, height: number): string {
  const words = new Uint32Array(rgba.buffer, rgba.byteOffset, Math.floor(rgba.byteLength / 4));
  let h = 0x811c9dc5;
  for (let i = 0; i < words.length; i++) h = Math.imul(h ^ words[i], 0x01000193) >>> 0;
  return `${width}x${height}:${h.toString(16)}`;
}

export class FeatureCache {
  private key: string | null = null;
  private batches: ScreenFeatures[] = [];

  get(key: string): ScreenFeatures[] | null {
    return key === this.key ? this.batches : null;
  }

  /** Keeps `batches` under `key`, freeing what was kept before. */
  set(key: string, batches: ScreenFeatures[]): void {
    this.clear();
    this.key = key;
    this.batches = batches;
  }

  clear(): void {
    tf.dispose(this.batches);
    this.key = null;
    this.batches = [];
  }
}
