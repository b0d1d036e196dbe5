import type { CoevoReport, IterationReport } from '../../src/coevo/records';

/** A hand-made report with the given iterations and nothing else, for tests of what reads reports. */
export function reportOf(iterations: IterationReport[], extra: Partial<CoevoReport> = {}): CoevoReport {
  return {
    version: 1,
    runId: 'r',
    config: {},
    device: { backend: 'wasm', adapter: '' },
    timings: [],
    iterations,
    datasets: [],
    curation: [],
    informative_group_ratio: [],
    curves: {},
    ...extra,
  };
}
