import { describe, expect, it } from 'vitest';
import type { CurationNote, StepSample } from '../../src/coevo/records';
import type { Task } from '../../src/world/types';
import {
  NO_FILTERS, applyFilters, bySourceOrder, decidingNote, decisionLabel, facets, grounderTraining, mixByIteration, pageOf, provenance, reasonKind, stageCounts, styleOf,
} from '../../src/ui/data/dataModel';
import { filtersFromSearch, filtersToParams } from '../../src/ui/data/dataUrl';

const task: Task = { id: 't', templateId: 'mail.send', appId: 'mail', domain: 'mail', platform: 'web', variant: 0, seed: 1, params: {}, goal: 'Send a mail' };

function s(n: number, iteration: number, o: Partial<StepSample> & { notes?: CurationNote[] } = {}): StepSample {
  const kept = o.kept ?? true;
  return {
    id: `r/${iteration}/${n}`, runId: 'r', iteration, phase: iteration === 0 ? 'seed-data' : 'distill', origin: iteration === 0 ? 'seed' : 'distilled',
    source: iteration === 0 ? 'writer:terse' : `planner@${iteration}`, task, stepIndex: 0, platform: 'web', goal: task.goal, instruction: `click ${n}`,
    style: 'text', actionType: 'CLICK', kept,
    curation: o.notes ?? [{ stage: 'verifier', decision: kept ? 'keep' : 'drop', reason: kept ? 'verifier pool agrees: 1.00 of its weight' : 'wrong step: type CLICK, not TYPE' }],
    ...o,
  };
}

const drift: CurationNote[] = [
  { stage: 'verifier', decision: 'keep', reason: 'verifier pool agrees: 0.80' },
  { stage: 'too-easy', decision: 'keep', reason: '2 of 4 sampled points hit' },
  { stage: 'misaligned', decision: 'drop', reason: 'misaligned: the instruction refers to no element on this screen' },
];

const samples = [
  s(0, 0),
  s(1, 0, { style: 'icon', source: 'writer:ocr' }),
  s(2, 0, { kept: false }),
  s(0, 1, { kept: false, notes: drift }),
  s(1, 1, { style: null }),
  s(0, 3, { style: 'position' }),
];

describe('provenance and decisions', () => {
  it('names the writer of seed data and the planner and iteration of distilled data', () => {
    expect(provenance(samples[0])).toBe('seed data, written by writer:terse');
    expect(provenance(samples[4])).toBe('distilled at iteration 1 by planner@1');
  });
  it('the first drop decides a dropped sample, the last keep a kept one', () => {
    expect(decidingNote(samples[3])?.stage).toBe('misaligned');
    expect(decisionLabel(samples[3])).toBe('dropped by misaligned');
    expect(decidingNote(s(9, 1, { notes: drift.slice(0, 2) }))?.stage).toBe('too-easy');
    expect(decisionLabel(samples[0])).toBe('kept');
    expect(decidingNote(s(9, 1, { notes: [] }))).toBeNull();
  });
  it('a reason kind is the text before the first colon', () => {
    expect(reasonKind('wrong step: type CLICK, not TYPE')).toBe('wrong step');
    expect(reasonKind('2 of 4 sampled points hit')).toBe('2 of 4 sampled points hit');
  });
  it('a sample without a style counts as none', () => {
    expect(styleOf(samples[4])).toBe('none');
  });
});

describe('filters', () => {
  it('each filter narrows by its own field, and they combine', () => {
    expect(applyFilters(samples, NO_FILTERS)).toHaveLength(6);
    expect(applyFilters(samples, { ...NO_FILTERS, iteration: 0 }).map((x) => x.id)).toEqual(['r/0/0', 'r/0/1', 'r/0/2']);
    expect(applyFilters(samples, { ...NO_FILTERS, kept: 'dropped' }).map((x) => x.id)).toEqual(['r/0/2', 'r/1/0']);
    expect(applyFilters(samples, { ...NO_FILTERS, kept: 'kept', iteration: 0 }).map((x) => x.id)).toEqual(['r/0/0', 'r/0/1']);
    expect(applyFilters(samples, { ...NO_FILTERS, source: 'writer:ocr' }).map((x) => x.id)).toEqual(['r/0/1']);
    expect(applyFilters(samples, { ...NO_FILTERS, style: 'none' }).map((x) => x.id)).toEqual(['r/1/1']);
    expect(applyFilters(samples, { ...NO_FILTERS, stage: 'misaligned' }).map((x) => x.id)).toEqual(['r/1/0']);
    expect(applyFilters(samples, { ...NO_FILTERS, reason: 'wrong step' }).map((x) => x.id)).toEqual(['r/0/2']);
  });
  it('facets list only values present, writers before planners in iteration order', () => {
    const f = facets(samples);
    expect(f.iterations).toEqual([0, 1, 3]);
    expect(f.sources).toEqual(['writer:ocr', 'writer:terse', 'planner@1', 'planner@3']);
    expect(f.styles).toEqual(['icon', 'none', 'position', 'text']);
    expect(f.stages).toEqual(['misaligned', 'verifier']);
    expect(f.reasons).toContain('misaligned');
    expect(['planner@10', 'planner@2', 'seed'].sort(bySourceOrder)).toEqual(['planner@2', 'planner@10', 'seed']);
  });
  it('round-trip through the URL, with defaults left out', () => {
    const f = { ...NO_FILTERS, iteration: 0, kept: 'dropped' as const, style: 'icon' as const, stage: 'verifier', reason: 'wrong step', source: 'planner@1' };
    const params = filtersToParams(f, 2);
    const q = new URLSearchParams(Object.entries(params).filter((e): e is [string, string] => e[1] !== null));
    expect(filtersFromSearch(`?${q}`)).toEqual({ filters: f, page: 2 });
    expect(Object.values(filtersToParams(NO_FILTERS, 0)).every((v) => v === null)).toBe(true);
    expect(filtersFromSearch('?d-it=x&d-kept=maybe&d-page=-3')).toEqual({ filters: NO_FILTERS, page: 0 });
  });
});

describe('paging', () => {
  const items = Array.from({ length: 25 }, (_, i) => i);
  it('cuts pages and clamps the index into range', () => {
    expect(pageOf(items, 0, 10)).toMatchObject({ rows: items.slice(0, 10), count: 3, from: 1, to: 10, total: 25 });
    expect(pageOf(items, 2, 10)).toMatchObject({ rows: [20, 21, 22, 23, 24], from: 21, to: 25 });
    expect(pageOf(items, 9, 10).index).toBe(2);
    expect(pageOf([], 3, 10)).toMatchObject({ rows: [], index: 0, count: 1, from: 0, to: 0 });
    expect(() => pageOf(items, 0, 0)).toThrow(/positive integer/);
  });
});

describe('mix per iteration', () => {
  it('counts what each iteration added, with empty iterations kept as empty bars', () => {
    const m = mixByIteration(samples, styleOf, { cumulative: false, keptOnly: true });
    expect(m.iterations).toEqual([0, 1, 2, 3]);
    expect(m.categories).toEqual(['icon', 'none', 'position', 'text']);
    expect(m.counts).toEqual([
      [1, 0, 0, 0],
      [0, 1, 0, 0],
      [0, 0, 0, 1],
      [1, 0, 0, 0],
    ]);
  });
  it('cumulative counts the dataset Dk; all samples include the dropped ones', () => {
    const m = mixByIteration(samples, (x) => x.source, { cumulative: true, keptOnly: false }, bySourceOrder);
    expect(m.categories).toEqual(['writer:ocr', 'writer:terse', 'planner@1', 'planner@3']);
    expect(m.counts).toEqual([
      [1, 1, 1, 1],
      [2, 2, 2, 2],
      [0, 2, 2, 2],
      [0, 0, 0, 1],
    ]);
    expect(mixByIteration([], styleOf, { cumulative: true, keptOnly: true })).toEqual({ iterations: [], categories: [], counts: [] });
  });
  it("stacks what each grounder phase trained on, leaves out runs from before the counts, and says where pages were missing", () => {
    const t = grounderTraining([
      { k: 0, planner_reward_mean: null, metrics: {}, grounder_examples: { loop: 360, real: 120 } },
      { k: 1, planner_reward_mean: 0.3, metrics: {} },
      { k: 2, planner_reward_mean: 0.3, metrics: {}, grounder_examples: { loop: 240, real: 0, real_skipped: 'no page' } },
    ]);
    expect(t.stack).toEqual({ bars: ['0', '2'], categories: ['loop data (Dk)', 'real web pages'], counts: [[360, 240], [120, 0]] });
    expect(t.skipped).toEqual([{ k: 2, why: 'no page' }]);
    expect(grounderTraining([]).stack.bars).toEqual([]);
  });
  it('counts every curation note per stage, in the order samples meet the stages', () => {
    expect(stageCounts(samples)).toEqual([
      { stage: 'verifier', kept: 5, dropped: 1 },
      { stage: 'too-easy', kept: 1, dropped: 0 },
      { stage: 'misaligned', kept: 0, dropped: 1 },
    ]);
  });
});
