import { describe, expect, it } from 'vitest';
import { iterationText, iterationsOf, phaseStates } from '../../src/ui/loop/diagram';
import { formatEta } from '../../src/ui/timeLeft';
import { summaryRows } from '../../src/ui/loop/summary';
import type { CoevoProgress } from '../../workers/api';
import type { PhaseName } from '../../src/coevo/records';

const at = (phaseIndex: number, phase: PhaseName | null, iteration: number, K = 2): CoevoProgress => ({
  runId: 'r', state: 'paused', iteration, phase, phaseIndex, phaseCount: 4 + 4 * K, done: 0, total: 0, etaMs: null,
});

describe('the loop diagram state', () => {
  it('knows K from the plan length', () => {
    expect(iterationsOf({ phaseCount: 4 })).toBe(0);
    expect(iterationsOf({ phaseCount: 16 })).toBe(3);
  });

  it('lights the next phase and ticks what ran before it', () => {
    const s = phaseStates(at(2, 'sft-grounder', 0));
    expect(s['sft-grounder']).toBe('lit');
    expect([s['seed-data'], s['sft-planner']]).toEqual(['done', 'done']);
    expect([s.evaluate, s['planner-grpo'], s.distill, s['grounder-train']]).toEqual(['todo', 'todo', 'todo', 'todo']);
  });

  it('draws one iteration at a time: iteration 2 starts with its loop phases unticked', () => {
    // plan: 0..3 seed, 4..7 iteration 1, 8..11 iteration 2
    const s = phaseStates(at(9, 'distill', 2));
    expect(s.distill).toBe('lit');
    expect(s['planner-grpo']).toBe('done');
    expect(s['grounder-train']).toBe('todo');
    expect(s.evaluate).toBe('todo');
    expect(s['seed-data']).toBe('done');
    expect(Object.values(s).filter((v) => v === 'lit')).toHaveLength(1);
  });

  it('ticks everything when the run is finished, and nothing without a run', () => {
    expect(new Set(Object.values(phaseStates(at(12, null, 2))))).toEqual(new Set(['done']));
    expect(new Set(Object.values(phaseStates(null)))).toEqual(new Set(['todo']));
  });

  it('names the iteration', () => {
    expect(iterationText(null)).toBe('No run yet');
    expect(iterationText(at(0, 'seed-data', 0, 3))).toBe('Iteration 0 of 3: the seed');
    expect(iterationText(at(5, 'distill', 1, 3))).toBe('Iteration 1 of 3');
    expect(iterationText(at(8, null, 1, 1))).toBe('Finished all 1 iteration');
  });
});

describe('words and numbers', () => {
  it('says how long a phase still needs', () => {
    expect(formatEta(null)).toMatch(/estimating/);
    expect(formatEta(400)).toBe('almost done');
    expect(formatEta(42_000)).toBe('about 42 s left');
    expect(formatEta(125_000)).toBe('about 2 min 5 s left');
    expect(formatEta(2 * 3600_000 + 60_000)).toBe('about 2 h 1 min left');
  });

  it('turns a phase summary into readable rows', () => {
    const rows = summaryRows({ samples: 1234, loss_last: 0.123456, 'metric:web/cross-site/step_success': 0.5, informative_ratio: 0.25, skipped: 'x'.repeat(100) });
    expect(rows.map((r) => [r.label, r.value])).toEqual([
      ['samples', '1,234'],
      ['loss last', '0.123'],
      ['web · cross-site · step success', '50.0 %'],
      ['informative ratio', '25.0 %'],
      ['skipped', `${'x'.repeat(79)}…`],
    ]);
  });
});
