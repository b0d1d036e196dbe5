/**
 * `npm run bench [-- --preset tiny|demo --out FILE]`
 *
 * Measures how fast and how lean training is in the real app: builds it if
 * dist/ is stale, serves it cross-origin isolated, opens it in headless
 * Chromium with WebGPU, runs window.coevo.bench, writes the JSON and prints
 * a short table. This script never loads tfjs itself.
 */
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchTable } from '../src/bench/report';
import { BENCH_HELP, parseBenchArgs, UsageError, type BenchArgs } from './lib/bench-args';
import { runBenchCommand } from './lib/bench-run';
import { staleReason, viteBuild } from './lib/build-if-stale';
import { RunFailure } from './lib/coevo-run';
import { formatDuration, ProgressPrinter } from './lib/progress';
import { serveDist } from './lib/serve-dist';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

async function main(): Promise<number> {
  let args: BenchArgs;
  try {
    const parsed = parseBenchArgs(process.argv.slice(2));
    if (parsed.help) {
      console.log(BENCH_HELP);
      return 0;
    }
    args = parsed.args;
  } catch (e) {
    if (e instanceof UsageError) {
      console.error(`bench: ${e.message}\nRun with --help for the options.`);
      return 2;
    }
    throw e;
  }
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
    const command = `npm run bench -- ${process.argv.slice(2).join(' ')}`.trim().replace(/ --$/, '');
    const { report, path } = await runBenchCommand(args, { serve, printer, command });
    console.log(benchTable(report));
    console.log(`wall time ${formatDuration(report.wall_seconds * 1000)}; wrote ${relative(process.cwd(), path) || path}`);
    return 0;
  } catch (e) {
    console.error(`bench: ${e instanceof Error ? e.message : String(e)}`);
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
