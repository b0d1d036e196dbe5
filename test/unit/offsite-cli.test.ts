/**
 * `npm run offsite`'s pure pieces: the command line (defaults are the slow
 * tests' sizes; every bad value refused with the flag named), the worker's
 * own check of the options, the progress it reports, the progress line, the
 * step count the ETA rests on, and the report's files. The whole command in
 * the real app: offsite-cli-run.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { OFFSITE_HELP, parseOffsiteArgs, parseScale } from '../../scripts/lib/offsite-args';
import { offsiteFiles, offsiteLine } from '../../scripts/lib/offsite-run';
import { plannerPreset, grounderPreset } from '../../src/models/presets';
import { DEFAULT_OFFSITE, type OffsiteComparison, type OffsiteRow } from '../../src/offsite/compare';
import { offsiteTrainingSteps } from '../../src/offsite/job';
import { checkOffsiteOptions, OFFSITE_DEFAULTS, type OffsiteOptions } from '../../src/offsite/jobTypes';
import { offsiteTracker } from '../../src/offsite/progress';
import { offsiteReport, reportTable } from '../../src/offsite/report';

const NOW = new Date('2026-12-04T10:20:30Z');
const args = (argv: string[]) => {
  const p = parseOffsiteArgs(argv, NOW);
  if (p.help) throw new Error('help');
  return p.args;
};

describe('npm run offsite arguments', () => {
  it('defaults to the planner slow test sizes, tiny, wasm, both scales', () => {
    expect(args(['--agent', 'planner'])).toEqual({
      options: {
        agent: 'planner', preset: 'tiny', seed: 1, dataSeed: 77, tasks: 40, testStates: 48, publicItems: 300, replaceSteps: 24, tuneSteps: 30, batchSize: 8, tuneLr: 1e-3,
        scales: [{ alpha: 0.5, beta: 1 }, { alpha: 0, beta: 0.25 }], lora: null,
      },
      out: 'out/offsite/planner-tiny-2026-12-04T10-20-30',
      backend: 'wasm',
      backendExplicit: false,
    });
  });

  it('defaults to the grounder slow test sizes for the grounder (its own rate, no test-state cap)', () => {
    expect(args(['--agent=grounder']).options).toEqual({
      agent: 'grounder', preset: 'tiny', seed: 1, dataSeed: 77, tasks: 30, testStates: null, publicItems: 200, replaceSteps: 16, tuneSteps: 24, batchSize: 8, tuneLr: 3e-3,
      scales: [{ alpha: 0.5, beta: 1 }, { alpha: 0, beta: 0.25 }], lora: null,
    });
  });

  it('takes every size, one or more scales, LoRA and the device options', () => {
    const a = args([
      '--agent', 'planner', '--preset', 'demo', '--seed', '3', '--data-seed=5', '--tasks', '4', '--test-states', '6', '--public', '20', '--replace-steps', '2', '--tune-steps', '3',
      '--batch', '4', '--tune-lr', '2e-3', '--emulator-scale', '0.5:0.5', '--emulator-scale=0:1', '--lora', '4', '--lora-lr', '0.01', '--out', '/tmp/x', '--backend', 'webgpu', '--threads', '1',
    ]);
    expect(a).toEqual({
      options: {
        agent: 'planner', preset: 'demo', seed: 3, dataSeed: 5, tasks: 4, testStates: 6, publicItems: 20, replaceSteps: 2, tuneSteps: 3, batchSize: 4, tuneLr: 2e-3,
        scales: [{ alpha: 0.5, beta: 0.5 }, { alpha: 0, beta: 1 }], lora: { rank: 4, alpha: 8, lr: 0.01 },
      },
      out: '/tmp/x',
      backend: 'webgpu',
      backendExplicit: true,
      threads: 1,
    });
    expect(args(['--agent', 'grounder', '--lora', '2']).options.lora).toEqual({ rank: 2, alpha: 4, lr: 5e-3 });
    expect(args(['--agent', 'planner', '--distill', '0.5']).options.distill).toBe(0.5);
    expect(args(['--agent', 'planner']).options.distill).toBeUndefined();
    expect(args(['--agent', 'planner', '--harmonizer-lr', '0.01']).options.harmonizerLr).toBe(0.01);
    expect(args(['--agent', 'planner']).options.harmonizerLr).toBeUndefined();
    expect(args(['--agent', 'planner', '--mask-group', '4']).options.maskGroup).toBe(4);
    expect(args(['--agent', 'planner', '--lora', '4', '--tune-table', 'yes']).options.tuneTable).toBe(true);
    expect(args(['--agent', 'planner', '--tune-table', 'no']).options.tuneTable).toBeUndefined();
    const outside = args(['--agent', 'grounder', '--lora', '4', '--tune-outside', 'yes', '--whole-lr', '5e-4']).options;
    expect([outside.tuneOutside, outside.wholeLr, outside.tuneTable]).toEqual([true, 5e-4, undefined]);
    expect(() => checkOffsiteOptions(outside)).not.toThrow();
    // The defaults given are valid for the worker too.
    for (const argv of [['--agent', 'planner'], ['--agent', 'grounder', '--lora', '2']]) expect(() => checkOffsiteOptions(args(argv).options)).not.toThrow();
  });

  it.each([
    [[], /--agent is required: planner or grounder/],
    [['--agent', 'both'], /--agent must be planner or grounder, got "both"/],
    [['--agent', 'planner', '--preset', 'full'], /--preset must be tiny or demo/],
    [['--agent', 'planner', '--backend', 'cuda'], /--backend must be webgpu or wasm, got "cuda"/],
    [['--agent', 'planner', '--seed', '-1'], /--seed must be an integer ≥ 0/],
    [['--agent', 'planner', '--data-seed', 'x'], /--data-seed must be an integer ≥ 0/],
    [['--agent', 'planner', '--tasks', '1'], /--tasks must be 2 or more/],
    [['--agent', 'planner', '--tasks', '0'], /--tasks must be 1 or more/],
    [['--agent', 'planner', '--tune-steps', '0'], /--tune-steps must be 1 or more/],
    [['--agent', 'planner', '--replace-steps', '2.5'], /--replace-steps must be an integer/],
    [['--agent', 'planner', '--batch', '8', '--public', '15'], /--public must be at least twice --batch \(16\)/],
    [['--agent', 'planner', '--tune-lr', '0'], /--tune-lr must be a number with 0 < X < 1, got "0"/],
    [['--agent', 'planner', '--tune-lr', '1'], /--tune-lr must be a number with 0 < X < 1/],
    [['--agent', 'planner', '--tune-lr', 'fast'], /--tune-lr must be a number/],
    [['--agent', 'grounder', '--test-states', '10'], /--test-states is for the planner/],
    [['--agent', 'planner', '--lora-lr', '0.01'], /--lora-lr needs --lora/],
    [['--agent', 'planner', '--lora', '0'], /--lora must be 1 or more/],
    [['--agent', 'planner', '--distill', '-1'], /--distill must be a weight from 0 to 100, got "-1"/],
    [['--agent', 'planner', '--distill', 'much'], /--distill must be a weight from 0 to 100/],
    [['--agent', 'planner', '--mask-group', '0'], /--mask-group must be 1 or more/],
    [['--agent', 'planner', '--tune-table', 'true'], /--tune-table must be yes or no, got "true"/],
    [['--agent', 'planner', '--tune-outside', '1'], /--tune-outside must be yes or no, got "1"/],
    [['--agent', 'planner', '--whole-lr', '1e-3'], /--whole-lr is the rate of the weights carried whole: give --tune-table yes or --tune-outside yes too/],
    [['--agent', 'planner', '--tune-table', 'yes', '--whole-lr', '3'], /--whole-lr must be a number with 0 < X < 1, got "3"/],
    [['--agent', 'planner', '--harmonizer-lr', '2'], /--harmonizer-lr must be a number with 0 < X < 1, got "2"/],
    [['--agent', 'planner', '--emulator-scale', '0.5'], /--emulator-scale takes ALPHA:BETA \(e.g. 0.5:1\), got "0.5"/],
    [['--agent', 'planner', '--emulator-scale', '1:1'], /replace ratio ALPHA must be in \[0, 1\)/],
    [['--agent', 'planner', '--emulator-scale', '0.5:0'], /rank ratio BETA must be in \(0, 1\]/],
    [['--agent', 'planner', '--emulator-scale', '0.5:1.5'], /rank ratio BETA must be in \(0, 1\]/],
    [['--agent', 'planner', '--emulator-scale', '0.5:1', '--emulator-scale', '0.50:1'], /--emulator-scale 0.5:1 was given twice/],
    [['--agent', 'planner', '--seed', '1', '--seed', '2'], /given twice/],
    [['--agent', 'planner', '--steps', '3'], /unknown option --steps/],
    [['--agent', 'planner', '--out'], /--out needs a value/],
    [['planner'], /unexpected argument "planner"/],
  ])('refuses %j', (argv, message) => {
    expect(() => parseOffsiteArgs(argv as string[], NOW)).toThrow(message);
  });

  it('reads a scale as ALPHA:BETA', () => {
    expect(parseScale('0:0.25')).toEqual({ alpha: 0, beta: 0.25 });
  });

  it('has help that names every option and the defaults', () => {
    expect(parseOffsiteArgs(['--agent', 'x', '--help'])).toEqual({ help: true });
    for (const flag of ['--agent', '--preset', '--seed', '--data-seed', '--tasks', '--test-states', '--public', '--replace-steps', '--tune-steps', '--batch', '--tune-lr', '--emulator-scale', '--lora', '--lora-lr', '--tune-table', '--mask-group', '--harmonizer-lr', '--distill', '--out', '--backend', '--threads']) {
      expect(OFFSITE_HELP).toContain(`${flag} `);
    }
    expect(OFFSITE_HELP).toContain('0.5:1 and 0:0.25');
  });
});

describe('the worker refuses options the command would have refused', () => {
  const ok: OffsiteOptions = { ...OFFSITE_DEFAULTS.planner, agent: 'planner', preset: 'tiny', lora: null };
  it.each([
    [{ agent: 'robot' }, /agent must be planner or grounder/],
    [{ tasks: 1 }, /tasks must be an integer ≥ 2/],
    [{ publicItems: 15 }, /publicItems must be an integer ≥ 16/],
    [{ scales: [] }, /at least one/],
    [{ scales: [{ alpha: 1, beta: 1 }] }, /alpha .* must be in \[0, 1\)/],
    [{ scales: [{ alpha: 0, beta: 0 }] }, /beta .* must be in \(0, 1\]/],
    [{ scales: [{ alpha: 0, beta: 1 }, { alpha: 0, beta: 1 }] }, /scales must differ/],
    [{ lora: { rank: 0, alpha: 1, lr: 1e-3 } }, /lora.rank must be an integer ≥ 1/],
    [{ tuneLr: 2 }, /tuneLr must be in \(0, 1\)/],
  ])('refuses %j', (over, message) => {
    expect(() => checkOffsiteOptions({ ...ok, ...over } as OffsiteOptions)).toThrow(message);
  });
});

describe('offsite progress', () => {
  it('counts training steps across phases, evaluations adding none, and paces the ETA on them', () => {
    let t = 1000;
    const tr = offsiteTracker(10, () => t);
    expect(tr.progress()).toMatchObject({ state: 'running', done: 0, total: 10, etaMs: null });
    tr.onPhase('zero-shot');
    t += 4000;
    tr.onPhase('harmonizers and importance');
    tr.onProgress('harmonizers and importance', 1, 4);
    tr.onProgress('harmonizers and importance', 4, 4);
    tr.onPhase('full fine-tuning');
    tr.onProgress('full fine-tuning', 1, 3);
    t += 1000;
    // 5 of 10 steps in 5 s: 5 s to go.
    expect(tr.progress()).toMatchObject({ phase: 'full fine-tuning', step: 1, steps: 3, done: 5, elapsedMs: 5000, etaMs: 5000 });
    tr.onProgress('full fine-tuning', 3, 3);
    tr.onPhase('evaluate full fine-tuning');
    expect(tr.progress()).toMatchObject({ phase: 'evaluate full fine-tuning', step: 0, steps: 0, done: 7 });
    // Every ended phase is kept with its end time, so a poll that missed one still prints it.
    expect(tr.progress().finished).toEqual([
      { phase: 'zero-shot', atMs: 4000 },
      { phase: 'harmonizers and importance', atMs: 4000 },
      { phase: 'full fine-tuning', atMs: 5000 },
    ]);
  });

  it('prints the phase bar, the whole run bar and the ETA on one line', () => {
    const base = { state: 'running' as const, elapsedMs: 0, finished: [] };
    expect(offsiteLine({ ...base, phase: 'full fine-tuning', step: 12, steps: 30, done: 36, total: 204, etaMs: 370_000 }, 62_000)).toBe(
      'full fine-tuning [####......] 12/30 · all [##........] 36/204 steps · ETA 6m10s · elapsed 1m02s',
    );
    expect(offsiteLine({ ...base, phase: 'zero-shot', step: 0, steps: 0, done: 0, total: 204, etaMs: null }, 3000)).toBe('zero-shot · all [..........] 0/204 steps · ETA ? · elapsed 3s');
    expect(offsiteLine({ ...base, phase: '', step: 0, steps: 0, done: 0, total: 0, etaMs: null }, 0)).toBe('starting · ETA ? · elapsed 0s');
  });

  it('counts one tuning per emulator: ScaleOT at every scale, uniform drop only where it drops a unit', () => {
    const o = { replaceSteps: 24, tuneSteps: 30, scales: [{ alpha: 0.5, beta: 1 }, { alpha: 0, beta: 0.25 }] };
    // Harmonizers, full fine-tuning, ScaleOT and uniform drop at α 0.5, ScaleOT alone at α 0.
    expect(offsiteTrainingSteps(o, plannerPreset('tiny'))).toBe(24 + 30 * 4);
    expect(offsiteTrainingSteps(o, grounderPreset('tiny'))).toBe(24 + 30 * 4);
    expect(offsiteTrainingSteps({ ...o, scales: [{ alpha: 0, beta: 1 }] }, plannerPreset('tiny'))).toBe(24 + 30 * 2);
  });
});

describe('the report files', () => {
  const row = (name: OffsiteRow['name'], k: number, loss: number, scale?: { alpha: number; beta: number }): OffsiteRow => ({
    name, ...(scale ? { scale } : {}), n: 4, k, exact: k / 4, interval: { low: 0, high: 0.9 }, loss,
  });
  const s = { alpha: 0.5, beta: 1 };
  const comparison: OffsiteComparison = {
    settings: { ...DEFAULT_OFFSITE, scales: [s] },
    rows: [row('zero-shot', 1, 3), row('full fine-tuning', 3, 2), row('emulator fine-tuning', 1, 2.6, s), row('plug-in', 2, 2.5, s), row('offsite-tuning emulator fine-tuning', 1, 2.7, s), row('offsite-tuning plug-in', 2, 2.55, s)],
    emulators: [{
      method: 'scaleot', scale: s, size: 900, units: [{ index: 0, id: 'blocks.0.attn', role: 'adapter' }, { index: 1, id: 'blocks.0.mlp', role: 'replaced', score: -1 }],
      adapters: { kind: 'end-units', units: ['blocks.0.attn', 'blocks.1.mlp'], tensors: ['a', 'b'], size: 120 },
    }],
    fullSize: 1000,
    adapterSize: 120,
    scoreHistory: [],
    seconds: { 'zero-shot': 12.34, 'harmonizers and importance': 30 },
  };
  const report = offsiteReport({ agent: 'planner', preset: 'tiny', backend: 'wasm, 2 thread(s)', privateSet: '2 tuning tasks', wallSeconds: 61 }, comparison);

  it('writes the command into both files and keeps every figure in the JSON', () => {
    const f = offsiteFiles(report, 'npm run offsite -- --agent planner');
    const json = JSON.parse(f.json) as typeof report;
    expect(json.info.command).toBe('npm run offsite -- --agent planner');
    expect(json.comparison.rows).toEqual(comparison.rows);
    expect(json.summary[0].gainShareLoss).toBeCloseTo(0.5);
    expect(f.markdown).toContain('Command: `npm run offsite -- --agent planner`.');
    expect(f.markdown).toContain('| plug-in | 0.5, 1 | 50.0% | 0.0–90.0% | 4 | 2.500 |');
    expect(f.markdown).toContain('Sent back: 120 values in 2 end-units tensors of blocks.0.attn, blocks.1.mlp');
    expect(f.markdown).toContain('## Seconds per phase\n\n- zero-shot: 12.3\n- harmonizers and importance: 30.0\n');
    expect(report.info.command).toBeUndefined();
  });

  it('names the grounder rate click-in-box accuracy', () => {
    expect(reportTable(report)).toContain('| exact match |');
    expect(reportTable({ ...report, info: { ...report.info, agent: 'grounder' } })).toContain('| click-in-box accuracy | 95% interval | n | loss (grounder SFT loss) |');
  });
});
