/**
 * The seed study on synthetic reports with answers worked out by hand:
 * means and t-intervals over seeds, per-seed paired differences between two
 * configs (seeds only one config ran left out), the verdict's wording, and
 * the honest "one seed: no interval" case.
 */
import { describe, expect, it } from 'vitest';
import { buildStudy, changeOverK, pairRuns, summariseArm, TOO_FEW_SEEDS, type SeedRun } from '../../src/coevo/seedStudy';
import { formatSeedFigure, studyMarkdown } from '../../src/coevo/studyMarkdown';
import { studyCharts } from '../../src/coevo/studyCharts';

const STEP = 'web/all/step_success';
const GROUND = 'grounding/all/accuracy';

/** A run with the given (k → metrics). */
function run(seed: number, byK: Record<number, Record<string, number>>, arm = 'a'): SeedRun {
  return { seed, report: { runId: `${arm}-${seed}`, iterations: Object.entries(byK).map(([k, metrics]) => ({ k: Number(k), planner_reward_mean: null, metrics })) } };
}

// Full loop, seeds 1–3 (and a seed 4 the ablation never ran); ablation, seeds 1–3.
const A = [
  run(1, { 0: { [STEP]: 0.1, [GROUND]: 0.8 }, 1: { [STEP]: 0.2, [GROUND]: 0.86 } }),
  run(2, { 0: { [STEP]: 0.2, [GROUND]: 0.82 }, 1: { [STEP]: 0.25, [GROUND]: 0.9 } }),
  run(3, { 0: { [STEP]: 0.3, [GROUND]: 0.84 }, 1: { [STEP]: 0.45, [GROUND]: 0.91 } }),
];
const A4 = [...A, run(4, { 0: { [STEP]: 0.9, [GROUND]: 0.1 }, 1: { [STEP]: 0.9, [GROUND]: 0.1 } })];
const B = [
  run(3, { 0: { [STEP]: 0.3, [GROUND]: 0.84 }, 1: { [STEP]: 0.3, [GROUND]: 0.84 } }, 'b'),
  run(1, { 0: { [STEP]: 0.1, [GROUND]: 0.8 }, 1: { [STEP]: 0.1, [GROUND]: 0.8 } }, 'b'),
  run(2, { 0: { [STEP]: 0.2, [GROUND]: 0.82 }, 1: { [STEP]: 0.15, [GROUND]: 0.8 } }, 'b'),
];

describe('seed study', () => {
  it('means over seeds with a t-interval: step success at k=1 is 0.3 ± 4.3027 · 0.1323 / √3', () => {
    const arm = summariseArm('A', [], A);
    expect(arm.runs).toEqual([
      { seed: 1, runId: 'a-1' },
      { seed: 2, runId: 'a-2' },
      { seed: 3, runId: 'a-3' },
    ]);
    const f = arm.iterations[1].metrics[STEP];
    expect(f.seeds).toEqual([1, 2, 3]);
    expect(f.values).toEqual([0.2, 0.25, 0.45]);
    expect(f.mean).toBeCloseTo(0.3, 12);
    expect(f.sd).toBeCloseTo(0.13229, 5);
    expect(f.interval!.low).toBeCloseTo(-0.02862, 4);
    expect(f.interval!.high).toBeCloseTo(0.62862, 4);
  });

  it('pairs seed with seed: A − B at k=1 is 0.10, 0.10, 0.15 → 0.1167 [0.0450, 0.1884]; a seed only A ran is left out', () => {
    const p = pairRuns('A', A4, 'B', B);
    const f = p.iterations.find((it) => it.k === 1)!.metrics[STEP];
    expect(f.seeds).toEqual([1, 2, 3]);
    expect(f.values.map((v) => +v.toFixed(10))).toEqual([0.1, 0.1, 0.15]);
    expect(f.mean).toBeCloseTo(0.11667, 5);
    expect(f.interval!.low).toBeCloseTo(0.04496, 4);
    expect(f.interval!.high).toBeCloseTo(0.18838, 4);
    // At k=0 the two configs are the same models: every difference is 0.
    expect(p.iterations[0].metrics[STEP].values).toEqual([0, 0, 0]);
  });

  it('changes over k per seed: step success +0.10, +0.05, +0.15 has an interval across 0', () => {
    const c = changeOverK(A, STEP)!;
    expect([c.from, c.to]).toEqual([0, 1]);
    expect(c.change.mean).toBeCloseTo(0.1, 12);
    expect(c.change.interval!.low).toBeCloseTo(-0.02421, 4);
    expect(c.change.interval!.high).toBeCloseTo(0.22421, 4);
  });

  it('words the verdict from the intervals', () => {
    const s = buildStudy({ preset: 'tiny', iterations: 1, seeds: [1, 2, 3], a: { name: 'A', set: [], runs: A }, b: { name: 'B', set: ['coevo=false'], runs: B } });
    expect(s.verdict.map((v) => [v.half, v.comparison, v.direction])).toEqual([
      ['planner', 'over k', 'no measurable change'],
      ['planner', 'against B', 'improved'],
      ['grounder', 'over k', 'improved'],
      ['grounder', 'against B', 'improved'],
      ['pair', 'over k', 'not measured'],
      ['pair', 'against B', 'not measured'],
    ]);
    expect(s.verdict[4].sentence).toBe('Both agents: online task success is not measured at two iterations in every seed of A.');
    expect(s.verdict[0].sentence).toBe(
      'Planner: no measurable change. Web step success k=0 → k=1 in A, mean change over 3 seeds: +10.0 points, 95% interval [−2.4, +22.4].',
    );
    expect(s.verdict[1].sentence).toBe('Planner: A is above B. Web step success at k=1, A − B paired by seed over 3 seeds: +11.7 points, 95% interval [+4.5, +18.8].');
    // Grounder over k: +0.06, +0.08, +0.07 → +7.0 [+4.5, +9.5].
    expect(s.verdict[2].sentence).toContain('+7.0 points, 95% interval [+4.5, +9.5]');
  });

  it('with one seed: means without intervals, and a verdict that says why it claims nothing', () => {
    const s = buildStudy({ preset: 'tiny', iterations: 1, seeds: [1], a: { name: 'A', set: [], runs: [A[0]] }, b: { name: 'B', set: ['coevo=false'], runs: [B[1]] } });
    const f = s.paired!.iterations[1].metrics[STEP];
    expect(f.n).toBe(1);
    expect(f.interval).toBeNull();
    expect(f.note).toBe(TOO_FEW_SEEDS);
    expect(s.verdict.filter((v) => v.half !== 'pair').every((v) => v.direction === 'no measurable change')).toBe(true);
    expect(s.verdict[1].sentence).toContain(`+10.0 points, no interval (${TOO_FEW_SEEDS})`);
  });

  it('words online task success as the two agents together: A − B at k=1 of 0.25, 0.25, 0.20 → +23.3 [+16.2, +30.5]', () => {
    const ONLINE = 'online/all/task_success';
    const withOnline = (runs: SeedRun[], k1: number[]) =>
      runs.map((r) => ({ ...r, report: { ...r.report, iterations: r.report.iterations.map((it) => ({ ...it, metrics: { ...it.metrics, [ONLINE]: it.k === 0 ? 0.5 : k1[r.seed - 1] } })) } }));
    const s = buildStudy({ preset: 'tiny', iterations: 1, seeds: [1, 2, 3], a: { name: 'A', set: [], runs: withOnline(A, [0.75, 0.75, 0.7]) }, b: { name: 'B', set: ['coevo=false'], runs: withOnline(B, [0.5, 0.5, 0.5]) } });
    const pair = s.verdict.filter((v) => v.half === 'pair');
    expect(pair.map((v) => [v.comparison, v.direction])).toEqual([
      ['over k', 'improved'],
      ['against B', 'improved'],
    ]);
    expect(pair[1].sentence).toBe('Both agents: A is above B. Online task success at k=1, A − B paired by seed over 3 seeds: +23.3 points, 95% interval [+16.2, +30.5].');
    expect(studyCharts(s).map((c) => c.path)).toContain('charts/online-all-task-success-paired.svg');
  });

  it('refuses a seed given twice', () => {
    expect(() => summariseArm('A', [], [A[0], A[0]])).toThrow(/seed 1 appears twice/);
  });

  it('renders study.md with the verdict and a table per suite', () => {
    const md = studyMarkdown(buildStudy({ preset: 'tiny', iterations: 1, seeds: [1, 2, 3], a: { name: 'A', set: [], runs: A }, b: { name: 'B', set: ['coevo=false'], runs: B } }));
    const lines = md.split('\n');
    expect(lines[0]).toBe('# Seed study: preset tiny, K = 1, seeds 1, 2, 3');
    expect(lines).toContain('| B | coevo=false | 1: b-1, 2: b-2, 3: b-3 |');
    // k=0: 0.1, 0.2, 0.3 → 0.2 ± 4.3027 · 0.1 / √3.
    expect(lines).toContain('| all/step_success | 0.200 [-0.048, 0.448] (3) | 0.300 [-0.029, 0.629] (3) |');
    expect(lines).toContain('| all/step_success | +0.000 [+0.000, +0.000] (3) | +0.117 [+0.045, +0.188] (3) |');
    expect(formatSeedFigure(undefined)).toBe('—');
  });

  it('charts each headline metric per config with its interval bars, and the paired difference against zero', () => {
    const study = buildStudy({ preset: 'tiny', iterations: 1, seeds: [1, 2, 3], a: { name: 'A', set: [], runs: A }, b: { name: 'B: no-coevo', set: ['coevo=false'], runs: B } });
    const charts = studyCharts(study);
    // No reading probe in these reports: two metrics, each with its paired chart.
    expect(charts.map((c) => c.path)).toEqual(['charts/web-all-step-success.svg', 'charts/web-all-step-success-paired.svg', 'charts/grounding-all-accuracy.svg', 'charts/grounding-all-accuracy-paired.svg']);
    const [step, paired] = charts;
    expect(step.svg.startsWith('<svg')).toBe(true);
    for (const name of ['A', 'A: 95% interval', 'B: no-coevo', 'B: no-coevo: 95% interval']) expect(step.svg).toContain(`>${name}<`);
    expect(paired.svg).toContain('>no difference<');
    expect(paired.alt).toBe('web step success: paired difference A − B: no-coevo');
    const md = studyMarkdown(study, charts);
    expect(md).toContain('![web step success: mean over seeds 1, 2, 3](charts/web-all-step-success.svg)');
    // One seed has no interval: the mean line alone, no bars.
    const one = studyCharts(buildStudy({ preset: 'tiny', iterations: 1, seeds: [1], a: { name: 'A', set: [], runs: [A[0]] } }));
    expect(one.map((c) => c.path)).toEqual(['charts/web-all-step-success.svg', 'charts/grounding-all-accuracy.svg']);
    expect(one[0].svg).not.toContain('95% interval');
  });
});
