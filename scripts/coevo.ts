/**
 * `npm run coevo -- --preset tiny --iterations 3 --seed 1 --out DIR [--backend webgpu|wasm] [--set key=value ...]`
 *
 * Runs the co-evolution loop in the real app: builds it if dist/ is stale,
 * serves it cross-origin isolated, opens it in headless Chromium with WebGPU,
 * drives it through window.coevo, shows progress, and writes DIR/report.json,
 * DIR/report.md and DIR/charts/*.svg. This script never loads tfjs itself.
 */
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { staleReason, viteBuild } from './lib/build-if-stale';
import { COEVO_HELP, parseCoevoArgs, UsageError, type CoevoArgs } from './lib/coevo-args';
import { RunFailure, runCoevo } from './lib/coevo-run';
import { formatDuration, ProgressPrinter } from './lib/progress';
import { serveDist } from './lib/serve-dist';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

async function main(): Promise<number> {
  let args: CoevoArgs;
  try {
    const parsed = parseCoevoArgs(process.argv.slice(2));
    if (parsed.help) {
      console.log(COEVO_HELP);
      return 0;
    }
    args = parsed.args;
  } catch (e) {
    if (e instanceof UsageError) {
      console.error(`coevo: ${e.message}\nRun with --help for the options.`);
      return 2;
    }
    throw e;
  }

  // Progress and browser messages go to stderr; the summary of what was written to stdout.
  const printer = new ProgressPrinter({
    write: (t) => process.stderr.write(t),
    isTTY: process.stderr.isTTY === true,
    get columns() {
      return process.stderr.columns;
    },
  });
  const serve = async () => {
    const stale = staleReason(ROOT);
    if (stale) {
      printer.log(`building the app (${stale})…`);
      const t = performance.now();
      await viteBuild(ROOT);
      printer.log(`  built in ${formatDuration(performance.now() - t)}`);
    }
    return serveDist(ROOT);
  };

  try {
    const { runId, device, wallSeconds, written } = await runCoevo(args, { serve, printer });
    const show = (p: string): string => relative(process.cwd(), p) || '.';
    console.log(`run ${runId} done on ${device.backend} (${device.adapter}); wall time ${formatDuration(wallSeconds * 1000)} (${wallSeconds.toFixed(1)} s)`);
    console.log(`wrote ${show(written.json)}`);
    console.log(`      ${show(written.markdown)}`);
    console.log(`      ${written.charts.length} charts in ${show(resolve(args.out, 'charts'))}/`);
    return 0;
  } catch (e) {
    console.error(`coevo: ${e instanceof Error ? e.message : String(e)}`);
    return e instanceof RunFailure ? e.exitCode : 1;
  }
}

main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    console.error(e);
    process.exit(1);
  },
);
