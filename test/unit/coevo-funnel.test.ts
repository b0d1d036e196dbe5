/**
 * The distillation funnel, the metric counts and the style mix in the
 * report: counts worked out by hand from small sets of samples, the stored
 * funnel preferred to the one rederived from notes, and a run from before
 * either was stored still reporting.
 */
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { failedStep, filtersOff, funnelCounts, funnelFromSummary, funnelSummary, REASON } from '../../src/coevo/funnel';
import { groundingMetrics, webMetrics, type MetricCounts, type WebStepScore } from '../../src/coevo/evaluate';
import { plannerMetrics } from '../../src/coevo/plannerFigures';
import { buildReport, countsFromSummary, evaluateSummary } from '../../src/coevo/report';
import type { CurationNote, StepSample } from '../../src/coevo/records';
import { Store } from '../../src/store/store';
import { coevoRun, phase, sample } from './coevo-store-fixtures';

const keep = (stage: CurationNote['stage']): CurationNote => ({ stage, decision: 'keep', reason: 'ok' });
const drop = (stage: CurationNote['stage'], reason: string): CurationNote => ({ stage, decision: 'drop', reason });
const passed = [keep('verifier'), keep('too-easy'), keep('misaligned')];

/** Ten distilled samples of iteration 1, one or more failing at each check. */
function tenSamples(): StepSample[] {
  const notes: CurationNote[][] = [
    [drop('verifier', REASON.unparsed)],
    [drop('verifier', `${REASON.wrongStepPrefix}TYPE, not CLICK`)],
    [drop('verifier', REASON.noRef)],
    [drop('diversity', `${REASON.duplicatePrefix}same task, step and instruction as r/1/0`)],
    [drop('verifier', 'the pool disagrees: verifier misses')],
    [keep('verifier'), drop('too-easy', 'too easy: all 7 of 7 sampled points hit')],
    [keep('verifier'), keep('too-easy'), drop('misaligned', 'misaligned: ambiguous on this screen')],
    [...passed, drop('diversity', 'not diverse: 0.100 from chosen sample r/1/9')],
    [...passed, keep('diversity')],
    [...passed, keep('diversity')],
  ];
  return notes.map((curation, n) => sample('r', n, { iteration: 1, kept: !curation.some((c) => c.decision === 'drop'), curation }));
}

describe('distillation funnel', () => {
  it('names the check each sample failed first', () => {
    expect(tenSamples().map(failedStep)).toEqual(['parsed', 'right-step', 'right-step', 'new', 'verified', 'not-too-easy', 'aligned', 'kept', null, null]);
  });

  it('counts what survives each step, in order', () => {
    // 10 sampled on 6 states: 1 unparsed, 2 wrong steps, 1 repeat, 1 pool miss, 1 too easy, 1 misaligned, 1 not diverse.
    expect(funnelCounts(tenSamples(), 6)).toEqual({ states: 6, sampled: 10, parsed: 9, 'right-step': 7, new: 6, verified: 5, 'not-too-easy': 4, aligned: 3, kept: 2 });
    expect(funnelCounts([], 0)).toEqual({ states: 0, sampled: 0, parsed: 0, 'right-step': 0, new: 0, verified: 0, 'not-too-easy': 0, aligned: 0, kept: 0 });
  });

  it('round-trips through a phase summary, and a partial one reads as absent', () => {
    const counts = funnelCounts(tenSamples(), 6);
    const summary: Record<string, number | string> = { ...funnelSummary(counts), kept: 2, skipped: 'no' };
    expect(funnelFromSummary(summary)).toEqual(counts);
    const partial = { ...summary };
    delete partial['funnel:aligned'];
    expect(funnelFromSummary(partial)).toBeNull();
  });

  it('marks the filters a config switched off', () => {
    expect([...filtersOff({ curation: { tooEasy: false, misaligned: true, diversity: false, keepFraction: 1 } })].sort()).toEqual(['kept', 'not-too-easy']);
    expect(filtersOff({}).size).toBe(0);
  });
});

describe('report: funnel, counts and style mix', () => {
  let n = 0;
  const device = { backend: 'wasm', adapter: 'none' };

  async function run(distillSummary: Record<string, number | string>, samples: StepSample[]): Promise<Store> {
    const store = await Store.open(`coevo-funnel-test-${++n}`);
    await store.putRun({ ...coevoRun('r'), config: { json: JSON.stringify({ preset: 'tiny', curation: { tooEasy: true, misaligned: false, diversity: true, keepFraction: 0.75 } }) } });
    await store.commitPhase('r', { phase: phase('r', 0, 'evaluate', 0, evaluateSummary({ 'web/all/step_success': 0.25 }, { 'web/all/step_success': 40 })) });
    await store.commitPhase('r', { phase: phase('r', 1, 'distill', 1, distillSummary), samples });
    // An evaluation from before counts were kept: metrics only.
    await store.commitPhase('r', { phase: phase('r', 2, 'evaluate', 1, evaluateSummary({ 'web/all/step_success': 0.3 })) });
    return store;
  }

  it('rederives the funnel from the notes for a run that did not store it, and marks the filters that were off', async () => {
    const samples = tenSamples().map((s, i) => ({ ...s, style: i < 4 ? ('text' as const) : i < 9 ? ('icon' as const) : null }));
    const report = await buildReport(await run({ states: 6, sampled: 10, kept: 2 }, samples), 'r', device);
    expect(report.funnel).toHaveLength(1);
    const f = report.funnel![0];
    expect(f.iteration).toBe(1);
    expect(f.steps.map((s) => s.count)).toEqual([6, 10, 9, 7, 6, 5, 4, 3, 2]);
    expect(f.steps.find((s) => s.key === 'aligned')?.off).toBe(true);
    expect(f.steps.find((s) => s.key === 'kept')?.off).toBeUndefined();
    // Styles: 4 text, 5 icon, 1 none sampled; the two kept are samples 8 (icon) and 9 (none).
    expect(report.style_mix).toEqual([{ iteration: 1, sampled: { icon: 5, none: 1, text: 4 }, kept: { icon: 1, none: 1 } }]);
    expect(report.iterations.map((it) => it.n)).toEqual([{ 'web/all/step_success': 40 }, undefined]);
  });

  it('prefers the funnel the phase stored, and carries a skipped phase\'s reason', async () => {
    const stored = { states: 3, sampled: 6, parsed: 6, 'right-step': 5, new: 5, verified: 4, 'not-too-easy': 2, aligned: 2, kept: 1 };
    const a = await buildReport(await run({ ...funnelSummary(stored) }, tenSamples()), 'r', device);
    expect(a.funnel![0].steps.map((s) => s.count)).toEqual([3, 6, 6, 5, 5, 4, 2, 2, 1]);
    const b = await buildReport(await run({ skipped: 'coevo is false', sampled: 0, kept: 0 }, []), 'r', device);
    expect(b.funnel![0].skipped).toBe('coevo is false');
    expect(b.funnel![0].steps.every((s) => s.count === 0)).toBe(true);
  });

  it('keeps counts only for metrics it has, as whole numbers', () => {
    expect(countsFromSummary(evaluateSummary({ 'grounding/all/accuracy': 0.5 }, { 'grounding/all/accuracy': 128 }))).toEqual({ 'grounding/all/accuracy': 128 });
    expect(() => evaluateSummary({ 'grounding/all/accuracy': 0.5 }, { 'grounding/all/other': 4 })).toThrow(/not a metric/);
    expect(() => evaluateSummary({ 'grounding/all/accuracy': 0.5 }, { 'grounding/all/accuracy': 2.5 })).toThrow(/whole number/);
  });

  it('the scoring functions give each metric its n', () => {
    const step = (o: Partial<WebStepScore>): WebStepScore => ({ parsed: true, hasTarget: true, elementHit: true, scoredOp: true, operationF1: 1, operationRight: true, success: true, ...o });
    const counts: MetricCounts = {};
    // Two tasks, five steps: four with a target, three scored for their op.
    webMetrics('all', [[step({}), step({ hasTarget: false, scoredOp: false })], [step({ success: false }), step({ scoredOp: false }), step({})]], counts);
    groundingMetrics('all', [true, false, true], counts);
    plannerMetrics('mobile', [{ exact: true, typeRight: true, valueF1: 1 }, { exact: false, typeRight: true }], counts);
    expect(counts).toEqual({
      'web/all/element_accuracy': 4,
      'web/all/operation_f1': 3,
      'web/all/step_success': 5,
      'web/all/task_success': 2,
      'grounding/all/accuracy': 3,
      'planner/mobile/exact': 2,
      'planner/mobile/type_accuracy': 2,
      'planner/mobile/value_f1': 1,
    });
  });
});
