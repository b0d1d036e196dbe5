/**
 * The base planner's per-split measurement: the Wilson interval matches its
 * textbook values, each split has the states asked for, and the held-out
 * splits hold no training task (a figure on them is a generalisation claim).
 */
import { describe, expect, it } from 'vitest';
import { plannerSplitStates, PLANNER_SPLITS, wilson } from '../../src/pretrain/plannerSplits';
import { isTrainingTask } from '../../src/world/suites';

describe('per-split planner measurement', () => {
  it('Wilson 95% intervals: 0/10, 5/10, 80/100', () => {
    const a = wilson(0, 10);
    expect(a.low).toBe(0);
    expect(a.high).toBeCloseTo(0.2775, 3);
    const b = wilson(5, 10);
    expect(b.low).toBeCloseTo(0.2366, 3);
    expect(b.high).toBeCloseTo(0.7634, 3);
    const c = wilson(80, 100);
    expect(c.low).toBeCloseTo(0.7111, 3);
    expect(c.high).toBeCloseTo(0.8666, 3);
  });

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
