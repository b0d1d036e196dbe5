/**
 * `npm run bench [-- --preset tiny|demo --out FILE --anchor]`
 *
 * Measures how fast and how lean training is in the real app: builds it if
 * dist/ is stale, serves it cross-origin isolated, opens it in headless
 * Chromium with WebGPU, runs window.coevo.bench, writes the JSON and prints
 * a short table. This script never loads tfjs itself.
 */
import { relative } from 'node:path';
import { benchTable } from '../src/bench/report';
import { anchorTable } from './lib/bench-anchor';
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
    const { report, path, anchorProblem } = await runBenchCommand(args, { serve: builtApp(printer), printer, command });
    console.log(benchTable(report));
    if (report.anchor) console.log(`\n${anchorTable(report.anchor)}`);
    console.log(`wall time ${formatDuration(report.wall_seconds * 1000)}; wrote ${relative(process.cwd(), path) || path}`);
    if (anchorProblem) {
      console.error(`bench: ${anchorProblem}`);
      return 1;
    }
    return 0;
  } catch (e) {
    return failed('bench', e);
  }
}

runMain(main);
