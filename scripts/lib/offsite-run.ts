/**
 * One headless offsite comparison against a served app: open it, run the
 * comparison through window.coevo while polling its progress, and write
 * report.json and report.md (src/offsite/report.ts, as the slow tests do).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { OffsiteProgress } from '../../src/offsite/jobTypes';
import { offsiteMarkdown, type OffsiteReport } from '../../src/offsite/report';
import { AppError, type BrowserApp } from './browser-app';
import type { OffsiteArgs } from './offsite-args';
import { formatDuration, progressBar, type ProgressPrinter } from './progress';
import { RunFailure, unwritable } from './run-failure';
import { withServedApp, type AppEnvironment } from './served-app';

export interface OffsiteEnvironment extends AppEnvironment {
  pollMs?: number;
  /** The command line, recorded in both files. */
  command: string;
}

export interface OffsiteOutput {
  report: OffsiteReport;
  written: { json: string; markdown: string };
  /** The command's wall time, the browser's start included. */
  wallSeconds: number;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** e.g. `full fine-tuning [####......] 12/30 · all [##........] 36/204 · ETA 6m10s · elapsed 1m02s`. */
export function offsiteLine(p: OffsiteProgress, elapsedMs: number): string {
  const parts = [p.steps > 0 ? `${p.phase} ${progressBar(p.step, p.steps, 10)} ${p.step}/${p.steps}` : p.phase || 'starting'];
  if (p.total > 0) parts.push(`all ${progressBar(p.done, p.total, 10)} ${p.done}/${p.total} steps`);
  parts.push(`ETA ${p.etaMs === null ? '?' : formatDuration(p.etaMs)}`, `elapsed ${formatDuration(elapsedMs)}`);
  return parts.join(' · ');
}

/** The files' text: the report with the command that made it. */
export function offsiteFiles(report: OffsiteReport, command: string): { json: string; markdown: string; report: OffsiteReport } {
  const withCommand: OffsiteReport = { ...report, info: { ...report.info, command } };
  return { report: withCommand, json: `${JSON.stringify(withCommand, null, 2)}\n`, markdown: offsiteMarkdown(withCommand) };
}

/** Polls the app's progress onto the printer until `done` settles. */
async function follow<T>(app: BrowserApp, done: Promise<T>, printer: ProgressPrinter, startedAt: number, pollMs: number): Promise<T> {
  let settled = false;
  const watched = done.finally(() => void (settled = true));
  let phase = '';
  let printed = 0; // finished phases already printed
  // The app lists every ended phase, so a phase shorter than a poll is printed too, and the last ones after the run settles.
  const printFinished = (p: OffsiteProgress): void => {
    for (const f of p.finished.slice(printed)) printer.log(`  ${f.phase}: done, ${formatDuration(f.atMs)} into the comparison`);
    printed = p.finished.length;
  };
  while (!settled) {
    const p = await app.call('offsiteProgress').catch(() => null);
    if (p && p.state === 'running') {
      printFinished(p);
      const changed = p.phase !== phase;
      printer.update(offsiteLine(p, performance.now() - startedAt), performance.now(), changed);
      phase = p.phase;
    }
    await Promise.race([watched.catch(() => undefined), sleep(pollMs)]);
  }
  const last = await app.call('offsiteProgress').catch(() => null);
  if (last && last.state !== 'idle') printFinished(last);
  printer.end();
  return watched;
}

export async function runOffsiteCommand(args: OffsiteArgs, env: OffsiteEnvironment): Promise<OffsiteOutput> {
  const startedAt = performance.now();
  const { printer } = env;
  const dir = resolve(args.out);
  const blocked = unwritable(dir);
  if (blocked) throw new RunFailure(2, `cannot write the report to ${dir}: ${blocked}. Pass another --out.`);
  const o = args.options;
  return withServedApp(env, { backend: args.backend, backendExplicit: args.backendExplicit, threads: args.threads, lost: 'nothing is written' }, async ({ app }) => {
    const scales = o.scales.map((s) => `α ${s.alpha} β ${s.beta}`).join(', ');
    printer.log(`offsite ${o.agent}, preset ${o.preset}, seed ${o.seed}: ${o.tasks} private tasks, ${o.replaceSteps} harmonizer steps, ${o.tuneSteps} tuning steps, batch ${o.batchSize}, scales ${scales}${o.lora ? `, LoRA rank ${o.lora.rank}` : ''}`);
    let raw: OffsiteReport;
    try {
      raw = await follow(app, app.call('runOffsite', o), printer, startedAt, env.pollMs ?? 2000);
    } catch (e) {
      if (e instanceof AppError) throw new RunFailure(1, e.missing ? e.message : `the offsite comparison failed: ${e.message}`);
      throw e;
    }
    const files = offsiteFiles(raw, env.command);
    mkdirSync(dir, { recursive: true });
    const written = { json: join(dir, 'report.json'), markdown: join(dir, 'report.md') };
    writeFileSync(written.json, files.json);
    writeFileSync(written.markdown, files.markdown);
    return { report: files.report, written, wallSeconds: (performance.now() - startedAt) / 1000 };
  });
}
