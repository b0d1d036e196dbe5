/** A co-evolution run small enough for an e2e test: every phase runs, on a handful of items (tiny preset). */
import type { CoevoStartOptions } from '../../workers/api';

export const MINI: CoevoStartOptions = {
  preset: 'tiny',
  seed: 4,
  iterations: 1,
  config: {
    // The seed SFT runs on top of the base planner, so the tests that pause or fail inside a training phase have one here.
    plannerSftOnBase: true,
    seedTasks: 3,
    plannerSftSteps: 3,
    grounderSftSteps: 3,
    plannerGrpoSteps: 2,
    grounderTrainSteps: 3,
    plannerBatch: 4,
    grounderBatch: 4,
    grpoPrompts: 2,
    groupSize: 3,
    distillStates: 4,
    evalSize: 2,
  },
};
