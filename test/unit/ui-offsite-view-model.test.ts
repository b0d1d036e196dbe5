/**
 * What the Offsite view reads off a report (src/ui/offsite/offsiteModel.ts),
 * its sizes and URL choices (offsiteSizes.ts), and how a stored comparison
 * reads after a reload (src/offsite/record.ts). The report here is a
 * hand-made two-scale comparison; the view on a real run: offsite-view.spec.ts.
 */
import { describe, expect, it } from 'vitest';
import type { EmulatorSummary, OffsiteComparison, OffsiteRow, Scale } from '../../src/offsite/compare';
import { checkOffsiteOptions, OFFSITE_DEFAULTS } from '../../src/offsite/jobTypes';
import { offsiteLockName, recordLine, recordStatus } from '../../src/offsite/record';
import { offsiteReport } from '../../src/offsite/report';
import type { OffsiteRecord } from '../../src/store/schema';
import { wilson } from '../../src/learn/stats';
import { chartRows, scoreSeries, sizeBars, unitBoxes, verdictLines } from '../../src/ui/offsite/offsiteModel';
import { choicesFromUrl, offsiteOptions } from '../../src/ui/offsite/offsiteSizes';

const A: Scale = { alpha: 0.5, beta: 1 };
const B: Scale = { alpha: 0, beta: 0.25 };
const row = (name: OffsiteRow['name'], k: number, scale?: Scale): OffsiteRow => ({ name, ...(scale ? { scale } : {}), n: 48, k, exact: k / 48, interval: wilson(k, 48), loss: 2 - k / 100 });
const units = (roles: EmulatorSummary['units'][number]['role'][], scored: boolean, rank?: number): EmulatorSummary['units'] =>
  roles.map((role, index) => ({ index, id: `blocks.${index >> 1}.${index % 2 ? 'mlp' : 'attn'}`, role, ...(role === 'kept' && rank !== undefined ? { rank } : {}), ...(scored && role !== 'adapter' ? { score: index / 10 } : {}) }));
const back = { kind: 'end-units' as const, units: ['blocks.0.attn', 'blocks.2.mlp'], tensors: ['x', 'y'], size: 1000 };

const comparison: OffsiteComparison = {
  settings: { scales: [A, B], replaceSteps: 8, tuneSteps: 8, batchSize: 8, harmonizerLr: 3e-3, tuneLr: 1e-3, scoreLr: 2, rlEvery: 4, candidates: 4, seed: 1 },
  rows: [
    row('zero-shot', 10),
    row('full fine-tuning', 30),
    row('emulator fine-tuning', 12, A),
    row('plug-in', 28, A),
    row('offsite-tuning emulator fine-tuning', 11, A),
    row('offsite-tuning plug-in', 20, A),
    row('emulator fine-tuning', 25, B),
    row('plug-in', 26, B),
  ],
  emulators: [
    { method: 'scaleot', scale: A, units: units(['adapter', 'kept', 'replaced', 'replaced', 'kept', 'adapter'], true), size: 6000, adapters: back },
    { method: 'uniform-drop', scale: A, units: units(['adapter', 'kept', 'replaced', 'kept', 'replaced', 'adapter'], false), size: 6000, adapters: back },
    { method: 'scaleot', scale: B, units: units(['adapter', 'kept', 'kept', 'kept', 'kept', 'adapter'], true, 12), size: 9000, adapters: back },
  ],
  fullSize: 10000,
  adapterSize: 1000,
  scoreHistory: [
    [0.1, 0.2, -0.1, 0.3],
    [0.2, 0.4, -0.3, 0.5],
  ],
  seconds: {},
};
const report = offsiteReport({ agent: 'planner', preset: 'demo', backend: 'wasm, 2 thread(s)', privateSet: 'cross-site tasks', wallSeconds: 95 }, comparison);

describe('the Offsite view model', () => {
  it('lists the references first, then each scale with plug-in before the emulator and ScaleOT before uniform drop', () => {
    const rows = chartRows(report);
    expect(rows.map((r) => [r.group === '' ? '' : r.group.slice(0, 7), r.kind, r.baseline, r.k])).toEqual([
      ['', 'reference', false, 10],
      ['', 'reference', false, 30],
      ['α 0.5 (', 'plug-in', false, 28],
      ['α 0.5 (', 'emulator', false, 12],
      ['α 0.5 (', 'plug-in', true, 20],
      ['α 0.5 (', 'emulator', true, 11],
      ['α 0 (re', 'plug-in', false, 26],
      ['α 0 (re', 'emulator', false, 25],
    ]);
    for (const r of rows) expect(r.low <= r.value && r.value <= r.high).toBe(true);
  });

  it('names each unit by role: adapters, kept, rank-reduced, and replaced as a harmonizer (ScaleOT) or dropped (uniform drop)', () => {
    expect(unitBoxes(comparison.emulators[0]).map((b) => [b.role, b.detail, b.score])).toEqual([
      ['adapter', 'tuned by the data owner', null],
      ['kept', 'shipped frozen', 0.1],
      ['replaced', 'harmonizer', 0.2],
      ['replaced', 'harmonizer', 0.3],
      ['kept', 'shipped frozen', 0.4],
      ['adapter', 'tuned by the data owner', null],
    ]);
    expect(unitBoxes(comparison.emulators[1])[2]).toMatchObject({ role: 'replaced', detail: 'dropped', score: null });
    expect(unitBoxes(comparison.emulators[2])[1]).toMatchObject({ role: 'rank-reduced', detail: 'rank 12' });
  });

  it('says which units carry LoRA factors when the adapters are LoRA', () => {
    const lora = { ...comparison.emulators[0], adapters: { kind: 'lora' as const, units: ['blocks.0.attn', 'blocks.0.mlp', 'blocks.2.mlp'], tensors: ['a', 'b'], size: 100 } };
    expect(unitBoxes(lora).map((b) => b.detail)).toEqual(['LoRA tuned by the data owner', 'shipped frozen + LoRA', 'harmonizer', 'harmonizer', 'shipped frozen', 'LoRA tuned by the data owner']);
    const ranked = { ...comparison.emulators[2], adapters: lora.adapters };
    expect(unitBoxes(ranked)[1].detail).toBe('rank 12 + LoRA');
  });

  it('sizes every shipment against the full model', () => {
    expect(sizeBars(report).map((b) => [b.values, b.share])).toEqual([
      [10000, 1],
      [6000, 0.6],
      [6000, 0.6],
      [9000, 0.9],
      [1000, 0.1],
    ]);
  });

  it('says per scale how much of the gain plug-in recovers and whether it is clearly above the emulator', () => {
    const [a, b] = verdictLines(report);
    // (28 − 10) / (30 − 10) = 90%; plug-in − emulator = 16 of 48 states, an interval clear of 0.
    expect(a).toMatch(/^At α 0\.5, β 1: plug-in recovers 90% of full fine-tuning's exact match gain; plug-in is above emulator fine-tuning \(\+33\.3 points \[\+\d/);
    expect(a).toMatch(/against uniform drop \+16\.7 points/);
    // One state apart: not clearly above.
    expect(b).toMatch(/^At α 0, β 0\.25: plug-in recovers 80% .*plug-in is not clearly above emulator fine-tuning \(\+2\.1 points \[−/);
    expect(b).not.toMatch(/uniform drop/);
    const flat = offsiteReport(report.info, { ...comparison, rows: comparison.rows.map((r) => (r.name === 'full fine-tuning' ? row('full fine-tuning', 10) : r)) });
    expect(verdictLines(flat)[0]).toMatch(/full fine-tuning gained nothing in exact match here/);
  });

  it('draws one importance series per middle unit of the ScaleOT emulator', () => {
    expect(scoreSeries(report)).toEqual([
      { id: 'blocks.0.mlp', x: [1, 2], y: [0.1, 0.2] },
      { id: 'blocks.1.attn', x: [1, 2], y: [0.2, 0.4] },
      { id: 'blocks.1.mlp', x: [1, 2], y: [-0.1, -0.3] },
      { id: 'blocks.2.attn', x: [1, 2], y: [0.3, 0.5] },
    ]);
  });
});

describe('the Offsite view sizes and URL', () => {
  it('runs standard at the sizes docs/offsite.md measured, quick smaller, large at its demo runs’ sizes, and all pass the worker’s own check', () => {
    for (const agent of ['planner', 'grounder'] as const) {
      const standard = offsiteOptions(agent, 'tiny', 'standard');
      expect(standard).toMatchObject({ ...OFFSITE_DEFAULTS[agent], agent, preset: 'tiny', lora: null });
      const quick = offsiteOptions(agent, 'demo', 'quick');
      expect(quick.tuneSteps).toBeLessThan(standard.tuneSteps);
      expect(quick.tasks).toBeLessThan(standard.tasks);
      expect(quick.scales).toEqual(standard.scales);
      expect(() => checkOffsiteOptions(quick)).not.toThrow();
      expect(() => checkOffsiteOptions(standard)).not.toThrow();
      const large = offsiteOptions(agent, 'demo', 'large');
      expect(large.tasks).toBeGreaterThan(standard.tasks);
      expect(() => checkOffsiteOptions(large)).not.toThrow();
    }
    // docs/offsite.md's demo runs: the planner at 200 test states and 60 steps, the grounder at 60 tasks and lr 5e-4.
    expect(offsiteOptions('planner', 'demo', 'large')).toMatchObject({ tasks: 120, testStates: 200, tuneSteps: 60, tuneLr: 1e-3 });
    expect(offsiteOptions('grounder', 'demo', 'large')).toMatchObject({ tasks: 60, tuneLr: 5e-4, tuneSteps: 24 });
  });

  it('reads its choices from the URL and falls back to defaults on unknown values', () => {
    expect(choicesFromUrl('?view=offsite&agent=grounder&base=demo&size=standard&private=own&adapters=lora')).toEqual({ agent: 'grounder', preset: 'demo', size: 'standard', privateSet: 'own', adapters: 'lora' });
    expect(choicesFromUrl('?agent=x&base=full&size=huge&private=all&adapters=all')).toEqual({ agent: 'planner', preset: 'tiny', size: 'quick', privateSet: 'held-out', adapters: 'end-units' });
  });

  it('asks for LoRA at the rank docs/offsite.md measured, with its own rate, and the worker accepts it', () => {
    const o = offsiteOptions('planner', 'demo', 'standard', 'held-out', 'lora');
    expect(o.lora).toEqual({ rank: 4, alpha: 8, lr: 5e-3 });
    expect(() => checkOffsiteOptions(o)).not.toThrow();
    expect(offsiteOptions('planner', 'demo', 'standard').lora).toBeNull();
    expect(o.tuneTable).toBeUndefined();
  });

  it('asks for LoRA with the token table under adapters=lora-table, and the worker accepts it', () => {
    expect(choicesFromUrl('?adapters=lora-table').adapters).toBe('lora-table');
    const o = offsiteOptions('planner', 'demo', 'large', 'held-out', 'lora-table');
    expect(o.lora).toEqual({ rank: 4, alpha: 8, lr: 5e-3 });
    expect(o.tuneTable).toBe(true);
    expect(() => checkOffsiteOptions(o)).not.toThrow();
    expect(() => checkOffsiteOptions({ ...o, tuneTable: 'yes' as unknown as boolean })).toThrow(/tuneTable must be true or false/);
  });

  it('asks for LoRA with every weight outside the units, at full fine-tuning\'s rate, under adapters=lora-outside; the worker checks both', () => {
    expect(choicesFromUrl('?adapters=lora-outside').adapters).toBe('lora-outside');
    const o = offsiteOptions('grounder', 'demo', 'standard', 'held-out', 'lora-outside');
    expect(o.tuneOutside).toBe(true);
    expect(o.wholeLr).toBe(o.tuneLr);
    expect(o.lora?.lr).not.toBe(o.tuneLr);
    expect(() => checkOffsiteOptions(o)).not.toThrow();
    expect(() => checkOffsiteOptions({ ...o, tuneOutside: 1 as unknown as boolean })).toThrow(/tuneOutside must be true or false/);
    expect(() => checkOffsiteOptions({ ...o, wholeLr: 0 })).toThrow(/wholeLr must be in \(0, 1\)/);
    expect(() => checkOffsiteOptions({ ...o, tuneOutside: false })).toThrow(/ask for tuneTable or tuneOutside too/);
  });

  it('asks for the own screenshots only for the grounder', () => {
    expect(offsiteOptions('grounder', 'tiny', 'quick', 'own').privateSet).toBe('own-screenshots');
    expect(offsiteOptions('planner', 'tiny', 'quick', 'own').privateSet).toBeUndefined();
    expect(offsiteOptions('grounder', 'tiny', 'quick').privateSet).toBeUndefined();
  });
});

describe('a stored comparison after a reload', () => {
  const rec = (state: OffsiteRecord['state']): OffsiteRecord => ({
    id: 'offsite-x',
    createdAt: Date.UTC(2026, 11, 7, 2, 0),
    options: offsiteOptions('grounder', 'tiny', 'quick'),
    state,
    phase: 'full fine-tuning',
    done: 20,
    total: 48,
    ...(state === 'done' ? { report } : {}),
    ...(state === 'failed' ? { error: 'No base grounder ships' } : {}),
  });

  it('is running here only while this page runs it, elsewhere while another tab holds its lock, and otherwise stopped', () => {
    const none = new Set<string>();
    expect(recordStatus(rec('running'), true, true, none)).toBe('running here');
    expect(recordStatus(rec('running'), false, true, none)).toBe('stopped');
    expect(recordStatus(rec('running'), true, false, new Set([offsiteLockName('offsite-x')]))).toBe('running elsewhere');
    expect(recordStatus(rec('running'), true, false, none)).toBe('stopped');
    expect(recordStatus(rec('done'), true, false, none)).toBe('done');
    expect(recordStatus(rec('failed'), true, true, none)).toBe('failed');
  });

  it('says where a stopped one got to, and why a failed one failed', () => {
    expect(recordLine(rec('running'), 'stopped', 'en-GB')).toMatch(/grounder, tiny · stopped at full fine-tuning \(20 of 48 steps\): the page was reloaded or closed$/);
    expect(recordLine(rec('failed'), 'failed', 'en-GB')).toMatch(/failed: No base grounder ships$/);
    expect(recordLine(rec('done'), 'done', 'en-GB')).toMatch(/done in 95 s$/);
    const lora = { ...rec('done'), options: offsiteOptions('planner', 'demo', 'quick', 'held-out', 'lora') };
    expect(recordLine(lora, 'done', 'en-GB')).toMatch(/planner, demo, LoRA rank 4 · done in 95 s$/);
  });
});
