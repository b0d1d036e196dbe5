/**
 * One benchmark against a served app: open it in headless Chromium, run
 * window.coevo.bench while polling its progress, and build the JSON from
 * what the worker and the page measured plus a description of this machine.
 * With --anchor, more rounds in the same page, each followed by a round of
 * the PyTorch anchor on the sizes that WASM round's steps ran.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, release, totalmem, type as osType } from 'node:os';
import { dirname, resolve } from 'node:path';
import type { Page } from '@playwright/test';
import { buildBenchReport, type ReportMeta } from '../../src/bench/report';
import type { AnchorReport, BenchOptions, BenchProgress, BenchReport, MainThreadBench, WorkerBench } from '../../src/bench/types';
import { anchorProblems, anchorReport, type AnchorRound } from './bench-anchor';
import { ensureTorchPython, runAnchorScript } from './bench-anchor-python';
import { missingApiMessage } from './browser-app';
import type { BenchArgs } from './bench-args';
import { RunFailure, unwritable } from './run-failure';
import { withServedApp, type AppEnvironment } from './served-app';
import { formatDuration } from './progress';

type BenchOutcome = { ok: true; value: { worker: WorkerBench; mainThread: MainThreadBench } } | { ok: false; missing: boolean; message: string };

/** window.coevo.bench, outside the CoevoApi type that browser-app's call() knows. */
function callBench(page: Page, options: BenchOptions): Promise<BenchOutcome> {
  return page.evaluate(async (opts) => {
    const api = (window as unknown as { coevo?: { bench?: (o: unknown) => Promise<unknown> } }).coevo;
    if (typeof api?.bench !== 'function') return { ok: false, missing: true, message: '' } as const;
    try {
      return { ok: true, value: (await api.bench(opts)) as { worker: WorkerBench; mainThread: MainThreadBench } } as const;
    } catch (e) {
      return { ok: false, missing: false, message: e instanceof Error ? e.message : String(e) } as const;
    }
  }, options);
}

function benchProgress(page: Page): Promise<BenchProgress | null> {
  return page
    .evaluate(async () => {
      const api = (window as unknown as { coevo?: { benchProgress?: () => Promise<BenchProgress> } }).coevo;
      return typeof api?.benchProgress === 'function' ? api.benchProgress() : null;
    })
    .catch(() => null);
}

export function machineOf(browserVersion: string): ReportMeta['machine'] {
  const cpu = cpus();
  return {
    os: `${osType()} ${release()}`,
    cpus: cpu[0]?.model.trim() ?? 'unknown',
    cores: cpu.length,
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    browser: `Chromium ${browserVersion}`,
    node: process.version,
  };
}

type BenchResult = { worker: WorkerBench; mainThread: MainThreadBench };

/** One call of window.coevo.bench, its progress shown as it goes. */
async function benchRound(page: Page, o: BenchOptions, printer: AppEnvironment['printer'], startedAt: number, label: string): Promise<BenchResult> {
  let finished = false;
  let shown = 0;
  // The page keeps the previous round's progress until this round starts: a snapshot equal to it is not this round's.
  const stale = JSON.stringify(await benchProgress(page));
  const show = (p: BenchProgress | null) => {
    if (!p || JSON.stringify(p) === stale) return;
    for (; shown < p.results.length; shown++) printer.log(`  ${label}${p.results[shown]}`);
  };
  const poll = (async () => {
    let last = '';
    while (!finished) {
      const p = await benchProgress(page);
      const now = performance.now();
      show(p);
      if (p && !['idle', 'result', 'done', 'failed'].includes(p.stage)) {
        const line = `${label}${p.stage}: ${p.detail} · elapsed ${formatDuration(now - startedAt)}`;
        printer.update(line, now, `${p.stage}: ${p.detail}` !== last);
        last = `${p.stage}: ${p.detail}`;
      }
      await new Promise((r) => setTimeout(r, 1000));
    }
  })();
  let outcome: BenchOutcome;
  try {
    outcome = await callBench(page, o);
  } finally {
    finished = true;
    await poll;
    printer.end();
  }
  // The lines measured since the last poll.
  if (outcome.ok) show(await benchProgress(page));
  if (!outcome.ok) throw new RunFailure(1, outcome.missing ? missingApiMessage('bench') : `the benchmark failed: ${outcome.message}`);
  return outcome.value;
}

/** The anchor's rounds: the first WASM round is given, then PyTorch, WASM, PyTorch … */
async function anchorRounds(page: Page, first: WorkerBench, args: BenchArgs, python: { python: string; torch: string }, printer: AppEnvironment['printer'], startedAt: number): Promise<AnchorReport> {
  const o = args.options;
  const count = args.anchorRounds ?? 0;
  const rounds: AnchorRound[] = [];
  for (let r = 0; r < count; r++) {
    const wasm = r === 0 ? first : (await benchRound(page, { ...o, iterations: 0 }, printer, startedAt, `[WASM round ${r + 1}/${count}] `)).worker;
    if (wasm.threads === null) throw new RunFailure(1, `--anchor: the app ran the ${wasm.backend} backend, not WASM, so there is no thread count to match.`);
    printer.log(`[PyTorch round ${r + 1}/${count}] torch ${python.torch} (${python.python}), ${wasm.threads} thread(s)`);
    const torch = await runAnchorScript(python.python, { ...wasm.anchorSpec, work: wasm.work }, { threads: wasm.threads, steps: Math.max(o.grounderSteps, o.plannerSteps), seed: o.seed });
    const line = (['grounderSft', 'plannerSft', 'plannerGrpo'] as const).map((k) => `${k} ${Math.round(torch.steps[k].medianMs)} ms`).join(', ');
    printer.log(`  [PyTorch round ${r + 1}/${count}] ${line}`);
    rounds.push({ wasm, torch });
  }
  return anchorReport(rounds, python.python);
}

export interface BenchOutput {
  report: BenchReport;
  path: string;
  /** Why the anchor's comparison does not hold (the JSON is written all the same), or null. */
  anchorProblem: string | null;
}

export async function runBenchCommand(args: BenchArgs, env: AppEnvironment & { command: string }): Promise<BenchOutput> {
  const startedAt = performance.now();
  const { printer } = env;
  const path = resolve(args.out);
  const blocked = unwritable(dirname(path));
  if (blocked) throw new RunFailure(2, `cannot write the JSON to ${path}: ${blocked}. Pass another --out.`);
  // Before the browser opens: a missing PyTorch should fail in seconds, not after the WASM round.
  const python = args.anchorRounds !== null ? ensureTorchPython((line) => printer.log(line)) : null;

  return withServedApp(env, { backend: args.backend, backendExplicit: args.backendExplicit, threads: args.threads, lost: 'nothing is written' }, async ({ app, browserVersion }) => {
    const o = args.options;
    printer.log(`benchmark: preset ${o.preset}, seed ${o.seed}; co-evolution ${o.iterations} iteration(s) with ${o.coevoSet.join(' ') || 'the preset config'}`);

    const first = await benchRound(app.page, o, printer, startedAt, args.anchorRounds ? `[WASM round 1/${args.anchorRounds}] ` : '');
    const anchor = python ? await anchorRounds(app.page, first.worker, args, python, printer, startedAt) : null;

    const report = buildBenchReport(first.worker, first.mainThread, {
      command: env.command,
      date: new Date().toISOString(),
      machine: machineOf(browserVersion),
      wallSeconds: (performance.now() - startedAt) / 1000,
    }, anchor);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, `${JSON.stringify(report, null, 2)}\n`);
    return { report, path, anchorProblem: anchor ? anchorProblems(anchor) : null };
  });
}
