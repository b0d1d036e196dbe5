/**
 * What a co-evolution run keeps, as plain JSON: the step samples of its
 * datasets (D0 and each distilled Ek) with their provenance and curation
 * decisions, and the phases it has finished. A sample names its task and
 * step instead of holding pixels: the world is deterministic, so
 * stateBefore(task, stepIndex) rebuilds the screen (screenHash points at its
 * PNG in the screens store, for export and for the UI).
 *
 * The field names follow AndroidControl / Mind2Web where they overlap
 * (goal, step instruction, action type, target box, value), so that the
 * exported JSONL reads like those datasets.
 */
import type { ActionType, Box, Platform, RefStyle, Task } from '../world/types';
import type { CurationStage } from '../learn/curation';
import type { DistillFunnel } from './funnel';
import type { GrounderExampleCounts } from './grounderExamples';

/** Where a sample came from: the seed writer pool (D0) or a planner's GRPO generation k. */
export type SampleOrigin = 'seed' | 'distilled';

export interface CurationNote {
  stage: CurationStage | 'verifier';
  decision: 'keep' | 'drop';
  reason: string;
}

/** One step of one task with an instruction for it: a grounder training sample and a planner SFT target. */
export interface StepSample {
  id: string; // `${runId}/${iteration}/${n}`: stable, so a rerun of a phase overwrites instead of duplicating
  runId: string;
  /** 0 for D0; k for samples distilled after planner GRPO iteration k. */
  iteration: number;
  phase: PhaseName;
  origin: SampleOrigin;
  /** The writer or model that wrote the instruction, e.g. 'writer:terse', 'planner@1'. */
  source: string;
  task: Task;
  stepIndex: number;
  platform: Platform;
  /** The goal, as the planner sees it. */
  goal: string;
  /** The instruction text (grammar.ts print form). */
  instruction: string;
  /** Its referring style, when it names a target element. */
  style: RefStyle | null;
  actionType: ActionType;
  value?: string;
  targetId?: string;
  /** The target element's box in screen pixels. */
  box?: Box;
  screenHash?: string;
  /** Kept samples train the models; dropped ones stay for the data view, with their reasons. */
  kept: boolean;
  curation: CurationNote[];
}

/** The phases of METHOD.md §2's algorithm box, in order. */
export type PhaseName =
  | 'seed-data' // D0: writer pool + verifier pool over oracle steps
  | 'sft-planner' // π0
  | 'sft-grounder' // φ0 (+ optional grounder GRPO)
  | 'planner-grpo' // πk
  | 'distill' // Ek: verified, curated successes of πk; Dk = Dk-1 ∪ Ek
  | 'grounder-train' // φk on Dk
  | 'evaluate'; // every suite for (πk, φk)

export const PHASES: readonly PhaseName[] = ['seed-data', 'sft-planner', 'sft-grounder', 'planner-grpo', 'distill', 'grounder-train', 'evaluate'];

/** Where a run is: the next phase to run, at iteration k (0 for the seed phases and the first evaluation). */
export interface PhaseCursor {
  iteration: number;
  phase: PhaseName;
}

/** Per-iteration metrics: keys `suite/split/metric` (e.g. `web/cross-domain/step_success`), values in [0, 1]. */
export type SuiteMetrics = Record<string, number>;

/** One iteration's row of the report: k = 0 is after the seed SFT. */
export interface IterationReport {
  k: number;
  /** Mean plan reward of the planner's GRPO samples at iteration k (null for k = 0, which has no GRPO). */
  planner_reward_mean: number | null;
  metrics: SuiteMetrics;
  /** Each metric's n (steps, tasks, queries, cells, episodes), for its Wilson interval; absent in runs from before it was kept. */
  n?: Record<string, number>;
  /** What the iteration's grounder phase trained on: the loop's data and real pages (absent in runs from before it was kept). */
  grounder_examples?: GrounderExampleCounts;
  /** Why this evaluation has no `real/...` metrics (the real-screen suite is drawn by a page; an engine without one skips it). */
  real_screens_skipped?: string;
}

/** report.json of a run (the headless command writes it; the UI reads the same shape). */
export interface CoevoReport {
  version: 1;
  runId: string;
  config: Record<string, unknown>;
  device: { backend: string; adapter: string };
  /** Wall time of each finished phase, in order. */
  timings: { iteration: number; phase: PhaseName; seconds: number }[];
  /** Ordered by k from 0 to K. */
  iterations: IterationReport[];
  /** Dataset Dk after each iteration: sizes and provenance counts. */
  datasets: { iteration: number; size: number; kept: number; bySource: Record<string, number>; byStyle: Record<string, number> }[];
  /** Per iteration and curation stage: how many samples it kept and dropped. */
  curation: { iteration: number; stage: string; kept: number; dropped: number }[];
  /** Per distill phase, what survived each check in order (funnel.ts); absent in reports written before it existed. */
  funnel?: DistillFunnel[];
  /** Per iteration k ≥ 1, the referring styles of πk's distilled instructions, all sampled and those kept; absent in older reports. */
  style_mix?: { iteration: number; sampled: Record<string, number>; kept: Record<string, number> }[];
  /** Share of planner GRPO groups whose rewards were not all equal, per iteration. */
  informative_group_ratio: { iteration: number; value: number }[];
  /** Training curves by metric name (e.g. 'planner-grpo/reward', 'grounder-sft/loss'), x = global step. */
  curves: Record<string, { steps: number[]; values: number[] }>;
}
