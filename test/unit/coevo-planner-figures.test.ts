/**
 * The planner's own figures (src/coevo/plannerFigures.ts) on cases whose
 * answer is known: one state scored against the oracle's instruction and
 * against variations of it, the per-split means with keys left out where
 * nothing was measured, the keys' way into the phase summary the report
 * reads, and the gated agent passing sampling and cut prompts through.
 */
import { describe, expect, it } from 'vitest';
import type { Agent, Sampling } from '../../src/coevo/evaluateOnline';
import { gatedAgent } from '../../src/coevo/phases/training';
import { plannerMetrics, scorePlannerStep, type PlannerStepScore } from '../../src/coevo/plannerFigures';
import { evaluateSummary, metricsFromSummary } from '../../src/coevo/report';
import { plannerStatesOfTask, type PlannerState } from '../../src/learn/plannerStates';
import { Random } from '../../src/learn/random';
import { printInstruction } from '../../src/text/grammar';
import { buildSuites } from '../../src/world/suites';
import type { ActionType } from '../../src/world/types';

const suites = buildSuites(3, { webPerSplit: 3, mobile: 3, groundingPerSplit: 3 });
const states = [...suites.web['cross-task'], ...suites.web['cross-site'], ...suites.mobile].flatMap(plannerStatesOfTask);
const first = (type: ActionType): PlannerState => {
  const s = states.find((x) => x.step.type === type);
  if (!s) throw new Error(`no ${type} step in the test suites`);
  return s;
};

describe('scorePlannerStep', () => {
  const typing = first('TYPE');
  const truth = typing.step.value ?? '';
  const words = truth.split(/\s+/).filter(Boolean).length;

  it('the oracle\'s own instruction: type and target right, value F1 1', () => {
    expect(scorePlannerStep(typing, typing.instruction)).toEqual({ exact: true, typeRight: true, valueF1: 1 });
  });

  it('the right target with one extra word in the value: still exact, value F1 2n / (2n + 1)', () => {
    const text = printInstruction({ ...typing.step.instruction, value: `${truth} zzz` });
    const s = scorePlannerStep(typing, text);
    expect(s).toMatchObject({ exact: true, typeRight: true });
    expect(s.valueF1).toBeCloseTo((2 * words) / (2 * words + 1), 10);
  });

  it('a click on the same element: wrong type, not exact, and no value (F1 0)', () => {
    const text = printInstruction({ action: 'CLICK', ref: typing.step.instruction.ref, phrasing: 0 });
    expect(scorePlannerStep(typing, text)).toEqual({ exact: false, typeRight: false, valueF1: 0 });
  });

  it('an unparseable instruction scores 0; a step without a value has no value F1', () => {
    expect(scorePlannerStep(typing, 'hello')).toEqual({ exact: false, typeRight: false, valueF1: 0 });
    const click = first('CLICK');
    expect(scorePlannerStep(click, click.instruction)).toEqual({ exact: true, typeRight: true });
  });

  it('a step without a target is exact only with the same value (scroll the other way: type right, not exact)', () => {
    const scroll = first('SCROLL');
    const other = scroll.step.value === 'down' ? 'up' : 'down';
    expect(scorePlannerStep(scroll, `scroll ${other}`)).toEqual({ exact: false, typeRight: true, valueF1: 0 });
    expect(scorePlannerStep(scroll, `scroll ${scroll.step.value}`)).toEqual({ exact: true, typeRight: true, valueF1: 1 });
  });

  it('a sampled instruction counts by whether it parses; a cut prompt as the agent says', () => {
    expect(scorePlannerStep(typing, 'hello', { sampled: typing.instruction, promptCut: true })).toMatchObject({ sampledParsed: true, promptCut: true });
    expect(scorePlannerStep(typing, typing.instruction, { sampled: 'click click click', promptCut: false })).toMatchObject({ exact: true, sampledParsed: false, promptCut: false });
  });
});

describe('plannerMetrics', () => {
  const scores: PlannerStepScore[] = [
    { exact: true, typeRight: true, valueF1: 1, sampledParsed: true, promptCut: false },
    { exact: false, typeRight: true, sampledParsed: false, promptCut: true },
    { exact: false, typeRight: false, valueF1: 0.5, sampledParsed: true, promptCut: true },
  ];

  it('means per split, value F1 over the steps that have a value', () => {
    const m = plannerMetrics('cross-site', scores);
    expect(Object.keys(m)).toEqual(['exact', 'type_accuracy', 'value_f1', 'parse_sampled', 'prompts_cut'].map((k) => `planner/cross-site/${k}`));
    expect(m['planner/cross-site/exact']).toBeCloseTo(1 / 3, 10);
    expect(m['planner/cross-site/type_accuracy']).toBeCloseTo(2 / 3, 10);
    expect(m['planner/cross-site/value_f1']).toBe(0.75);
    expect(m['planner/cross-site/parse_sampled']).toBeCloseTo(2 / 3, 10);
    expect(m['planner/cross-site/prompts_cut']).toBeCloseTo(2 / 3, 10);
  });

  it('leaves out what was not measured rather than reporting a made-up 0', () => {
    expect(plannerMetrics('mobile', [{ exact: true, typeRight: true }])).toEqual({ 'planner/mobile/exact': 1, 'planner/mobile/type_accuracy': 1 });
    expect(plannerMetrics('mobile', [])).toEqual({});
  });

  it('goes into the evaluate phase\'s summary and comes back out for the report', () => {
    const m = plannerMetrics('cross-domain', scores);
    const summary = evaluateSummary(m);
    expect(summary['metric:planner/cross-domain/value_f1']).toBe(0.75);
    expect(metricsFromSummary(summary)).toEqual(m);
  });
});

/** A planner query for the first typing step. */
function typingQuery() {
  const s = first('TYPE');
  return { task: s.task, screen: s.screen, history: s.parts.history };
}

describe('gatedAgent', () => {
  it('waits at the gate before each sampled batch, passes the sampling through, and tells cut prompts without waiting', async () => {
    let waits = 0;
    const gate = { batch: <T>(compute: () => Promise<T>) => (waits++, compute()) };
    const seen: Sampling[] = [];
    const agent: Agent = {
      plan: async (qs) => qs.map(() => 'greedy'),
      sample: async (qs, sampling) => (seen.push(sampling), qs.map(() => 'sampled')),
      promptCut: (qs) => qs.map((q) => q.history.length > 0),
      ground: async (qs) => qs.map(() => null),
    };
    const s = typingQuery();
    const sampling: Sampling = { temperature: 0.9, rng: new Random(2) };
    const gated = gatedAgent(agent, gate);
    expect(await gated.sample!([s, s], sampling)).toEqual(['sampled', 'sampled']);
    expect(seen).toEqual([sampling]);
    expect(seen[0]).toBe(sampling);
    expect(waits).toBe(1);
    expect(gated.promptCut!([s, { ...s, history: [] }])).toEqual([s.history.length > 0, false]);
    expect(waits).toBe(1);
    // An agent that only plans greedily stays one.
    const plain = gatedAgent({ plan: agent.plan, ground: agent.ground }, gate);
    expect('sample' in plain).toBe(false);
    expect('promptCut' in plain).toBe(false);
  });
});
