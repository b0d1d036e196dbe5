/**
 * The main thread's read model of stored runs: the views read samples and
 * the report straight from IndexedDB through the store module, without a
 * round trip through the engine worker (which may be busy training) and
 * without tfjs. The report comes from the same builder as report.json, so
 * the views and the headless report always agree.
 */
import { buildReport } from '../coevo/report';
import type { CoevoReport, StepSample } from '../coevo/records';
import type { RunRecord, Store } from '../store';
import { mainStore } from './shell/mainStore';

export interface RunData {
  run: RunRecord;
  samples: StepSample[];
  report: CoevoReport;
}

/** The page's one read connection to the store (shell/mainStore.ts owns it). */
export function openStore(): Promise<Store> {
  return mainStore();
}

async function read<T>(body: (store: Store) => Promise<T>): Promise<T> {
  return body(await openStore());
}

/** Co-evolution runs, newest first (the tiny regression jobs of the foundation are left out). */
export function listCoevoRuns(): Promise<RunRecord[]> {
  return read(async (store) => (await store.listRuns()).filter((r) => r.kind === 'coevo'));
}

/** A run, its samples and its report; null when there is no such run. */
export function loadRunData(runId: string): Promise<RunData | null> {
  return read(async (store) => {
    const run = await store.getRun(runId);
    if (!run) return null;
    const samples = store.getSamples(runId);
    const report = await buildReport(
      { getRun: async () => run, listPhases: (id) => store.listPhases(id), getSamples: () => samples, getMetrics: (id) => store.getMetrics(id) },
      runId,
      { backend: run.backend, adapter: '' },
    );
    return { run, samples: await samples, report };
  });
}

/** Only the report of a run (the metrics view needs no samples beyond the counts the report holds); null when there is no such run. */
export async function loadReport(runId: string): Promise<{ run: RunRecord; report: CoevoReport } | null> {
  const data = await loadRunData(runId);
  return data && { run: data.run, report: data.report };
}

/** How a run is named in pickers and legends: its name, and the ablation when the loop was off. */
export function runLabel(run: RunRecord): string {
  const when = new Date(run.createdAt).toLocaleString(undefined, { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' });
  return `${run.name}${run.config.coevo === false ? ' (coevo off)' : ''}, ${when}`;
}
