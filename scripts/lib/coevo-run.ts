/**
 * One headless co-evolution run against a served app: open it in Chromium,
 * start the run through window.coevo, follow it, write the report. Where the
 * app comes from (a fresh build of dist/, or a stand-in in tests) is the
 * caller's choice.
 */
import { resolve } from 'node:path';
import { AppError, type BrowserApp } from './browser-app';
import type { CoevoDevice, CoevoStatus } from './coevo-api';
import type { CoevoArgs } from './coevo-args';
import { formatDuration, progressLine, type ProgressPrinter } from './progress';
import { RunFailure, unwritable } from './run-failure';
import { withServedApp, type AppEnvironment } from './served-app';
import { writeReport, type WrittenReport } from './write-report';

export interface RunEnvironment extends AppEnvironment {
  pollMs?: number;
}

export interface RunResult {
  runId: string;
  device: CoevoDevice;
  wallSeconds: number;
  written: WrittenReport;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

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

  const lost = 'the run is lost: each start uses a fresh browser profile';
  return withServedApp(env, { backend: args.backend, backendExplicit: args.backendExplicit, lost }, async ({ app, device }) => {
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
  });
}
