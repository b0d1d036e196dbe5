/**
 * `npm run export -- --format trl|swift --out DIR (--archive RUN.zip | --run ID --profile DIR)`
 *
 * Writes a run's data sets and rewards in a trainer's format (src/export),
 * the same files the app's run list zips. A run comes from an exported zip,
 * or from a browser profile that `npm run coevo -- --profile DIR` left, read
 * through the app (window.coevo.exportRun) and then read as that zip. Its
 * screenshots are drawn by the app's renderer in headless Chromium
 * (render.ts): a run stores none.
 *
 * This folder is CommonJS (its package.json): the archive reader checks
 * checkpoints with src/models/checkpoint.ts, which imports tfjs-core, and
 * tfjs-core's deep imports do not load as Node ES modules.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { readArchive } from '../../src/coevo/archive';
import { buildTrainerExport, zipTrainerExport } from '../../src/export/build';
import { argsOrExit, builtApp, failed, runMain, stderrPrinter } from '../lib/cli';
import { RunFailure } from '../lib/run-failure';
import { withServedApp } from '../lib/served-app';
import { EXPORT_HELP, parseExportArgs, type ExportArgs } from './args';
import { pythonFiles } from './python-files';
import { cliRenderer } from './render';

async function runZip(args: ExportArgs): Promise<Uint8Array> {
  if (args.archive !== undefined) {
    try {
      return new Uint8Array(readFileSync(resolve(args.archive)));
    } catch (e) {
      throw new RunFailure(1, `cannot read ${args.archive}: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  const printer = stderrPrinter();
  const runId = args.run!;
  return withServedApp({ serve: builtApp(printer), printer }, { backend: 'wasm', backendExplicit: false, lost: 'nothing (the export only reads)', profile: args.profile }, async ({ app }) => {
    const runs = await app.call('listRuns');
    if (!runs.some((r) => r.id === runId)) throw new RunFailure(1, `the profile ${args.profile} has no run ${runId}; it has ${runs.map((r) => r.id).join(', ') || 'none'}.`);
    return new Uint8Array(await app.call('exportRun', runId));
  });
}

async function main(): Promise<number> {
  const args = argsOrExit('export', parseExportArgs, EXPORT_HELP);
  if (typeof args === 'number') return args;
  const renderer = cliRenderer(stderrPrinter());
  try {
    const bundle = readArchive(await runZip(args));
    const { files, summary } = await buildTrainerExport(bundle, args.format, pythonFiles(), renderer.render);
    const out = resolve(args.out);
    for (const [path, bytes] of Object.entries(files)) {
      mkdirSync(dirname(join(out, path)), { recursive: true });
      writeFileSync(join(out, path), bytes);
    }
    if (args.zip) writeFileSync(resolve(args.zip), zipTrainerExport(files));
    for (const d of summary.datasets) console.log(`${d.name.padEnd(16)} ${Object.entries(d.rows).map(([f, n]) => `${f} ${n}`).join(', ')}`);
    console.log(`wrote ${Object.keys(files).length} files (${summary.images} images, ${summary.checks} reward checks) to ${out}`);
    if (summary.skipped.noReplay > 0) console.log(`left out ${summary.skipped.noReplay} kept samples whose task does not replay in this world`);
    return 0;
  } catch (e) {
    return failed('export', e);
  } finally {
    await renderer.close();
  }
}

runMain(main);
