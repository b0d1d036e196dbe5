/**
 * The data owner's private set for the planner: tasks on the held-out sites
 * (suites.ts's cross-site split), which no planner training ever draws
 * from, split by task into the owner's tuning tasks and the test tasks the
 * comparison is measured on. Splitting by task keeps every step of a test
 * task out of tuning.
 */
import { plannerStatesOf, plannerStatesOfTask, trainingPlannerStates, type PlannerState } from '../learn/plannerStates';
import { Random } from '../learn/random';
import { buildSuites } from '../world/suites';

export interface PrivateSet {
  train: PlannerState[];
  test: PlannerState[];
  trainTasks: number;
  testTasks: number;
}

export function plannerPrivateSet(seed: number, tasks: number, testShare = 0.5, testStates = Infinity): PrivateSet {
  const all = new Random(seed).fork('offsite private').shuffle(buildSuites(seed, { webPerSplit: tasks, mobile: 0, groundingPerSplit: 0 }).web['cross-site']);
  const nTest = Math.round(testShare * all.length);
  const test = all.slice(0, nTest);
  const train = all.slice(nTest);
  return { train: train.flatMap(plannerStatesOfTask), test: plannerStatesOf(test, testStates), trainTasks: train.length, testTasks: test.length };
}

/** The model owner's public data: states of the training templates (what the base planner was trained on). */
export function plannerPublicStates(seed: number, count: number): PlannerState[] {
  return trainingPlannerStates(new Random(seed).fork('offsite public'), count).slice(0, count);
}
