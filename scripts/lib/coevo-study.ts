/**
 * `npm run coevo -- --seeds 1,2,3 [--vs KEY=VALUE ...]`: the runs of a seed
 * study one after another, then the combined report. Config A is the options
 * as given, B the same plus the --vs overrides. Layout under --out DIR:
 *
 *   DIR/A/seed-S/   report.json, report.md, charts/, run.zip of seed S in A
 *   DIR/B/seed-S/   the same for B
 *   DIR/study.json  seedStudy.ts's SeedStudy
 *   DIR/study.md    its verdict, charts and tables
 *   DIR/charts/     the charts study.md shows (studyCharts.ts)
 *
 * Resuming: a seed whose report.json is already there with the same options
 * is read, not rerun; with --profile P each seed runs in its own profile
 * P/A/seed-S (or B), so rerunning the command after an interruption resumes
 * the unfinished seed from its last finished phase.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { CoevoReport } from '../../src/coevo/records';
import { buildStudy, type SeedRun, type SeedStudy } from '../../src/coevo/seedStudy';
import { studyMarkdown } from '../../src/coevo/studyMarkdown';
import { studyCharts } from '../../src/coevo/studyCharts';
import type { CoevoArgs } from './coevo-args';
import type { RunEnvironment, RunResult } from './coevo-run';
import { RunFailure, unwritable } from './run-failure';

/** One run of the study: which config, which seed, and the single-run options that make it. */
export interface StudyRun {
  arm: 'A' | 'B';
  seed: number;
  args: CoevoArgs;
}

export const isStudy = (a: CoevoArgs): boolean => a.seeds !== undefined || a.vs !== undefined;

const keyOf = (kv: string): string => kv.slice(0, kv.indexOf('='));

/** `set` with each of `vs` put in: a key both name takes the --vs value. */
export function withOverrides(set: readonly string[], vs: readonly string[]): string[] {
  const replaced = new Set(vs.map(keyOf));
  return [...set.filter((kv) => !replaced.has(keyOf(kv))), ...vs];
}

/** The runs in the order they run: every seed of A, then every seed of B. */
export function studyRuns(a: CoevoArgs): StudyRun[] {
  const seeds = a.seeds ?? [a.seed];
  const arms: { arm: 'A' | 'B'; set: string[] }[] = [{ arm: 'A', set: a.set }];
  if (a.vs) arms.push({ arm: 'B', set: withOverrides(a.set, a.vs) });
  return arms.flatMap(({ arm, set }) =>
    seeds.map((seed) => {
      const { seeds: _s, vs: _v, profile, ...single } = a;
      const dir = join(arm, `seed-${seed}`);
      return { arm, seed, args: { ...single, seed, set, out: join(a.out, dir), ...(profile !== undefined ? { profile: join(profile, dir) } : {}) } };
    }),
  );
}

/** The value at a dotted path of a (nested) config. */
function at(config: Record<string, unknown>, path: string): unknown {
  let v: unknown = config;
  for (const part of path.split('.')) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<string, unknown>)[part];
  }
  return v;
}

/**
 * Whether a report was made with these options: same preset, seed and
 * iterations, and every override's value as given (compared as text, so a
 * value spelled differently, 1e-3 for 0.001, reruns rather than risks a
 * mix-up).
 */
export function reportMatches(report: Pick<CoevoReport, 'config'>, a: CoevoArgs): boolean {
  const c = report.config;
  if (c.preset !== a.preset || c.seed !== a.seed || c.iterations !== a.iterations) return false;
  return a.set.every((kv) => {
    const v = at(c, keyOf(kv));
    const want = kv.slice(kv.indexOf('=') + 1);
    return v !== undefined && (String(v) === want || JSON.stringify(v) === want);
  });
}

/** The finished report in a run's output directory when it matches its options; null otherwise. */
export function finishedReport(a: CoevoArgs): CoevoReport | null {
  const path = join(resolve(a.out), 'report.json');
  if (!existsSync(path)) return null;
  try {
    const r = JSON.parse(readFileSync(path, 'utf8')) as CoevoReport;
    return Array.isArray(r.iterations) && r.config && reportMatches(r, a) ? r : null;
  } catch {
    return null; // unreadable: the seed runs again and rewrites it
  }
}

export type RunOne = (args: CoevoArgs, env: RunEnvironment) => Promise<Pick<RunResult, 'runId' | 'wallSeconds'>>;

export interface StudyResult {
  study: SeedStudy;
  json: string;
  markdown: string;
  /** Paths of the charts study.md shows. */
  charts: string[];
  /** Per run: ran now, or read from an earlier invocation. */
  runs: { arm: 'A' | 'B'; seed: number; runId: string; reused: boolean; wallSeconds?: number }[];
}

/** Writes study.json, study.md and its charts/ for finished reports. */
export function writeStudy(dir: string, study: SeedStudy): { json: string; markdown: string; charts: string[] } {
  mkdirSync(dir, { recursive: true });
  const json = join(dir, 'study.json');
  const markdown = join(dir, 'study.md');
  const charts = studyCharts(study);
  // A rerun with fewer finished runs must not leave the last run's charts beside it.
  rmSync(join(dir, 'charts'), { recursive: true, force: true });
  if (charts.length) mkdirSync(join(dir, 'charts'), { recursive: true });
  for (const c of charts) writeFileSync(join(dir, c.path), c.svg);
  writeFileSync(json, `${JSON.stringify(study, null, 2)}\n`);
  writeFileSync(markdown, studyMarkdown(study, charts));
  return { json, markdown, charts: charts.map((c) => join(dir, c.path)) };
}

const armName = (arm: 'A' | 'B', set: readonly string[]): string => (set.length ? `${arm} (${set.join(' ')})` : arm);

/** Runs (or reuses) every run of the study, then writes the combined report. `runOne` is runCoevo; tests pass a stand-in. */
export async function runStudy(a: CoevoArgs, env: RunEnvironment, runOne: RunOne): Promise<StudyResult> {
  const outDir = resolve(a.out);
  const blocked = unwritable(outDir);
  if (blocked) throw new RunFailure(2, `cannot write the study to ${outDir}: ${blocked}. Pass another --out.`);
  const plan = studyRuns(a);
  const runs: StudyResult['runs'] = [];
  const reports: Record<'A' | 'B', SeedRun[]> = { A: [], B: [] };
  for (const [i, r] of plan.entries()) {
    const where = `${r.arm}, seed ${r.seed} (run ${i + 1} of ${plan.length})`;
    let report = finishedReport(r.args);
    if (report) {
      env.printer.log(`${where}: already finished in ${r.args.out}; reusing its report.`);
      runs.push({ arm: r.arm, seed: r.seed, runId: report.runId, reused: true });
    } else {
      env.printer.log(`${where}: ${r.args.set.length ? r.args.set.join(' ') : 'options as given'}`);
      const done = await runOne(r.args, env);
      report = finishedReport(r.args);
      if (!report) throw new RunFailure(1, `${where} finished, but ${join(r.args.out, 'report.json')} is missing or was made with other options.`);
      runs.push({ arm: r.arm, seed: r.seed, runId: done.runId, reused: false, wallSeconds: done.wallSeconds });
    }
    reports[r.arm].push({ seed: r.seed, report });
  }
  const setB = a.vs ? withOverrides(a.set, a.vs) : [];
  const study = buildStudy({
    preset: a.preset,
    iterations: a.iterations,
    seeds: a.seeds ?? [a.seed],
    a: { name: armName('A', a.set), set: a.set, runs: reports.A },
    ...(a.vs ? { b: { name: a.ablation ? `B: ${a.ablation} (${a.vs.join(' ')})` : armName('B', a.vs), set: setB, runs: reports.B } } : {}),
  });
  return { study, ...writeStudy(outDir, study), runs };
}
