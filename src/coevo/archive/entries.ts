/** The binary entries of an export: screens (PNG) and checkpoints (safetensors beside a JSON record). */
import { strFromU8 } from 'fflate';
import { decodeSafetensors } from '../../models/safetensors';
import type { CheckpointRecord, ScreenRecord } from '../../store/schema';
import { Fields } from './fields';
import { checkpointPath, invalid, parse, show } from './format';
import { TEXT_LIMITS } from './limits';
import { MAX_ITERATION, MAX_SIDE } from './records';

export function utf8(bytes: Uint8Array, path: string): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw invalid(`${path} is not UTF-8 text`);
  }
}

export function screenRecord(path: string, bytes: Uint8Array): ScreenRecord {
  const m = /^screens\/([^/]+)\.png$/.exec(path);
  if (!m) throw invalid(`unexpected file ${path}`);
  let hash: string;
  try {
    hash = decodeURIComponent(m[1]);
  } catch {
    throw invalid(`${path} is not named by a screen hash`);
  }
  if (hash.length === 0 || hash.length > TEXT_LIMITS.id) throw invalid(`${path} is not named by a screen hash of 1 to ${TEXT_LIMITS.id} characters`);
  // A PNG starts with its 8-byte signature and then the IHDR chunk: width and height as big-endian uint32.
  const signature = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  const isPng = bytes.length >= 24 && signature.every((b, i) => bytes[i] === b) && strFromU8(bytes.subarray(12, 16), true) === 'IHDR';
  if (!isPng) throw invalid(`${path} is not a PNG image`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const width = view.getUint32(16);
  const height = view.getUint32(20);
  if (width < 1 || height < 1 || width > MAX_SIDE || height > MAX_SIDE) throw invalid(`${path} is ${width}×${height} pixels; a screen is 1 to ${MAX_SIDE} pixels a side`);
  return { hash, png: new Blob([bytes.slice()], { type: 'image/png' }), width, height };
}

export function checkpointRecord(entries: ReadonlyMap<string, Uint8Array>, path: string, runId: string): CheckpointRecord {
  const f = new Fields(parse(utf8(entries.get(path)!, path), path), path);
  const id = f.id('id');
  if (path !== checkpointPath(id, 'json')) throw invalid(`${path} holds checkpoint ${show(id)}, which belongs in ${checkpointPath(id, 'json')}`);
  const weightsPath = checkpointPath(id, 'safetensors');
  const bytes = entries.get(weightsPath);
  if (!bytes) throw invalid(`checkpoint ${id} has no ${weightsPath}`);
  try {
    decodeSafetensors(bytes);
  } catch (e) {
    throw invalid(`${weightsPath} is not a readable safetensors file (${e instanceof Error ? e.message : String(e)})`);
  }
  return {
    id,
    runId: f.runId(runId),
    model: f.name('model'),
    iteration: f.int('iteration', MAX_ITERATION),
    createdAt: f.time('createdAt'),
    config: f.scalars('config'),
    weights: bytes.slice().buffer,
  };
}
