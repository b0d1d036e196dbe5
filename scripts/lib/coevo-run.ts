/**
 * One headless co-evolution run against a served app: open it in Chromium,
 * start the run through window.coevo, follow it, write the report. Where the
 * app comes from (a fresh build of dist/, or a stand-in in tests) is the
 * caller's choice.
 */
import { accessSync, constants, existsSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { Browser } from '@playwright/test';
import { AppError, launchBrowser, openApp, type BrowserApp } from './browser-app';
import type { CoevoDevice, CoevoStatus } from './coevo-api';
import type { CoevoArgs } from './coevo-args';
import { formatDuration, progressLine, type ProgressPrinter } from './progress';
import { writeReport, type WrittenReport } from './write-report';

/** A failure with the exit status it deserves: 1 the run or the browser failed, 2 the input was refused. */
export class RunFailure extends Error {
  override name = 'RunFailure';
  constructor(
    readonly exitCode: 1 | 2,
    message: string,
  ) {
    super(message);
  }
}

export interface RunEnvironment {
  /** Makes the app reachable and says where; called once, after the cheap checks. */
  serve(): Promise<{ url: string; isolated: boolean; close(): Promise<void> }>;
  printer: ProgressPrinter;
  pollMs?: number;
  /** How long the engine may take to start its backend (default 180 s: SwiftShader and WASM compile slowly). */
  readyTimeoutMs?: number;
}

export interface RunResult {
  runId: string;
  device: CoevoDevice;
  wallSeconds: number;
  written: WrittenReport;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

function withTimeout<T>(p: Promise<T>, ms: number, message: (seconds: number) => string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, fail) => {
    timer = setTimeout(() => fail(new RunFailure(1, message(Math.round(ms / 1000)))), ms);
  });
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
}

/** Why `dir` could not be created or written (checked before the run, so a long run does not end in a failed write), or null. */
export function unwritable(dir: string): string | null {
  let p = dir;
  while (!existsSync(p)) {
    const up = dirname(p);
    if (up === p) return 'no part of the path exists';
    p = up;
  }
  if (!statSync(p).isDirectory()) return `${p} is not a directory`;
  try {
    accessSync(p, constants.W_OK);
    return null;
  } catch {
    return `${p} is not writable`;
  }
}

async function follow(app: BrowserApp, runId: string, startedAt: number, env: RunEnvironment): Promise<CoevoStatus> {
  const { printer } = env;
  let phaseKey: string | null = null;
  let phaseLabel = '';
  let phaseSince = startedAt;
  for (;;) {
    const s = await app.call('coevoStatus', runId);
    const now = performance.now();
    const key = `${s.iteration}/${s.phase}`;
    if (phaseKey !== null && (phaseKey !== key || s.state === 'done')) printer.log(`  finished ${phaseLabel} in ${formatDuration(now - phaseSince)}`);
    if (s.state === 'done' || s.state === 'failed') {
      printer.end();
      return s;
    }
    const changed = phaseKey !== key;
    if (changed) {
      phaseKey = key;
      phaseLabel = `iteration ${s.iteration} ${s.phase}`;
      phaseSince = now;
    }
    printer.update(progressLine(s, now - startedAt), now, changed);
    await sleep(env.pollMs ?? 1000);
  }
}

export async function runCoevo(args: CoevoArgs, env: RunEnvironment): Promise<RunResult> {
  const startedAt = performance.now();
  const { printer } = env;
  const outDir = resolve(args.out);
  const blocked = unwritable(outDir);
  if (blocked) throw new RunFailure(2, `cannot write the report to ${outDir}: ${blocked}. Pass another --out.`);

  let server: Awaited<ReturnType<RunEnvironment['serve']>> | undefined;
  let browser: Browser | undefined;
  const release = async (): Promise<void> => {
    await browser?.close().catch(() => undefined);
    await server?.close().catch(() => undefined);
  };
  // Ctrl-C must not leave a chromium or a server behind.
  const onSignal = (): void => {
    printer.end();
    printer.log('interrupted: closing the browser and the server (the run is lost: each start uses a fresh browser profile).');
    void release().finally(() => process.exit(130));
  };
  process.once('SIGINT', onSignal);
  try {
    server = await env.serve();
    if (!server.isolated) printer.log('warning: the server did not send COOP/COEP headers, so the WASM backend runs single-threaded; check vite.config.ts preview.headers.');
    browser = await launchBrowser();
    const app = await openApp(browser, server.url, { backend: args.backend, onBrowserError: (m) => printer.log(m) });

    const device = await withTimeout(app.call('ready'), env.readyTimeoutMs ?? 180_000, (s) => `the app's engine worker did not report its backend within ${s} s (see the browser errors above, if any).`);
    printer.log(`app ready at ${server.url}: backend ${device.backend}, adapter ${device.adapter}`);
    if (device.backend !== args.backend) {
      const why = `asked for ${args.backend} but the app runs on ${device.backend}`;
      if (args.backendExplicit) throw new RunFailure(1, `${why} (no WebGPU adapter in this chromium?); pass --backend wasm to run on the CPU.`);
      printer.log(`warning: ${why}.`);
    }

    let runId: string;
    try {
      ({ runId } = await app.call('startCoevo', { preset: args.preset, seed: args.seed, iterations: args.iterations, set: args.set }));
    } catch (e) {
      if (e instanceof AppError && !e.missing) throw new RunFailure(2, `the app refused the config: ${e.message}`);
      throw e;
    }
    printer.log(`run ${runId}: preset ${args.preset}, seed ${args.seed}, ${args.iterations} iteration(s)${args.set.length ? `, ${args.set.join(' ')}` : ''}`);

    const final = await follow(app, runId, startedAt, env);
    if (final.state === 'failed') throw new RunFailure(1, `the run failed in iteration ${final.iteration}, phase ${final.phase}: ${final.error ?? 'no message'}`);

    const report = await app.call('coevoReport', runId);
    const wallSeconds = (performance.now() - startedAt) / 1000;
    return { runId, device, wallSeconds, written: writeReport(outDir, report, wallSeconds) };
  } finally {
    printer.end();
    process.off('SIGINT', onSignal);
    await release();
  }
}
