import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { buildReport, evaluateSummary, grpoSummary, INFORMATIVE_RATIO, metricsFromSummary, REWARD_MEAN } from '../../src/coevo/report';
import type { CurationNote } from '../../src/coevo/records';
import { Store } from '../../src/store/store';
import { coevoRun, phase, sample } from './coevo-store-fixtures';

let n = 0;
const device = { backend: 'wasm', adapter: 'none (WASM, SIMD)' };
const note = (stage: CurationNote['stage'], decision: CurationNote['decision']): CurationNote => ({ stage, decision, reason: `${stage} says ${decision}` });

const eval0 = { 'web/cross-domain/step_success': 0.25, 'grounding/mobile-icon/accuracy': 0.5 };
const eval1 = { 'web/cross-domain/step_success': 0.375, 'grounding/mobile-icon/accuracy': 0.625 };

/** A run of one iteration, committed phase by phase the way the engine does. */
async function oneIterationRun(): Promise<Store> {
  const store = await Store.open(`coevo-report-test-${++n}`);
  await store.putRun(coevoRun('r'));
  const commit = (p: ReturnType<typeof phase>, samples = [] as ReturnType<typeof sample>[], metrics = [] as { name: string; steps: number[]; values: number[] }[]) =>
    store.commitPhase('r', { phase: p, samples, metrics });
  await commit(phase('r', 0, 'seed-data', 0, { samples: 4 }, 3), [
    sample('r', 0, { source: 'writer:terse', style: 'text' }),
    sample('r', 1, { source: 'writer:terse', style: 'icon' }),
    sample('r', 2, { source: 'writer:verbose', style: null }),
    sample('r', 3, { source: 'writer:wrong', kept: false }),
  ]);
  await commit(phase('r', 1, 'sft-planner', 0, {}, 10), [], [{ name: 'planner-sft/loss', steps: [1, 2], values: [3, 2] }]);
  await commit(phase('r', 2, 'sft-grounder', 0, { loop_examples: 30, real_examples: 10, real_pages: 140 }, 20), [], [{ name: 'grounder-sft/loss', steps: [1, 2], values: [4, 1.5] }]);
  await commit(phase('r', 3, 'evaluate', 0, evaluateSummary(eval0), 5));
  await commit(phase('r', 4, 'planner-grpo', 1, { ...grpoSummary({ rewardMean: 0.4, informativeRatio: 0.75 }), groups: 8 }, 30), [], [{ name: 'planner-grpo/reward', steps: [3, 4], values: [0.3, 0.5] }]);
  await commit(phase('r', 5, 'distill', 1, { kept: 2 }, 8), [
    sample('r', 0, { iteration: 1, source: 'planner@1', style: 'color', curation: [note('verifier', 'keep'), note('too-easy', 'keep'), note('misaligned', 'keep'), note('diversity', 'keep')] }),
    sample('r', 1, { iteration: 1, source: 'planner@1', style: 'color', curation: [note('verifier', 'keep'), note('too-easy', 'keep'), note('misaligned', 'keep'), note('diversity', 'keep')] }),
    sample('r', 2, { iteration: 1, source: 'planner@1', style: 'text', kept: false, curation: [note('verifier', 'keep'), note('too-easy', 'drop')] }),
    sample('r', 3, { iteration: 1, source: 'planner@1', style: 'text', kept: false, curation: [note('verifier', 'drop')] }),
  ]);
  await commit(phase('r', 6, 'grounder-train', 1, { loop_examples: 16, real_skipped: 'no page gave this engine the real training pages' }, 40), [], [{ name: 'grounder-sft/loss', steps: [3], values: [1.25] }]);
  await commit(phase('r', 7, 'evaluate', 1, evaluateSummary(eval1), 6));
  return store;
}

describe('buildReport', () => {
  it('reads config, timings, iterations, datasets, curation and curves from the store', async () => {
    const store = await oneIterationRun();
    const report = await buildReport(store, 'r', device);
    expect(report).toEqual({
      version: 1,
      runId: 'r',
      config: coevoRun('r').config,
      device,
      timings: [
        { iteration: 0, phase: 'seed-data', seconds: 3 },
        { iteration: 0, phase: 'sft-planner', seconds: 10 },
        { iteration: 0, phase: 'sft-grounder', seconds: 20 },
        { iteration: 0, phase: 'evaluate', seconds: 5 },
        { iteration: 1, phase: 'planner-grpo', seconds: 30 },
        { iteration: 1, phase: 'distill', seconds: 8 },
        { iteration: 1, phase: 'grounder-train', seconds: 40 },
        { iteration: 1, phase: 'evaluate', seconds: 6 },
      ],
      iterations: [
        // What each grounder phase trained on: loop data and real pages, or why no pages.
        { k: 0, planner_reward_mean: null, metrics: eval0, grounder_examples: { loop: 30, real: 10 } },
        { k: 1, planner_reward_mean: 0.4, metrics: eval1, grounder_examples: { loop: 16, real: 0, real_skipped: 'no page gave this engine the real training pages' } },
      ],
      datasets: [
        { iteration: 0, size: 4, kept: 3, bySource: { 'writer:terse': 2, 'writer:verbose': 1 }, byStyle: { icon: 1, none: 1, text: 1 } },
        { iteration: 1, size: 8, kept: 5, bySource: { 'planner@1': 2, 'writer:terse': 2, 'writer:verbose': 1 }, byStyle: { color: 2, icon: 1, none: 1, text: 1 } },
      ],
      curation: [
        { iteration: 0, stage: 'verifier', kept: 3, dropped: 1 },
        { iteration: 1, stage: 'verifier', kept: 3, dropped: 1 },
        { iteration: 1, stage: 'too-easy', kept: 2, dropped: 1 },
        { iteration: 1, stage: 'misaligned', kept: 2, dropped: 0 },
        { iteration: 1, stage: 'diversity', kept: 2, dropped: 0 },
      ],
      // Four sampled: one dropped by the pool, one as too easy (the phase stored no states count).
      funnel: [
        {
          iteration: 1,
          steps: [
            ['states', 'states sampled', 0],
            ['sampled', 'instructions sampled', 4],
            ['parsed', 'parsed', 4],
            ['right-step', 'right type/value, names a target', 4],
            ['new', 'not a repeat', 4],
            ['verified', 'verified by the pool', 3],
            ['not-too-easy', 'not too easy', 2],
            ['aligned', 'not misaligned', 2],
            ['kept', 'kept by diversity', 2],
          ].map(([key, label, count]) => ({ key, label, count })),
        },
      ],
      style_mix: [{ iteration: 1, sampled: { color: 2, text: 2 }, kept: { color: 2 } }],
      informative_group_ratio: [{ iteration: 1, value: 0.75 }],
      curves: {
        'grounder-sft/loss': { steps: [1, 2, 3], values: [4, 1.5, 1.25] },
        'planner-grpo/reward': { steps: [3, 4], values: [0.3, 0.5] },
        'planner-sft/loss': { steps: [1, 2], values: [3, 2] },
      },
    });
    // The report survives JSON (report.json) unchanged.
    expect(JSON.parse(JSON.stringify(report))).toEqual(report);
    store.close();
  });

  it('times a phase by its active seconds where it kept them: a phase resumed after a night is not a night long', async () => {
    const store = await Store.open(`coevo-report-test-${++n}`);
    await store.putRun(coevoRun('r'));
    await store.commitPhase('r', { phase: phase('r', 0, 'seed-data', 0, { active_seconds: 12.5 }, 36_000) });
    await store.commitPhase('r', { phase: phase('r', 1, 'sft-planner', 0, {}, 7) });
    expect((await buildReport(store, 'r', device)).timings).toEqual([
      { iteration: 0, phase: 'seed-data', seconds: 12.5 },
      { iteration: 0, phase: 'sft-planner', seconds: 7 },
    ]);
    store.close();
  });

  it('reports a run stopped before its first evaluation, and a re-evaluated iteration by its latest phase', async () => {
    const store = await Store.open(`coevo-report-test-${++n}`);
    await store.putRun(coevoRun('r'));
    expect(await buildReport(store, 'r', device)).toMatchObject({ timings: [], iterations: [], datasets: [], curation: [], informative_group_ratio: [], curves: {} });
    await store.commitPhase('r', { phase: phase('r', 3, 'evaluate', 0, evaluateSummary({ 'mobile/high/step_accuracy': 0.5 })) });
    await store.commitPhase('r', { phase: phase('r', 9, 'evaluate', 0, { ...evaluateSummary({ 'mobile/high/step_accuracy': 0.75 }), note: 'rerun' }) });
    const report = await buildReport(store, 'r', device);
    expect(report.iterations).toEqual([{ k: 0, planner_reward_mean: null, metrics: { 'mobile/high/step_accuracy': 0.75 } }]);
    expect(report.datasets).toEqual([{ iteration: 0, size: 0, kept: 0, bySource: {}, byStyle: {} }]);
    await expect(buildReport(store, 'missing', device)).rejects.toThrow('No run with id missing, so there is nothing to report.');
    store.close();
  });

  it('writes and reads the summary keys it defines, and refuses malformed metrics', () => {
    const summary = evaluateSummary(eval1);
    expect(summary).toEqual({ 'metric:web/cross-domain/step_success': 0.375, 'metric:grounding/mobile-icon/accuracy': 0.625 });
    expect(metricsFromSummary({ ...summary, [REWARD_MEAN]: 0.1, 'metric:bad': 'text' })).toEqual(eval1);
    expect(grpoSummary({ rewardMean: 0.2, informativeRatio: 0.5 })).toEqual({ [REWARD_MEAN]: 0.2, [INFORMATIVE_RATIO]: 0.5 });
    expect(() => evaluateSummary({ 'web/step_success': 0.5 })).toThrow('Metric key "web/step_success" is not of the form suite/split/metric.');
    expect(() => evaluateSummary({ 'web/all/step_success': 1.5 })).toThrow('Metric web/all/step_success = 1.5 is not a fraction in [0, 1].');
    expect(() => evaluateSummary({ 'web/all/step_success': Number.NaN })).toThrow(/is not a fraction/);
  });
});
