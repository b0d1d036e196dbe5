/**
 * What every phase gets and gives back. A phase is a function from a
 * PhaseContext to a PhaseOutput: it reads models and data from the run
 * state, runs each of its batches through ctx.journal.batch (which waits at
 * the machine's gate, so pause and step-one-batch work inside it, and
 * records the batch so a reload can resume the phase there), reports
 * progress, and writes nothing else: the runner commits its output in one
 * transaction and only then installs its models and samples into the run
 * state.
 *
 * Its randomness is ctx.rng, forked from the run's seed by iteration and
 * phase, so a phase rerun after a reload draws exactly what it drew before;
 * streams that batches draw from are registered with the journal.
 */
import type { PresetName } from '../../models/presets';
import type { Params } from '../../models/params';
import type { Paint } from '../../learn/stepCheck';
import { Random } from '../../learn/random';
import type { CheckpointRecord } from '../../store/schema';
import type { RealScreenInput } from '../../realScreens/suiteInput';
import type { RealPageRenderer } from '../../pretrain/realPool';
import type { MetricPoints } from '../../store/store';
import type { CoevoConfig } from '../config';
import type { PhaseJournal } from '../phaseJournal';
import type { GroupRecord } from '../groupRecords';
import type { PhaseName, StepSample } from '../records';
import type { ModelName, RunState } from '../runState';

export interface PhaseProgress {
  /** Items (steps, queries, samples) done of `total` in this phase. */
  done: number;
  total: number;
  loss?: number;
  reward?: number;
}

/** Shipped base weights (safetensors bytes) for a run that starts from them (config.start = 'base'). */
export type BaseLoader = (model: ModelName, preset: PresetName) => Promise<Uint8Array>;

/**
 * The held-out real-screen suite as a page rendered it (its DOM lays the
 * pages out, so the engine cannot draw them itself), asked for when an
 * evaluation needs it; null when this engine has no page to ask (Node).
 */
export type RealScreenSource = () => Promise<RealScreenInput[] | null>;

export interface PhaseContext {
  runId: string;
  config: CoevoConfig;
  iteration: number;
  phase: PhaseName;
  state: RunState;
  paint: Paint;
  rng: Random;
  /** Runs every batch of the phase (see phaseJournal.ts for the rules a phase keeps). */
  journal: PhaseJournal;
  signal: AbortSignal;
  report(p: PhaseProgress): void;
  base?: BaseLoader;
  /** Where the evaluation gets the real-screen suite; absent, it skips those metrics and says so. */
  realScreens?: RealScreenSource;
  /** Draws real training pages for the grounder's real-DOM mix (config.grounderRealShare); absent, the grounder trains on Dk alone and says so. */
  realPages?: RealPageRenderer;
}

export interface PhaseOutput {
  /** The phase record's headline numbers (report.ts defines the keys the report reads). */
  summary: Record<string, number | string>;
  samples?: StepSample[];
  checkpoints?: CheckpointRecord[];
  metrics?: MetricPoints[];
  /** The planner of this iteration; the run state owns it once committed. */
  planner?: Params;
  /** The grounder of this iteration; the run state owns it once committed. */
  grounder?: Params;
  /** GRPO groups kept for the inspector (planner-grpo only), committed with the rest. */
  groups?: GroupRecord[];
}

export type PhaseRun = (ctx: PhaseContext) => Promise<PhaseOutput>;

/** The seeded random source of one phase of one iteration: the same draws on every rerun and every backend. */
export function phaseRandom(seed: number, iteration: number, phase: PhaseName): Random {
  return new Random(seed).fork(`${iteration}/${phase}`);
}

/**
 * Points of named metric series, numbered after where each series ended in
 * the committed run, so steps stay global and increasing across phases,
 * iterations and reloads.
 */
export class SeriesWriter {
  private readonly points = new Map<string, MetricPoints>();

  constructor(private readonly state: RunState) {}

  push(name: string, value: number): void {
    let p = this.points.get(name);
    if (!p) this.points.set(name, (p = { name, steps: [], values: [] }));
    p.steps.push(this.state.seriesLast(name) + p.steps.length + 1);
    p.values.push(value);
  }

  toPoints(): MetricPoints[] {
    return [...this.points.values()];
  }
}

export { mean } from '../../learn/stats';
