/** Turning rendered canvases into bytes: PNG encoding, a pixel hash for determinism checks (base64 lives in src/bytes). */

export async function pngBytes(canvas: OffscreenCanvas): Promise<Uint8Array> {
  const blob = await canvas.convertToBlob({ type: 'image/png' });
  return new Uint8Array(await blob.arrayBuffer());
}

/** 64-bit FNV-1a (as two 32-bit lanes) over RGBA bytes, as 16 hex digits. Equal pixels ⇔ equal hash, in practice. */
export function pixelHash(data: Uint8ClampedArray | Uint8Array): string {
  let a = 0x811c9dc5;
  let b = 0x050c5d1f;
  for (let i = 0; i < data.length; i++) {
    a = Math.imul(a ^ data[i], 0x01000193);
    b = Math.imul(b ^ data[i] ^ (i & 0xff), 0x01000193);
  }
  return (a >>> 0).toString(16).padStart(8, '0') + (b >>> 0).toString(16).padStart(8, '0');
}

/** Number of distinct RGB colours: a blank or flat canvas has very few. */
export function distinctColors(data: Uint8ClampedArray | Uint8Array): number {
  const seen = new Set<number>();
  for (let i = 0; i < data.length; i += 4) seen.add((data[i] << 16) | (data[i + 1] << 8) | data[i + 2]);
  return seen.size;
}
