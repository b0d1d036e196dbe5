/**
 * The seed-study command line without a browser: --seeds and --vs parsed
 * and refused as they should be, the plan of runs (directories, profiles,
 * overrides), and a study run end to end with a stand-in for one run that
 * writes a synthetic report, including reuse of finished seeds on a rerun.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { CoevoReport } from '../../src/coevo/records';
import type { SeedStudy } from '../../src/coevo/seedStudy';
import { parseCoevoArgs, UsageError, type CoevoArgs } from '../../scripts/lib/coevo-args';
import { finishedReport, runStudy, studyRuns, withOverrides, type RunOne } from '../../scripts/lib/coevo-study';
import { ABLATION_NAMES, ABLATIONS } from '../../src/coevo/ablations';
import { applySet, defaultConfig } from '../../src/coevo/config';
import { existsSync } from 'node:fs';
import { ProgressPrinter } from '../../scripts/lib/progress';
import { writeReport } from '../../scripts/lib/write-report';

const parse = (argv: string[]): CoevoArgs => {
  const r = parseCoevoArgs(argv);
  if (r.help) throw new Error('unexpected help');
  return r.args;
};
const refused = (argv: string[]): string => {
  try {
    parseCoevoArgs(argv);
  } catch (e) {
    expect(e).toBeInstanceOf(UsageError);
    return (e as Error).message;
  }
  throw new Error(`expected a usage error for ${argv.join(' ')}`);
};

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

describe('--seeds and --vs', () => {
  it('parses a study, and leaves a single run as it was', () => {
    const a = parse(['--seeds', '3,1,2', '--vs', 'coevo=false', '--vs', 'curation.tooEasy=false', '--set', 'coevo=true', '--out', 'o']);
    expect(a).toMatchObject({ seed: 3, seeds: [3, 1, 2], vs: ['coevo=false', 'curation.tooEasy=false'], set: ['coevo=true'] });
    expect(parse(['--seed', '4'])).not.toHaveProperty('seeds');
    expect(parse(['--seed', '4'])).not.toHaveProperty('vs');
  });

  it('refuses what cannot be meant', () => {
    expect(refused(['--seed', '1', '--seeds', '1,2'])).toBe('give either --seed or --seeds, not both.');
    expect(refused(['--seeds', '1,,2'])).toMatch(/--seeds takes integers ≥ 0 separated by commas/);
    expect(refused(['--seeds', '1,-2'])).toMatch(/--seeds takes integers/);
    expect(refused(['--seeds', '1,2,1'])).toBe('--seeds lists seed 1 twice.');
    expect(refused(['--vs', 'coevo'])).toBe('--vs takes KEY=VALUE (e.g. --vs coevo=false), got "coevo".');
    expect(refused(['--vs', 'coevo=false', '--vs', 'coevo=true'])).toBe('--vs coevo was given twice.');
  });

  it('plans every seed of A, then of B, each in its own directory and profile; --vs replaces a --set of the same key', () => {
    expect(withOverrides(['coevo=true', 'evalSize=16'], ['coevo=false'])).toEqual(['evalSize=16', 'coevo=false']);
    const plan = studyRuns(parse(['--seeds', '1,2', '--vs', 'coevo=false', '--set', 'evalSize=16', '--out', 'o', '--profile', 'p']));
    expect(plan.map((r) => [r.arm, r.seed, r.args.out, r.args.profile, r.args.set.join(' ')])).toEqual([
      ['A', 1, join('o', 'A', 'seed-1'), join('p', 'A', 'seed-1'), 'evalSize=16'],
      ['A', 2, join('o', 'A', 'seed-2'), join('p', 'A', 'seed-2'), 'evalSize=16'],
      ['B', 1, join('o', 'B', 'seed-1'), join('p', 'B', 'seed-1'), 'evalSize=16 coevo=false'],
      ['B', 2, join('o', 'B', 'seed-2'), join('p', 'B', 'seed-2'), 'evalSize=16 coevo=false'],
    ]);
    for (const r of plan) expect(r.args).not.toHaveProperty('seeds');
    // Without --profile no run gets one; --vs alone is a study of the one seed.
    const one = studyRuns(parse(['--seed', '5', '--vs', 'coevo=false', '--out', 'o']));
    expect(one.map((r) => [r.arm, r.seed, r.args.profile])).toEqual([
      ['A', 5, undefined],
      ['B', 5, undefined],
    ]);
  });
});

describe('--ablation', () => {
  it('names each ablation of the issue as the overrides of B, and every override is a change the app accepts', () => {
    expect(ABLATION_NAMES).toEqual(['no-coevo', 'frozen-grounder', 'single-grounder', 'sparse-reward', 'no-attention-filter', 'no-curation']);
    for (const name of ABLATION_NAMES) {
      const full = defaultConfig('tiny', 1);
      const ablated = ABLATIONS[name].overrides.reduce(applySet, name === 'sparse-reward' ? applySet(full, 'grounderGrpo=true') : full);
      // Each override changes the field it names: a renamed field or a default that already equals it would fail here.
      for (const kv of ABLATIONS[name].overrides) {
        const [key, value] = kv.split('=');
        const [head, leaf] = key.split('.');
        const read = (c: object) => String(leaf ? (c as Record<string, Record<string, unknown>>)[head][leaf] : (c as Record<string, unknown>)[head]);
        expect(read(ablated), kv).toBe(value);
        if (!(name === 'frozen-grounder' && key === 'grounderGrpo')) expect(read(full), `${kv} is already the tiny default`).not.toBe(value);
      }
    }
  });

  it('runs the full loop against the ablation on the same seeds', () => {
    const a = parse(['--seeds', '1,2', '--ablation', 'no-curation', '--out', 'o']);
    expect(a).toMatchObject({ ablation: 'no-curation', vs: ['curation.tooEasy=false', 'curation.misaligned=false', 'curation.diversity=false'], set: [] });
    expect(studyRuns(a).map((r) => `${r.arm}${r.seed} ${r.args.set.join(' ')}`.trim())).toEqual(['A1', 'A2', 'B1 curation.tooEasy=false curation.misaligned=false curation.diversity=false', 'B2 curation.tooEasy=false curation.misaligned=false curation.diversity=false']);
  });

  it('refuses an unknown name, --vs beside it, a --set of a field it sets, and an ablation the config would not notice', () => {
    expect(refused(['--ablation', 'no-planner'])).toBe('--ablation must be one of no-coevo, frozen-grounder, single-grounder, sparse-reward, no-attention-filter, no-curation, got "no-planner".');
    expect(refused(['--ablation', 'no-coevo', '--vs', 'coevo=false'])).toMatch(/give either --ablation or --vs, not both/);
    expect(refused(['--ablation', 'no-coevo', '--set', 'coevo=true'])).toBe('--ablation no-coevo: --set coevo=true is a field the no-coevo ablation sets itself; leave it out.');
    expect(refused(['--ablation', 'sparse-reward'])).toMatch(/grounder GRPO, which this config leaves off; add --set grounderGrpo=true/);
    expect(parse(['--ablation', 'sparse-reward', '--set', 'grounderGrpo=true']).vs).toEqual(['pointReward=sparse']);
    expect(refused(['--ablation', 'no-coevo', '--set', 'evalSize=0'])).toMatch(/evalSize/);
  });
});

/** What a finished run of `args` would report: step success rises by 0.05·seed in A, stays in B. */
function fakeReport(args: CoevoArgs): CoevoReport {
  const coevo = !args.set.includes('coevo=false');
  const at = (k: number) => ({ 'web/all/step_success': 0.1 + (coevo ? 0.05 * args.seed * k : 0), 'grounding/all/accuracy': 0.8 });
  return {
    version: 1,
    runId: `${coevo ? 'full' : 'abl'}-${args.seed}`,
    config: { preset: args.preset, seed: args.seed, iterations: args.iterations, coevo, evalSize: 16 },
    device: { backend: 'wasm', adapter: 'test' },
    timings: [],
    iterations: [0, 1].map((k) => ({ k, planner_reward_mean: null, metrics: at(k) })),
    datasets: [],
    curation: [],
    informative_group_ratio: [],
    curves: {},
  };
}

describe('a seed study end to end, with a stand-in run', () => {
  const out = mkdtempSync(join(tmpdir(), 'coevo-study-'));
  dirs.push(out);
  const lines: string[] = [];
  const printer = new ProgressPrinter({ write: (t) => void lines.push(t), isTTY: false, columns: 80 });
  const env = { printer, serve: () => Promise.reject(new Error('the stand-in never serves')) };
  const ran: string[] = [];
  const runOne: RunOne = async (args) => {
    ran.push(`${args.out}`);
    writeReport(args.out, fakeReport(args), 1);
    return { runId: fakeReport(args).runId, wallSeconds: 1 };
  };
  const args = parse(['--seeds', '1,2,3', '--vs', 'coevo=false', '--set', 'evalSize=16', '--iterations', '1', '--out', out]);

  it('runs each seed of both configs, then writes study.json and study.md with the paired differences', async () => {
    const r = await runStudy(args, env, runOne);
    expect(ran).toHaveLength(6);
    const study = JSON.parse(readFileSync(r.json, 'utf8')) as SeedStudy;
    expect(study.arms.map((a) => a.name)).toEqual(['A (evalSize=16)', 'B (coevo=false)']);
    // A − B at k=1 per seed: 0.05, 0.10, 0.15 → mean 0.10, sd 0.05, ± 4.3027 · 0.05 / √3 = 0.1242.
    const f = study.paired!.iterations[1].metrics['web/all/step_success'];
    expect(f.seeds).toEqual([1, 2, 3]);
    expect(f.mean).toBeCloseTo(0.1, 10);
    expect(f.interval!.low).toBeCloseTo(0.1 - 0.12421, 4);
    expect(f.interval!.high).toBeCloseTo(0.1 + 0.12421, 4);
    expect(study.verdict.find((v) => v.half === 'grounder' && v.comparison === 'against B')!.sentence).toContain('no measurable difference');
    expect(readFileSync(r.markdown, 'utf8')).toContain('## Paired: A (evalSize=16) − B (coevo=false)');
    expect(readFileSync(r.markdown, 'utf8')).toContain('](charts/web-all-step-success-paired.svg)');
    for (const c of r.charts) expect(existsSync(c), c).toBe(true);
    expect(r.charts).toHaveLength(4);
    expect(r.runs.every((x) => !x.reused)).toBe(true);
  });

  it('reuses finished seeds on a rerun, and reruns one whose report was made with other options', async () => {
    ran.length = 0;
    const stale = studyRuns(args)[1].args; // A, seed 2
    writeReport(stale.out, { ...fakeReport(stale), config: { ...fakeReport(stale).config, evalSize: 8 } }, 1);
    expect(finishedReport(stale)).toBeNull();
    const r = await runStudy(args, env, runOne);
    expect(ran).toEqual([stale.out]);
    expect(r.runs.filter((x) => x.reused)).toHaveLength(5);
    expect(lines.join('')).toContain('already finished');
  });
});
