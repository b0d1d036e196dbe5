/**
 * The verdict and the new report.md sections on a small hand-made report:
 * intervals worked out by hand (Wilson, Newcombe), the wording following
 * the interval and never the point estimate alone, the funnel and the
 * co-evolution signature as tables.
 */
import { describe, expect, it } from 'vitest';
import type { CoevoReport, IterationReport } from '../../src/coevo/records';
import { formatRate, reportMarkdown } from '../../src/coevo/reportMarkdown';
import { runVerdict, versusVerdict } from '../../src/coevo/verdict';
import { reportOf } from './report-fixture';

const it0 = (metrics: Record<string, number>, n?: Record<string, number>, k = 0): IterationReport => ({ k, planner_reward_mean: k ? 0.3 : null, metrics, ...(n ? { n } : {}) });

const STEP = 'web/all/step_success';
const GROUND = 'grounding/all/accuracy';

const CONFIG = { preset: 'tiny', seed: 1, iterations: 1, curation: { tooEasy: true, misaligned: true, diversity: false } };
const report = (iterations: IterationReport[], extra: Partial<CoevoReport> = {}): CoevoReport => reportOf(iterations, { config: CONFIG, device: { backend: 'wasm', adapter: 'x' }, ...extra });

describe('verdict', () => {
  it('says improved only when the interval of the change lies above 0, and got worse when below', () => {
    // Planner: 10/40 → 30/40 steps, +50.0 points [+28.5, +65.3]. Grounder: 96/128 → 80/128 queries, −12.5 points [−23.4, −1.1].
    const r = report([it0({ [STEP]: 0.25, [GROUND]: 0.75 }, { [STEP]: 40, [GROUND]: 128 }), it0({ [STEP]: 0.75, [GROUND]: 0.625 }, { [STEP]: 40, [GROUND]: 128 }, 1)]);
    const [planner, grounder] = runVerdict(r);
    expect(planner.direction).toBe('improved');
    expect(planner.sentence).toBe(
      'Planner: improved. Web step success went from 0.250 [0.142, 0.402] at k=0 to 0.750 [0.598, 0.858] at k=1: +50.0 points, 95% interval [+28.5, +65.3] (n = 40 steps each).',
    );
    expect(grounder.direction).toBe('got worse');
    expect(grounder.sentence).toContain('−12.5 points, 95% interval [−23.4, −1.1] (n = 128 queries each)');
  });

  it('says "no measurable change" when the interval includes 0, however large the point change', () => {
    // 2/8 → 5/8: +37.5 points, but on 8 items the interval spans 0.
    const r = report([it0({ [STEP]: 0.25 }, { [STEP]: 8 }), it0({ [STEP]: 0.625 }, { [STEP]: 8 }, 1)]);
    const [planner, grounder] = runVerdict(r);
    expect(planner.direction).toBe('no measurable change');
    expect(planner.sentence).toMatch(/^Planner: no measurable change\. .*\+37\.5 points, 95% interval \[−[\d.]+, \+[\d.]+\]/);
    expect(grounder.direction).toBe('not measured');
  });

  it('adds one sentence for the two agents together: online task success over episodes', () => {
    // 6/16 → 12/16 episodes: +37.5 points, Newcombe [+3.3, +61.6].
    const online = 'online/all/task_success';
    const r = report([it0({ [online]: 0.375 }, { [online]: 16 }), it0({ [online]: 0.75 }, { [online]: 16 }, 1)]);
    const pair = runVerdict(r)[2];
    expect(pair.half).toBe('pair');
    expect(pair.direction).toBe('improved');
    expect(pair.sentence).toMatch(/^Both agents: improved\. Online task success went from 0\.375 .* \+37\.5 points, 95% interval \[\+[\d.]+, \+[\d.]+\] \(n = 16 episodes each\)\.$/);
  });

  it('has no interval, and so claims nothing, for a run that did not record n', () => {
    const [planner] = runVerdict(report([it0({ [STEP]: 0.1 }), it0({ [STEP]: 0.9 }, undefined, 1)]));
    expect(planner.direction).toBe('no measurable change');
    expect(planner.sentence).toContain('+80.0 points, no interval (this run did not record n)');
  });
});

describe('versus verdict', () => {
  it('compares two runs at the last k both evaluated, A − B with Newcombe\'s interval', () => {
    // A: 30/40 steps at k=1; B: 10/40 (B never reached k=2). A − B = +50.0 points [+28.5, +65.3], as above with the sign kept.
    const a = report([it0({ [STEP]: 0.1 }, { [STEP]: 40 }), it0({ [STEP]: 0.75 }, { [STEP]: 40 }, 1), it0({ [STEP]: 0.8 }, { [STEP]: 40 }, 2)]);
    const b = report([it0({ [STEP]: 0.1 }, { [STEP]: 40 }), it0({ [STEP]: 0.25 }, { [STEP]: 40 }, 1)]);
    const [planner, grounder] = versusVerdict(a, b, { a: 'full', b: 'ablation' });
    expect(planner.sentence).toBe(
      'Planner: full is above ablation. Web step success at k=1: 0.750 against 0.250, +50.0 points, 95% interval [+28.5, +65.3] (n = 40 and 40 steps); one seed each.',
    );
    expect(versusVerdict(b, a)[0].direction).toBe('got worse');
    expect(grounder.direction).toBe('not measured');
  });
});

describe('report.md: intervals, verdict, funnel and signature', () => {
  const r = report(
    [
      it0({ [STEP]: 0.25, 'styles/text/accuracy': 0.75, 'styles/icon/accuracy': 0.5 }, { [STEP]: 40, 'styles/text/accuracy': 8, 'styles/icon/accuracy': 4 }),
      it0({ [STEP]: 0.1875, 'styles/text/accuracy': 0.875, 'styles/icon/accuracy': 0.25 }, { [STEP]: 32, 'styles/text/accuracy': 8, 'styles/icon/accuracy': 4 }, 1),
    ],
    {
      funnel: [
        {
          iteration: 1,
          steps: [
            { key: 'states', label: 'states sampled', count: 10 },
            { key: 'sampled', label: 'instructions sampled', count: 20 },
            { key: 'parsed', label: 'parsed', count: 20 },
            { key: 'right-step', label: 'right type/value, names a target', count: 15 },
            { key: 'new', label: 'not a repeat', count: 12 },
            { key: 'verified', label: 'verified by the pool', count: 8 },
            { key: 'not-too-easy', label: 'not too easy', count: 3 },
            { key: 'aligned', label: 'not misaligned', count: 3 },
            { key: 'kept', label: 'kept by diversity', count: 3, off: true },
          ],
        },
      ],
      style_mix: [{ iteration: 1, sampled: { text: 15, icon: 5 }, kept: { text: 3 } }],
    },
  );
  const md = reportMarkdown(r).markdown;
  const lines = md.split('\n');

  it('formats a rate with its Wilson interval, and alone without n', () => {
    expect(formatRate(0.1875, 32)).toBe('0.188 [0.09–0.35]');
    expect(formatRate(0.1875, undefined)).toBe('0.188');
    expect(formatRate(null, 32)).toBe('—');
  });

  it('opens with the verdict, before the config', () => {
    expect(md.indexOf('## Verdict')).toBeLessThan(md.indexOf('## Config'));
    expect(lines).toContain(
      '- Planner: no measurable change. Web step success went from 0.250 [0.142, 0.402] at k=0 to 0.188 [0.089, 0.353] at k=1: −6.3 points, 95% interval [−24.4, +13.5] (n = 40 and 32 steps).',
    );
  });

  it('puts n and the interval in the metric tables', () => {
    expect(lines).toContain('| step_success | 40/32 | 0.250 [0.14–0.40] | 0.188 [0.09–0.35] | -0.063 |');
  });

  it('tabulates the funnel with each step as a share of what was sampled, and marks a filter that was off', () => {
    const at = lines.indexOf('| check | E1 |');
    expect(at).toBeGreaterThan(0);
    expect(lines.slice(at + 2, at + 11)).toEqual([
      '| states sampled | 10 |',
      '| instructions sampled | 20 (100%) |',
      '| parsed | 20 (100%) |',
      '| right type/value, names a target | 15 (75%) |',
      '| not a repeat | 12 (60%) |',
      '| verified by the pool | 8 (40%) |',
      '| not too easy | 3 (15%) |',
      '| not misaligned | 3 (15%) |',
      '| kept by diversity (off) | 3 (15%) |',
    ]);
  });

  it("puts the planner's style mix beside the grounder's accuracy per style", () => {
    const at = lines.indexOf('| style | planner k=0 | grounder k=0 | planner k=1 | grounder k=1 |');
    expect(at).toBeGreaterThan(0);
    expect(lines).toContain('| text | — | 0.750 [0.41–0.93] | 75% | 0.875 [0.53–0.98] |');
    expect(lines).toContain('| icon | — | 0.500 [0.15–0.85] | 25% | 0.250 [0.05–0.70] |');
  });

  it('says so when a report predates the funnel', () => {
    const old = reportMarkdown(report([it0({ [STEP]: 0.25 })])).markdown;
    expect(old).toContain('This report predates the funnel.');
    expect(old).toContain('Planner: web step success is not measured at two iterations yet');
  });
});
