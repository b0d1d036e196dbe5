/**
 * The run list's Import and Export of whole runs (the archive of
 * src/coevo/archive.ts): the worker packs and checks; the page reads the
 * chosen file with progress and refuses one too large before reading it.
 */
import { ARCHIVE_LIMITS, formatBytes } from '../../coevo/archive/limits';
import { invalid } from '../../coevo/archive/format';
import { Comlink, getEngine } from '../engine';
import { downloadBytes, fileSafe } from '../download';
import type { RunRecord } from '../../../workers/api';

/** The file name an exported run gets. */
export const archiveName = (runId: string) => `coevo-${fileSafe(runId)}.zip`;

export async function exportRunArchive(runId: string): Promise<number> {
  const bytes = await getEngine().exportRun(runId);
  downloadBytes(bytes, archiveName(runId));
  return bytes.length;
}

/** The file's bytes, read in chunks so that `onProgress` (0–1) can follow; refuses a file past the import limit unread. */
export async function readFileBytes(file: Blob, onProgress: (fraction: number) => void): Promise<Uint8Array> {
  if (file.size > ARCHIVE_LIMITS.archiveBytes) {
    throw invalid(`the file is ${formatBytes(file.size)}, more than the ${formatBytes(ARCHIVE_LIMITS.archiveBytes)} this app imports`);
  }
  const out = new Uint8Array(file.size);
  const reader = file.stream().getReader();
  let at = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    // The file may have grown since it was chosen; what no longer fits is a changed file, not a run export.
    if (at + value.length > out.length) throw new Error('The file changed while it was being read; choose it again. Nothing was imported.');
    out.set(value, at);
    at += value.length;
    onProgress(file.size === 0 ? 1 : at / file.size);
  }
  return at === out.length ? out : out.slice(0, at);
}

/** Checks and stores the run in the file (the importer's refusals come back as they are; nothing is stored then). */
export function importRunArchive(bytes: Uint8Array): Promise<RunRecord> {
  return getEngine().importRun(Comlink.transfer(bytes, [bytes.buffer]));
}
