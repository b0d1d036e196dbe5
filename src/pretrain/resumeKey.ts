/**
 * Which run a pretraining checkpoint belongs to, and the file it is kept in
 * (`npm run pretrain -- --resume DIR`). Free of tfjs: the command reads a
 * checkpoint's header with this to refuse a wrong one before it opens a
 * browser; the recipe checks the whole key again in the worker.
 */
import type { BaseModelName, BasePreset } from './baseTypes';

/** Raised when what a checkpoint holds changes meaning; a checkpoint of another format is refused. */
export const RESUME_FORMAT = 1;

export interface ResumeKey {
  format: number;
  preset: BasePreset;
  model: BaseModelName;
  seed: number;
  scale: number;
  /** A run is deterministic for a seed and backend, not across backends. */
  backend: string;
  /** The recipe's step counts, rates and model config, as JSON. */
  recipe: string;
}

/** A resume file's description: whose it is, and how far that run got (for messages). */
export interface ResumeHeader {
  key: ResumeKey;
  stage: string;
  /** Steps done of `steps`, within `stage` where the recipe counts by stage (the planner's). */
  step: number;
  steps: number;
}

/** Steps between two checkpoints unless --checkpoint-every says otherwise: a few minutes of work at the shipped recipes' pace on WASM. */
export const CHECKPOINT_EVERY: Readonly<Record<BaseModelName, number>> = { grounder: 25, planner: 50 };

/** The file a model's latest checkpoint is kept in, beside where its safetensors file will go. */
export function resumeFileName(preset: string, model: BaseModelName): string {
  return `${preset}-${model}.resume.safetensors`;
}

/** The safetensors __metadata__ value that marks a resume file. */
export const RESUME_FILE_FORMAT = 'coevo-resume';

const describe = (k: keyof ResumeKey, v: ResumeKey[keyof ResumeKey]) => (k === 'recipe' ? 'another recipe' : JSON.stringify(v));

/** What differs between a checkpoint's key and the run asking to continue it (only the fields `wanted` gives), or null. */
export function resumeMismatch(found: ResumeKey, wanted: Partial<ResumeKey>): string | null {
  const keys = Object.keys(wanted) as (keyof ResumeKey)[];
  const differ = keys.filter((k) => wanted[k] !== found[k]);
  if (differ.length === 0) return null;
  return differ.map((k) => `${k}: the checkpoint has ${describe(k, found[k])}, this run ${describe(k, wanted[k] as ResumeKey[keyof ResumeKey])}`).join('; ');
}

const notResume = (why: string) => new Error(`not a pretraining checkpoint (${why})`);

/** The header of a resume file, read from its safetensors header alone (no tensor is decoded). */
export function readResumeHeader(bytes: Uint8Array): ResumeHeader {
  if (bytes.length < 8) throw notResume('shorter than a safetensors header');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const n = view.getUint32(0, true) + view.getUint32(4, true) * 2 ** 32;
  if (8 + n > bytes.length) throw notResume('its header does not fit in the file');
  let meta: { format?: unknown; header?: unknown } | undefined;
  try {
    meta = (JSON.parse(new TextDecoder().decode(bytes.subarray(8, 8 + n))) as { __metadata__?: { format?: unknown; header?: unknown } }).__metadata__;
  } catch {
    throw notResume('its header is not JSON');
  }
  if (!meta || meta.format !== RESUME_FILE_FORMAT || typeof meta.header !== 'string') throw notResume('no resume header: a model file, or another format');
  const h = JSON.parse(meta.header) as ResumeHeader;
  if (!h.key || typeof h.key.model !== 'string' || typeof h.step !== 'number') throw notResume('its resume header is incomplete');
  return h;
}
