/**
 * The run list's "Export for TRL": the worker builds the zip (the files
 * `npm run export -- --format trl` writes, src/export/fromStore.ts) and the
 * page hands it to the browser as a download.
 */
import { getEngine } from '../engine';
import { downloadBytes, fileSafe } from '../download';

export async function downloadTrainerExport(runId: string, format: 'trl' | 'swift' = 'trl'): Promise<void> {
  const bytes = await getEngine().exportForTrainer(runId, format);
  downloadBytes(bytes, `coevo-${fileSafe(runId)}-${format}.zip`);
}
