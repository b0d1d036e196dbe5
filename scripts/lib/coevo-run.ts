/**
 * One headless co-evolution run against a served app: open it in Chromium,
 * start the run through window.coevo, follow it, write the report. Where the
 * app comes from (a fresh build of dist/, or a stand-in in tests) is the
 * caller's choice.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
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
  written: WrittenReport & { archive: string };
}

/** The run's archive zip, written beside report.json. */
export const RUN_ARCHIVE = 'run.zip';

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

/** What a --profile directory remembers of the run it holds: the options that started it. */
interface ProfileRun {
  runId: string;
  preset: string;
  seed: number;
  iterations: number;
  set: string[];
  backend: string;
}

const PROFILE_RUN = 'coevo-cli-run.json';

function savedRun(profile: string): ProfileRun | null {
  const path = join(profile, PROFILE_RUN);
  if (!existsSync(path)) return null;
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as ProfileRun;
  } catch {
    return null; // unreadable: a new run replaces it
  }
}

const sameOptions = (r: ProfileRun, a: CoevoArgs): boolean =>
  r.preset === a.preset && r.seed === a.seed && r.iterations === a.iterations && r.backend === a.backend && JSON.stringify(r.set) === JSON.stringify(a.set);

/** The profile's run when the same options started it and the page still has it, resumed unless done; else null. */
async function resumeFromProfile(app: BrowserApp, profile: string, args: CoevoArgs, printer: ProgressPrinter): Promise<string | null> {
  const saved = savedRun(profile);
  if (!saved) return null;
  if (!sameOptions(saved, args)) {
    printer.log(`the profile's run ${saved.runId} was started with other options; starting a new run (the old one stays stored).`);
    return null;
  }
  let status: CoevoStatus;
  try {
    status = await app.call('coevoStatus', saved.runId);
  } catch {
    printer.log(`run ${saved.runId} is no longer stored in the profile; starting a new run.`);
    return null;
  }
  if (status.state === 'done') {
    printer.log(`run ${saved.runId} already finished in this profile; writing its report.`);
    return saved.runId;
  }
  printer.log(`resuming run ${saved.runId} from the profile at iteration ${status.iteration}, phase ${status.phase} (phase ${status.phaseIndex + 1}/${status.phaseCount}); finished phases are kept.`);
  await app.call('controlCoevo', saved.runId, 'run');
  return saved.runId;
}

export async function runCoevo(args: CoevoArgs, env: RunEnvironment): Promise<RunResult> {
  const startedAt = performance.now();
  const { printer } = env;
  const outDir = resolve(args.out);
  const blocked = unwritable(outDir);
  if (blocked) throw new RunFailure(2, `cannot write the report to ${outDir}: ${blocked}. Pass another --out.`);

  const profile = args.profile === undefined ? undefined : resolve(args.profile);
  const lost = profile
    ? `the run stays in ${profile}: rerun the same command to resume it from its last finished phase`
    : 'the run is lost: each start uses a fresh browser profile (--profile DIR keeps it)';
  return withServedApp(env, { backend: args.backend, backendExplicit: args.backendExplicit, threads: args.threads, lost, profile, appChooses: true }, async ({ app, device }) => {
    let runId = profile ? await resumeFromProfile(app, profile, args, printer) : null;
    if (runId === null) {
      try {
        ({ runId } = await app.call('startCoevo', { preset: args.preset, seed: args.seed, iterations: args.iterations, set: args.set }));
      } catch (e) {
        if (e instanceof AppError && !e.missing) throw new RunFailure(2, `the app refused the config: ${e.message}`);
        throw e;
      }
      if (profile) {
        const record: ProfileRun = { runId, preset: args.preset, seed: args.seed, iterations: args.iterations, set: args.set, backend: args.backend };
        writeFileSync(join(profile, PROFILE_RUN), `${JSON.stringify(record, null, 2)}\n`);
      }
      printer.log(`run ${runId}: preset ${args.preset}, seed ${args.seed}, ${args.iterations} iteration(s)${args.set.length ? `, ${args.set.join(' ')}` : ''}`);
    }

    const final = await follow(app, runId, startedAt, env);
    if (final.state === 'failed') throw new RunFailure(1, `the run failed in iteration ${final.iteration}, phase ${final.phase}: ${final.error ?? 'no message'}`);

    const report = await app.call('coevoReport', runId);
    const wallSeconds = (performance.now() - startedAt) / 1000;
    const written = writeReport(outDir, report, wallSeconds);
    // The whole run as the app's archive: it opens in the UI (Import) and feeds `npm run export -- --archive`.
    const archive = join(outDir, RUN_ARCHIVE);
    writeFileSync(archive, new Uint8Array(await app.call('exportRun', runId)));
    return { runId, device, wallSeconds, written: { ...written, archive } };
  });
}
