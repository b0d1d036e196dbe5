import { describe, expect, it } from 'vitest';
import { parseCoevoArgs, timestampName, UsageError, type CoevoArgs } from '../../scripts/lib/coevo-args';
import { formatDuration, ProgressPrinter, progressBar, progressLine } from '../../scripts/lib/progress';
import type { CoevoStatus } from '../../scripts/lib/coevo-api';

const NOW = new Date('2025-03-04T05:06:07.890Z');

function parse(argv: string[]): CoevoArgs {
  const r = parseCoevoArgs(argv, NOW);
  if (r.help) throw new Error('unexpected help');
  return r.args;
}

function usageError(argv: string[]): string {
  try {
    parseCoevoArgs(argv, NOW);
  } catch (e) {
    expect(e).toBeInstanceOf(UsageError);
    return (e as Error).message;
  }
  throw new Error(`expected a usage error for ${argv.join(' ')}`);
}

describe('parseCoevoArgs', () => {
  it('reads the command of the issue', () => {
    expect(parse(['--preset', 'tiny', '--iterations', '3', '--seed', '1', '--out', 'runs/a', '--backend', 'wasm', '--set', 'coevo=false', '--set', 'lr.planner=0.001'])).toEqual({
      preset: 'tiny',
      iterations: 3,
      seed: 1,
      out: 'runs/a',
      backend: 'wasm',
      backendExplicit: true,
      set: ['coevo=false', 'lr.planner=0.001'],
    });
  });

  it('has defaults, with a timestamped output directory', () => {
    expect(parse([])).toEqual({ preset: 'tiny', iterations: 3, seed: 1, out: 'out/coevo/2025-03-04T05-06-07', backend: 'webgpu', backendExplicit: false, set: [] });
    expect(timestampName(NOW)).toBe('2025-03-04T05-06-07');
  });

  it('accepts --flag=value, and values that contain "="', () => {
    const a = parse(['--seed=7', '--iterations=0', '--backend=webgpu', '--set=temperature=0.9', '--set', 'note=a=b', '--preset=demo']);
    expect(a).toMatchObject({ seed: 7, iterations: 0, backend: 'webgpu', backendExplicit: true, preset: 'demo', set: ['temperature=0.9', 'note=a=b'] });
    expect(a.profile).toBeUndefined();
    expect(parse(['--profile', 'out/profile']).profile).toBe('out/profile');
  });

  it('takes --threads for the WASM backend, at least 1', () => {
    expect(parse(['--backend', 'wasm', '--threads', '2']).threads).toBe(2);
    expect(parse([]).threads).toBeUndefined();
    expect(usageError(['--threads', '0'])).toMatch(/1 or more/);
    expect(usageError(['--threads', 'many'])).toMatch(/integer/);
  });

  it('answers --help and -h, even beside other mistakes', () => {
    expect(parseCoevoArgs(['--help'])).toEqual({ help: true });
    expect(parseCoevoArgs(['--bogus', '-h'])).toEqual({ help: true });
  });

  it('refuses bad input with a message that names the option and what is allowed', () => {
    expect(usageError(['--bogus'])).toMatch(/unknown option --bogus; the options are --preset, .*--set, --vs, --profile, --threads, --ablation, --help/);
    expect(usageError(['tiny'])).toContain('unexpected argument "tiny"');
    expect(usageError(['--seed'])).toBe('--seed needs a value.');
    expect(usageError(['--seed', '--out', 'x'])).toBe('--seed needs a value.');
    expect(usageError(['--out='])).toBe('--out needs a value.');
    expect(usageError(['--seed', '-1'])).toBe('--seed must be an integer ≥ 0, got "-1".');
    expect(usageError(['--seed', '1.5'])).toBe('--seed must be an integer ≥ 0, got "1.5".');
    expect(usageError(['--iterations', 'three'])).toBe('--iterations must be an integer ≥ 0, got "three".');
    expect(usageError(['--iterations', '99999999999999999999'])).toContain('--iterations must be an integer');
    expect(usageError(['--preset', 'huge'])).toBe('--preset must be one of tiny, demo, full, got "huge".');
    expect(usageError(['--backend', 'cpu'])).toBe('--backend must be webgpu or wasm, got "cpu".');
    expect(usageError(['--set', 'coevo'])).toContain('--set takes KEY=VALUE');
    expect(usageError(['--set', '=1'])).toContain('--set takes KEY=VALUE');
    expect(usageError(['--set', 'lr='])).toContain('--set takes KEY=VALUE');
    expect(usageError(['--set', 'lr=1', '--set', 'lr=2'])).toBe('--set lr was given twice.');
    expect(usageError(['--seed', '1', '--seed', '2'])).toBe('--seed was given twice.');
  });
});

const status = (over: Partial<CoevoStatus>): CoevoStatus => ({
  runId: 'r',
  state: 'running',
  iteration: 2,
  phase: 'planner-grpo',
  phaseIndex: 3,
  phaseCount: 7,
  done: 30,
  total: 120,
  etaMs: 83_000,
  ...over,
});

describe('progress display', () => {
  it('formats durations and bars', () => {
    expect([0, 999, 42_000, 185_000, 3_720_000].map(formatDuration)).toEqual(['0s', '1s', '42s', '3m05s', '1h02m']);
    expect(formatDuration(NaN)).toBe('?');
    expect(progressBar(30, 120, 8)).toBe('[##......]');
    expect(progressBar(5, 0, 4)).toBe('[....]');
    expect(progressBar(200, 100, 4)).toBe('[####]');
  });

  it('shows phase i/n, iteration, items, ETA, loss and reward', () => {
    expect(progressLine(status({ loss: 0.53219, reward: 0.4 }), 61_000)).toBe(
      'phase 4/7 planner-grpo · iter 2 · [#####...............] 30/120 · ETA 1m23s · loss 0.5322 · reward 0.4 · elapsed 1m01s',
    );
    expect(progressLine(status({ etaMs: null, total: 0, done: 3, state: 'paused', loss: NaN }), 0)).toBe('phase 4/7 planner-grpo · iter 2 · 3 done · ETA ? · paused · elapsed 0s');
  });

  it('rewrites one line on a TTY and prints messages above it', () => {
    const out: string[] = [];
    const p = new ProgressPrinter({ write: (t) => out.push(t), isTTY: true, columns: 12 });
    p.update('abcdefghijklmnop', 0);
    p.log('note');
    p.end();
    expect(out).toEqual(['\r\x1b[2Kabcdefghij…', '\r\x1b[2Knote\nabcdefghij…', '\n']);
  });

  it('prints plain lines at most every few seconds otherwise, and always when forced', () => {
    const out: string[] = [];
    const p = new ProgressPrinter({ write: (t) => out.push(t), isTTY: false }, 5000);
    p.update('a', 0);
    p.update('b', 1000);
    p.update('c', 2000, true);
    p.update('d', 6000);
    p.update('e', 7000);
    p.log('note');
    // A forced line restarts the interval: d comes 4 s after c.
    expect(out).toEqual(['a\n', 'c\n', 'e\n', 'note\n']);
  });
});
