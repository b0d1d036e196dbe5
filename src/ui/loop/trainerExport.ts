/**
 * The run list's "Export for TRL": the worker builds the zip (the files
 * `npm run export -- --format trl` writes, src/export/fromStore.ts) and the
 * page hands it to the browser as a download.
 */
import { getEngine } from '../engine';

export async function downloadTrainerExport(runId: string, format: 'trl' | 'swift' = 'trl'): Promise<void> {
  const bytes = await getEngine().exportForTrainer(runId, format);
  const url = URL.createObjectURL(new Blob([bytes.slice()], { type: 'application/zip' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = `coevo-${runId.replace(/[^\w.-]+/g, '_')}-${format}.zip`;
  document.body.append(a);
  a.click();
  a.remove();
  // The download has started from the URL; release it a little later.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
