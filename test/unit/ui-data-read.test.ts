import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import type { StepSample } from '../../src/coevo/records';
import { evaluateSummary, grpoSummary } from '../../src/coevo/report';
import { Store } from '../../src/store';
import type { Task } from '../../src/world/types';
import { listCoevoRuns, loadReport, loadRunData, runLabel } from '../../src/ui/runData';

const task: Task = { id: 't', templateId: 'mail.send', appId: 'mail', domain: 'mail', platform: 'web', variant: 0, seed: 1, params: {}, goal: 'Send a mail' };

function sample(runId: string, iteration: number, n: number, kept: boolean): StepSample {
  return {
    id: `${runId}/${iteration}/${n}`, runId, iteration, phase: iteration === 0 ? 'seed-data' : 'distill', origin: iteration === 0 ? 'seed' : 'distilled',
    source: iteration === 0 ? 'writer:terse' : `planner@${iteration}`, task, stepIndex: 0, platform: 'web', goal: task.goal, instruction: `click ${n}`,
    style: 'text', actionType: 'CLICK', kept, curation: [{ stage: 'verifier', decision: kept ? 'keep' : 'drop', reason: kept ? 'agrees' : 'disagrees' }],
  };
}

describe('the main-thread read model', () => {
  it('reads a run\'s samples and the same report as report.json, straight from the store', async () => {
    const store = await Store.open();
    const runId = 'ui-read-1';
    await store.putRun({ id: runId, kind: 'coevo', name: 'full loop', createdAt: 2, status: 'running', backend: 'wasm', seed: 1, config: { coevo: true } });
    await store.putRun({ id: 'ablation', kind: 'coevo', name: 'ablation', createdAt: 3, status: 'done', backend: 'wasm', seed: 1, config: { coevo: false } });
    await store.putRun({ id: 'tiny-job', kind: 'tiny-regression', name: 'tiny', createdAt: 4, status: 'done', backend: 'wasm', seed: 1, config: {} });
    const phase = (index: number, iteration: number, name: 'seed-data' | 'planner-grpo' | 'distill' | 'evaluate', summary: Record<string, number> = {}) => ({
      runId, index, iteration, phase: name, startedAt: 0, finishedAt: 1000, summary,
    });
    await store.commitPhase(runId, { phase: phase(0, 0, 'seed-data'), samples: [sample(runId, 0, 0, true), sample(runId, 0, 1, false)] });
    await store.commitPhase(runId, { phase: phase(1, 0, 'evaluate', evaluateSummary({ 'web/cross-task/step_success': 0.25 })) });
    await store.commitPhase(runId, { phase: phase(2, 1, 'planner-grpo', grpoSummary({ rewardMean: 0.5, informativeRatio: 0.75 })), metrics: [{ name: 'planner-grpo/reward', steps: [1, 2], values: [0.4, 0.6] }] });
    await store.commitPhase(runId, { phase: phase(3, 1, 'distill'), samples: [sample(runId, 1, 0, true)] });
    await store.commitPhase(runId, { phase: phase(4, 1, 'evaluate', evaluateSummary({ 'web/cross-task/step_success': 0.5 })) });

    const data = await loadRunData(runId);
    expect(data?.samples.map((s) => s.id)).toEqual([`${runId}/0/0`, `${runId}/0/1`, `${runId}/1/0`]);
    expect(data?.report.iterations).toEqual([
      { k: 0, planner_reward_mean: null, metrics: { 'web/cross-task/step_success': 0.25 } },
      { k: 1, planner_reward_mean: 0.5, metrics: { 'web/cross-task/step_success': 0.5 } },
    ]);
    expect(data?.report.datasets.map((d) => [d.size, d.kept])).toEqual([[2, 1], [3, 2]]);
    expect(data?.report.informative_group_ratio).toEqual([{ iteration: 1, value: 0.75 }]);
    expect((await loadReport(runId))?.report.curves['planner-grpo/reward']).toEqual({ steps: [1, 2], values: [0.4, 0.6] });

    expect(await loadRunData('no-such-run')).toBeNull();
    const runs = await listCoevoRuns();
    expect(runs.map((r) => r.id)).toEqual(['ablation', runId]);
    expect(runLabel(runs[0])).toMatch(/^ablation \(coevo off\), /);
    expect(runLabel(runs[1])).not.toContain('coevo off');
  });
});
