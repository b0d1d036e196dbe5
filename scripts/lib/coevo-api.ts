/**
 * The part of the app's automation API (window.coevo) that the headless
 * co-evolution command drives. Declared here rather than imported from
 * src/ui/automation.ts so the script stays free of the app's runtime code.
 */
import type { CoevoReport } from '../../src/coevo/records';
import type { CoevoProgress } from '../../src/coevo/runner';
import type { PretrainCheckpointFile, PretrainOptions, PretrainResult, PretrainStatus } from '../../src/pretrain/baseTypes';
import type { OffsiteOptions, OffsiteProgress } from '../../src/offsite/jobTypes';
import type { OffsiteReport } from '../../src/offsite/report';

export interface CoevoDevice {
  backend: string;
  adapter: string;
}

export interface CoevoStartOptions {
  preset: string;
  seed: number;
  iterations: number;
  /** `key=value` overrides of the preset's config, checked by the app. */
  set: string[];
}

/** The runner's progress as the app reports it (a type only: nothing of the app runs in the script). */
export type CoevoStatus = CoevoProgress;

export interface CoevoApi {
  ready(): Promise<CoevoDevice>;
  startCoevo(opts: CoevoStartOptions): Promise<{ runId: string }>;
  coevoStatus(runId: string): Promise<CoevoStatus>;
  /** 'run' also resumes a stored run this page has not loaded, from its last finished phase. */
  controlCoevo(runId: string, action: 'run' | 'pause' | 'step-batch'): Promise<CoevoStatus>;
  coevoReport(runId: string): Promise<CoevoReport>;
  /** The stored runs, newest first (the export command finds its run here). */
  listRuns(): Promise<{ id: string; name: string }[]>;
  /** A stored run as its archive zip (src/coevo/archive.ts). */
  exportRun(runId: string): Promise<Uint8Array>;
  startPretrain(opts: PretrainOptions): Promise<void>;
  pretrainStatus(): Promise<PretrainStatus>;
  pretrainResult(): Promise<PretrainResult>;
  pretrainCheckpoints(): Promise<PretrainCheckpointFile[]>;
  /** One offsite comparison; it returns when the comparison is done (poll offsiteProgress meanwhile). */
  runOffsite(opts: OffsiteOptions): Promise<OffsiteReport>;
  offsiteProgress(): Promise<OffsiteProgress>;
}
