/**
 * One benchmark against a served app: open it in headless Chromium, run
 * window.coevo.bench while polling its progress, and build the JSON from
 * what the worker and the page measured plus a description of this machine.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, release, totalmem, type as osType } from 'node:os';
import { dirname, resolve } from 'node:path';
import type { Page } from '@playwright/test';
import { buildBenchReport, type ReportMeta } from '../../src/bench/report';
import type { BenchOptions, BenchProgress, BenchReport, MainThreadBench, WorkerBench } from '../../src/bench/types';
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

export async function runBenchCommand(args: BenchArgs, env: AppEnvironment & { command: string }): Promise<{ report: BenchReport; path: string }> {
  const startedAt = performance.now();
  const { printer } = env;
  const path = resolve(args.out);
  const blocked = unwritable(dirname(path));
  if (blocked) throw new RunFailure(2, `cannot write the JSON to ${path}: ${blocked}. Pass another --out.`);

  return withServedApp(env, { backend: args.backend, backendExplicit: args.backendExplicit, threads: args.threads, lost: 'nothing is written' }, async ({ app, browserVersion }) => {
    const o = args.options;
    printer.log(`benchmark: preset ${o.preset}, seed ${o.seed}; co-evolution ${o.iterations} iteration(s) with ${o.coevoSet.join(' ') || 'the preset config'}`);

    let finished = false;
    const poll = (async () => {
      let last = '';
      let shown = 0;
      while (!finished) {
        const p = await benchProgress(app.page);
        const now = performance.now();
        for (; p && shown < p.results.length; shown++) printer.log(`  ${p.results[shown]}`);
        if (p && p.stage !== 'idle' && p.stage !== 'result') {
          const line = `${p.stage}: ${p.detail} · elapsed ${formatDuration(now - startedAt)}`;
          printer.update(line, now, `${p.stage}: ${p.detail}` !== last);
          last = `${p.stage}: ${p.detail}`;
        }
        await new Promise((r) => setTimeout(r, 1000));
      }
    })();
    let outcome: BenchOutcome;
    try {
      outcome = await callBench(app.page, o);
    } finally {
      finished = true;
      await poll;
      printer.end();
    }
    if (!outcome.ok) throw new RunFailure(1, outcome.missing ? missingApiMessage('bench') : `the benchmark failed: ${outcome.message}`);

    const report = buildBenchReport(outcome.value.worker, outcome.value.mainThread, {
      command: env.command,
      date: new Date().toISOString(),
      machine: machineOf(browserVersion),
      wallSeconds: (performance.now() - startedAt) / 1000,
    });
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, `${JSON.stringify(report, null, 2)}\n`);
    return { report, path };
  });
}
