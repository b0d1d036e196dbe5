import { describe, expect, it } from 'vitest';
import { trainedIterations } from '../../src/ui/grounder/trainedIterations';
import type { CoevoProgress } from '../../workers/api';

const at = (iteration: number, phase: CoevoProgress['phase'], state: CoevoProgress['state'] = 'running'): CoevoProgress =>
  ({ runId: 'r', state, iteration, phase, phaseIndex: 0, phaseCount: 16, done: 0, total: 0, etaMs: null });

describe('the Grounder view offers only trained grounders', () => {
  it('offers nothing before φ0, then each φk once its training phase has committed', () => {
    expect(trainedIterations(3, 0, at(0, 'sft-grounder'))).toEqual([]);
    expect(trainedIterations(3, 0, at(0, 'evaluate'))).toEqual([0]);
    expect(trainedIterations(3, 1, at(1, 'planner-grpo'))).toEqual([0]);
    expect(trainedIterations(3, 1, at(1, 'grounder-train', 'paused'))).toEqual([0]);
    expect(trainedIterations(3, 1, at(1, 'evaluate'))).toEqual([0, 1]);
  });

  it('offers every k of a finished run, and falls back to the run’s K without progress', () => {
    expect(trainedIterations(3, 2, at(3, null, 'done'))).toEqual([0, 1, 2, 3]);
    expect(trainedIterations(2, 1, null)).toEqual([0, 1, 2]);
  });
});
