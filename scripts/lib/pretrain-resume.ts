/**
 * The command's side of resumable pretraining: which checkpoints a run
 * continues from (refusing another run's before a browser opens), keeping
 * each new checkpoint the app hands out so that a kill at any moment leaves
 * the previous one whole, and removing them once the models are written.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { BaseModelName, PretrainCheckpointFile } from '../../src/pretrain/baseTypes';
import { CHECKPOINT_EVERY, readResumeHeader, resumeFileName, resumeMismatch } from '../../src/pretrain/resumeKey';
import { trainsNothing, type PretrainArgs } from './pretrain-args';
import { RunFailure } from './run-failure';

/** Steps between checkpoints per model: --checkpoint-every for all, or each model's own; none when measuring. */
export function checkpointIntervals(args: PretrainArgs): Partial<Record<BaseModelName, number>> {
  if (trainsNothing(args)) return {};
  return Object.fromEntries(args.models.map((m) => [m, args.checkpointEvery ?? CHECKPOINT_EVERY[m]]));
}

export interface Resumption {
  /** Base64 resume files by model, for startPretrain. */
  files: Partial<Record<BaseModelName, string>>;
  /** What the log says: where each model continues from, or that it starts afresh. */
  notes: string[];
}

/**
 * The checkpoints in --resume DIR of the models asked for. Refused, with
 * what differs, when one was made by another preset, model, seed, scale or
 * backend (the recipe itself is checked again in the app); refused when
 * there is none at all.
 */
export function checkpointsToResume(args: PretrainArgs): Resumption | null {
  if (args.resume === null) return null;
  const dir = resolve(args.resume);
  const out: Resumption = { files: {}, notes: [] };
  for (const model of args.models) {
    const path = join(dir, resumeFileName(args.preset, model));
    if (!existsSync(path)) {
      out.notes.push(`no ${model} checkpoint at ${path}: the ${model} starts afresh.`);
      continue;
    }
    const bytes = readFileSync(path);
    let header: ReturnType<typeof readResumeHeader>;
    try {
      header = readResumeHeader(bytes);
    } catch (e) {
      throw new RunFailure(2, `${path} cannot be resumed: ${e instanceof Error ? e.message : String(e)}.`);
    }
    const differ = resumeMismatch(header.key, { preset: args.preset, model, seed: args.seed, scale: args.scale, backend: args.backend });
    if (differ) throw new RunFailure(2, `${path} is a checkpoint of another run (${differ}); resume it with that run's options, or start afresh without --resume.`);
    out.files[model] = bytes.toString('base64');
    out.notes.push(`the ${model} continues from ${header.stage} step ${header.step} of ${header.steps} (${path}).`);
  }
  if (Object.keys(out.files).length === 0) {
    const others = otherCheckpoints(dir);
    const next = others.length > 0 ? `it holds ${others.join('; ')}: resume with those options` : 'run without --resume to start afresh';
    throw new RunFailure(2, `there is no checkpoint to resume in ${dir} (looked for ${args.models.map((m) => resumeFileName(args.preset, m)).join(' and ')}); ${next}.`);
  }
  return out;
}

/** The readable checkpoints `dir` holds, each with the options that resume it (a demo run resumed without --preset demo looks for tiny's). */
function otherCheckpoints(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.resume.safetensors'))
    .flatMap((f) => {
      try {
        const { key } = readResumeHeader(readFileSync(join(dir, f)));
        return [`${f} (--preset ${key.preset} --only ${key.model} --seed ${key.seed} --scale ${key.scale} --backend ${key.backend})`];
      } catch {
        return []; // not a checkpoint: nothing to suggest
      }
    });
}

/** Checkpoints already in the output folder that a fresh run will replace (the log mentions them: --resume would have continued them). */
export function checkpointsReplaced(args: PretrainArgs, outDir: string): string[] {
  if (args.resume !== null || trainsNothing(args)) return [];
  return args.models.map((m) => join(outDir, resumeFileName(args.preset, m))).filter((p) => existsSync(p));
}

/**
 * Writes a checkpoint the app handed out to `dir` under its own name: to a
 * temp file first, then renamed over the previous one, so that the name
 * always holds a whole checkpoint, the old one or the new.
 */
export function keepCheckpoint(dir: string, preset: string, f: PretrainCheckpointFile): string {
  // The name is ours to choose, not the page's.
  const path = join(dir, resumeFileName(preset, f.model));
  mkdirSync(dir, { recursive: true });
  const temp = `${path}.tmp`;
  writeFileSync(temp, Buffer.from(f.base64, 'base64'));
  renameSync(temp, path);
  return path;
}

/** Removes the models' checkpoints from `dir` once their safetensors files are written (a finished run needs none). */
export function removeCheckpoints(dir: string, preset: string, models: readonly BaseModelName[]): void {
  for (const m of models) rmSync(join(dir, resumeFileName(preset, m)), { force: true });
}
