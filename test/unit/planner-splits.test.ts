/**
 * The base planner's per-split measurement: each split has the states asked
 * for, and the held-out splits hold no training task (a figure on them is a
 * generalisation claim). The Wilson interval is tested in stats.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { plannerSplitStates, PLANNER_SPLITS } from '../../src/pretrain/plannerSplits';
import { isTrainingTask } from '../../src/world/suites';

describe('per-split planner measurement', () => {
  it('gives n states per split; only the training split draws training tasks', () => {
    const splits = plannerSplitStates(1, 400);
    for (const split of PLANNER_SPLITS) {
      const states = splits[split];
      expect(states.length, split).toBe(400);
      const training = states.filter((s) => isTrainingTask(s.task)).length;
      expect(training, split).toBe(split === 'training templates' ? 400 : 0);
    }
  });
});
