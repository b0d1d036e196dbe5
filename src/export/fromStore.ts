/**
 * The zip the run list's "Export for TRL" button downloads: the stored run
 * read exactly as its archive zip reads (exportRun, then readArchive), then
 * the same buildTrainerExport the command line runs on that zip, so the two
 * cannot drift apart.
 */
import { exportRun, readArchive } from '../coevo/archive';
import type { Store } from '../store/store';
import type { ScreenRenderer } from '../world/render/screenImage';
import { buildTrainerExport, zipTrainerExport, type PythonFiles } from './build';
import type { TrainerFormat } from './types';

export async function trainerExportZip(store: Store, runId: string, format: TrainerFormat, python: PythonFiles, render: ScreenRenderer): Promise<Uint8Array> {
  const bundle = readArchive(await exportRun(store, runId));
  const { files } = await buildTrainerExport(bundle, format, python, render);
  return zipTrainerExport(files);
}
