/** What each phase of METHOD.md §2 runs. */
import type { PhaseName } from '../records';
import type { PhaseRun } from './context';
import { distillPhase } from './distill';
import { evaluatePhase } from './evaluate';
import { grounderSftPhase, grounderTrainPhase } from './grounderTrain';
import { plannerGrpoPhase } from './plannerGrpo';
import { plannerSftPhase } from './plannerSft';
import { seedDataPhase } from './seed';

export const PHASE_RUNS: Readonly<Record<PhaseName, PhaseRun>> = {
  'seed-data': seedDataPhase,
  'sft-planner': plannerSftPhase,
  'sft-grounder': grounderSftPhase,
  'planner-grpo': plannerGrpoPhase,
  distill: distillPhase,
  'grounder-train': grounderTrainPhase,
  evaluate: evaluatePhase,
};
