/**
 * What export and import agree on: the manifest's shape, the entry paths,
 * how numbers JSON cannot hold are written, the CRC-32 both sides compute,
 * and the refusals import reports. See src/coevo/archive.ts for the layout.
 */
import { strToU8 } from 'fflate';

export { crc32 } from '../../bytes/crc32';

export const ARCHIVE_FORMAT = 'coevo-run';
export const ARCHIVE_VERSION = 1;

export interface ArchiveCounts {
  samples: number;
  trajectories: number;
  phases: number;
  metrics: number;
  screens: number;
  checkpoints: number;
  /** Absent (read as 0) in exports made before groups were kept. */
  groups: number;
}

export interface ArchiveManifest {
  format: typeof ARCHIVE_FORMAT;
  version: typeof ARCHIVE_VERSION;
  runId: string;
  createdAt: number;
  counts: ArchiveCounts;
  files: Record<string, { bytes: number; crc32: number }>;
}

export class ImportError extends Error {
  override name = 'ImportError';
}

export const MANIFEST = 'manifest.json';
export const ROOT_FILES: readonly string[] = [MANIFEST, 'run.json', 'samples.jsonl', 'trajectories.jsonl', 'phases.json', 'metrics.json'];
/** Root files an older export may lack. */
export const OPTIONAL_ROOT_FILES: readonly string[] = ['groups.jsonl'];

export const truncated = (detail?: string) =>
  new ImportError(`This file is not a complete Coevo run export (the zip is truncated or corrupt${detail ? `: ${detail}` : ''}); nothing was imported.`);
export const notAnExport = (why: string) => new ImportError(`This file is not a Coevo run export (${why}); nothing was imported.`);
export const invalid = (why: string) => new ImportError(`This file is not a valid Coevo run export: ${why}. Nothing was imported.`);

export function fail(why: string): never {
  throw invalid(why);
}

export function screenPath(hash: string): string {
  return `screens/${encodeURIComponent(hash)}.png`;
}

export function checkpointPath(id: string, ext: 'json' | 'safetensors'): string {
  return `checkpoints/${encodeURIComponent(id)}.${ext}`;
}

export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A value as an error message quotes it: short, and NaN/Infinity by name (JSON.stringify would say null). */
export function show(v: unknown): string {
  if (v === undefined) return 'nothing';
  if (typeof v === 'number') return String(v);
  const s = JSON.stringify(v) ?? String(v);
  return s.length > 80 ? `${s.slice(0, 77)}...` : s;
}

// JSON has no NaN or Infinity: such numbers are written as {"$nonfinite": "NaN" | "Infinity" | "-Infinity"}.

export function encode(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => (typeof v === 'number' && !Number.isFinite(v) ? { $nonfinite: String(v) } : v));
}

/** Parses JSON, turning $nonfinite markers back into numbers; the record schemas then decide where such numbers may stand. */
export function parse(s: string, at: string): unknown {
  try {
    return JSON.parse(s, (_key, v: unknown) => (isObject(v) && typeof v.$nonfinite === 'string' && Object.keys(v).length === 1 ? Number(v.$nonfinite) : v));
  } catch (e) {
    throw invalid(`${at} is not valid JSON (${e instanceof Error ? e.message : String(e)})`);
  }
}

export function json(value: unknown): Uint8Array {
  return strToU8(encode(value));
}

export function jsonl(values: readonly unknown[]): Uint8Array {
  return strToU8(values.map((v) => encode(v) + '\n').join(''));
}
