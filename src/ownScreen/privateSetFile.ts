/**
 * The person's marked screenshots as one file they can keep or move to
 * another browser: written only when they ask (the Offsite view's
 * "download"), read back with every field checked, so that a damaged or
 * foreign file is refused whole, with the first fault named, and adds
 * nothing. JSON with each image's own bytes in base64: a person can open it
 * and see what it holds, and the images come back byte for byte.
 */
import { fromBase64, toBase64 } from '../bytes/base64';
import type { PrivateShotRecord } from '../store/schema';
import { sniffImageFormat } from './sniff';

export const PRIVATE_SET_FORMAT = 'coevo-private-set';
export const PRIVATE_SET_VERSION = 1;
export const PRIVATE_SET_FILE = 'coevo-private-set.json';

/** What this app reads back: bounds a hostile or mistaken file before anything is decoded. */
export const PRIVATE_SET_LIMITS = { fileBytes: 256 * 1024 * 1024, shots: 2000, side: 16384 } as const;

interface ShotEntry extends Omit<PrivateShotRecord, 'bytes'> {
  /** The screenshot file's bytes, base64. */
  image: string;
}

interface PrivateSetDocument {
  format: typeof PRIVATE_SET_FORMAT;
  version: typeof PRIVATE_SET_VERSION;
  exportedAt: number;
  shots: ShotEntry[];
}

export function writePrivateSet(shots: readonly PrivateShotRecord[], exportedAt = Date.now()): string {
  const doc: PrivateSetDocument = {
    format: PRIVATE_SET_FORMAT,
    version: PRIVATE_SET_VERSION,
    exportedAt,
    shots: shots.map(({ bytes, ...rest }) => ({ ...rest, image: toBase64(new Uint8Array(bytes)) })),
  };
  return JSON.stringify(doc, null, 1);
}

export class PrivateSetFileError extends Error {
  override name = 'PrivateSetFileError';
}

function refuse(why: string): never {
  throw new PrivateSetFileError(`This file is not a Coevo private set that can be read back: ${why}. Nothing was added.`);
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const finite = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/** Refuses a file too large to read, before it is read (the caller passes the file's size). */
export function checkPrivateSetSize(bytes: number): void {
  if (bytes > PRIVATE_SET_LIMITS.fileBytes) refuse(`it is larger than the ${PRIVATE_SET_LIMITS.fileBytes / 1024 / 1024} MB this app reads`);
}

/** Every screenshot of the file, or a PrivateSetFileError naming the first thing wrong. */
export function readPrivateSet(text: string): PrivateShotRecord[] {
  // The file is ASCII JSON: one character a byte.
  checkPrivateSetSize(text.length);
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    refuse('it is not JSON (was it cut short, or is it another kind of file?)');
  }
  if (!isObject(doc) || doc.format !== PRIVATE_SET_FORMAT) refuse(`it does not say "format": "${PRIVATE_SET_FORMAT}"`);
  const d = doc as Record<string, unknown>;
  if (d.version !== PRIVATE_SET_VERSION) refuse(`it is version ${JSON.stringify(d.version)}, and this app reads version ${PRIVATE_SET_VERSION}`);
  if (!Array.isArray(d.shots)) refuse('it has no list of shots');
  const shots = d.shots as unknown[];
  if (shots.length > PRIVATE_SET_LIMITS.shots) refuse(`it holds ${shots.length} screenshots, more than the ${PRIVATE_SET_LIMITS.shots} this app reads`);
  const ids = new Set<string>();
  return shots.map((s, i) => {
    const rec = shotOf(s, `screenshot ${i + 1}`);
    if (ids.has(rec.id)) refuse(`screenshot ${i + 1} repeats the id ${rec.id}`);
    ids.add(rec.id);
    return rec;
  });
}

function shotOf(s: unknown, at: string): PrivateShotRecord {
  if (!isObject(s)) return refuse(`${at} is not an object`);
  const text = (k: string): string => (typeof s[k] === 'string' && (s[k] as string).trim() !== '' ? (s[k] as string) : refuse(`${at} has no ${k}`));
  const side = (k: string): number => {
    const v = s[k];
    return Number.isInteger(v) && (v as number) >= 1 && (v as number) <= PRIVATE_SET_LIMITS.side ? (v as number) : refuse(`${at}'s ${k} is ${JSON.stringify(v)}, not a whole number of pixels from 1 to ${PRIVATE_SET_LIMITS.side}`);
  };
  const id = text('id');
  const name = text('name');
  const instruction = text('instruction');
  const width = side('width');
  const height = side('height');
  if (!finite(s.createdAt)) refuse(`${at} has no createdAt time`);
  const scale = s.scale;
  const scaleOk = isObject(scale) && (scale.kind === 'fit' || (scale.kind === 'text' && finite(scale.textPx) && scale.textPx > 0));
  if (!scaleOk) refuse(`${at} (${name}) has scale ${JSON.stringify(scale)}; it must be {"kind": "fit"} or {"kind": "text", "textPx": a size above 0}`);
  const b = s.box;
  if (!isObject(b) || ![b.x, b.y, b.w, b.h].every(finite) || (b.w as number) <= 0 || (b.h as number) <= 0) refuse(`${at} (${name}) has no box with x, y and a width and height above 0`);
  const box = { x: b.x as number, y: b.y as number, w: b.w as number, h: b.h as number };
  if (box.x < 0 || box.y < 0 || box.x + box.w > width || box.y + box.h > height) refuse(`${at} (${name})'s box ${box.w}×${box.h} at (${box.x}, ${box.y}) does not lie within its ${width}×${height} image`);
  const bytes = typeof s.image === 'string' ? fromBase64(s.image) : null;
  if (!bytes || bytes.length === 0) return refuse(`${at} (${name}) has no image, or its image is not base64`);
  if (!sniffImageFormat(bytes)) refuse(`${at} (${name})'s image does not begin like any image format`);
  return {
    id,
    createdAt: s.createdAt as number,
    name,
    bytes: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer,
    width,
    height,
    scale: scale.kind === 'fit' ? { kind: 'fit' } : { kind: 'text', textPx: scale.textPx as number },
    instruction,
    box,
  };
}
