/**
 * `npm run bench [-- --preset tiny|demo --out FILE]`
 *
 * Measures how fast and how lean training is in the real app: builds it if
 * dist/ is stale, serves it cross-origin isolated, opens it in headless
 * Chromium with WebGPU, runs window.coevo.bench, writes the JSON and prints
 * a short table. This script never loads tfjs itself.
 */
import { relative } from 'node:path';
import { benchTable } from '../src/bench/report';
import { BENCH_HELP, parseBenchArgs } from './lib/bench-args';
import { runBenchCommand } from './lib/bench-run';
import { argsOrExit, builtApp, failed, runMain, stderrPrinter } from './lib/cli';
import { formatDuration } from './lib/progress';

async function main(): Promise<number> {
  const args = argsOrExit('bench', parseBenchArgs, BENCH_HELP);
  if (typeof args === 'number') return args;
  const printer = stderrPrinter();
  try {
    const command = `npm run bench -- ${process.argv.slice(2).join(' ')}`.trim().replace(/ --$/, '');
    const { report, path } = await runBenchCommand(args, { serve: builtApp(printer), printer, command });
    console.log(benchTable(report));
    console.log(`wall time ${formatDuration(report.wall_seconds * 1000)}; wrote ${relative(process.cwd(), path) || path}`);
    return 0;
  } catch (e) {
    return failed('bench', e);
  }
}

runMain(main);
