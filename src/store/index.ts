export { Store, StoreError } from './store';
export type { MetricPoints, PhaseCommit, RunBundle, SampleCounts } from './store';
export * from './schema';
