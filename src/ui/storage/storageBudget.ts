/**
 * How much browser storage a co-evolution run takes, and whether it fits in
 * what the browser still allows. The figures are deliberately generous: a
 * run refused up front costs a click, a run that fills the quota halfway
 * costs the phase it was in. Type imports and config.ts only: the UI loads it
 * without tfjs (the parameter counts are checked against the models in
 * test/unit/storage-budget.test.ts).
 */
import { defaultConfig, type CoevoConfig } from '../../coevo/config';
import type { CoevoStartOptions } from '../../../workers/api';

/** Parameters of each preset's grounder + planner (src/models/presets.ts presetSizes). */
export const PRESET_PARAMS: Record<CoevoConfig['preset'], number> = {
  tiny: 208_604 + 215_857,
  demo: 570_076 + 654_145,
  full: 1_499_252 + 1_219_969,
};

/** A stored screenshot (PNG) and a sample record, with room to spare. */
const SCREEN_BYTES = 40_000;
const SAMPLE_BYTES = 2_000;
/** Steps per seed task, generously. */
const STEPS_PER_TASK = 8;
/** The resumable state of the phase in progress: weights and two Adam moments of both models. */
const RESUME_COPIES = 3;
const MARGIN = 1.25;

/** Bytes a run with these options will store at most, about. */
export function runBytes(options: Pick<CoevoStartOptions, 'preset' | 'iterations' | 'config'>): number {
  const preset = (['tiny', 'demo', 'full'] as const).find((p) => p === options.preset) ?? 'full';
  const c = { ...defaultConfig(preset, 1), ...options.config };
  const iterations = options.iterations ?? c.iterations;
  const pair = PRESET_PARAMS[preset] * 4;
  // One checkpoint pair after the seed SFT and one per iteration, and the resumable state.
  const weights = (1 + iterations) * pair + RESUME_COPIES * pair;
  const samples = c.seedTasks * STEPS_PER_TASK + iterations * c.distillStates;
  return Math.ceil(MARGIN * (weights + samples * (SCREEN_BYTES + SAMPLE_BYTES)));
}

export interface StorageFigures {
  /** Bytes this origin stores now. */
  usage: number;
  /** Bytes the browser allows this origin. */
  quota: number;
}

/** Null when a run needing `need` bytes fits; else what to tell the person. */
export function noRoomMessage(need: number, figures: StorageFigures): string | null {
  const free = Math.max(0, figures.quota - figures.usage);
  if (need <= free) return null;
  return (
    `This run needs about ${formatBytes(need)} of browser storage, but only ${formatBytes(free)} of the ${formatBytes(figures.quota)} ` +
    `this browser allows the app is free. Delete or export older runs (or free disk space), then start it again; nothing was started.`
  );
}

export function formatBytes(n: number): string {
  const units = ['bytes', 'KB', 'MB', 'GB', 'TB'];
  let v = n;
  let u = 0;
  while (v >= 1000 && u < units.length - 1) {
    v /= 1000;
    u++;
  }
  return u === 0 ? `${v} bytes` : `${v >= 100 ? v.toFixed(0) : v.toFixed(1)} ${units[u]}`;
}
