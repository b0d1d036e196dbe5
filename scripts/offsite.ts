/**
 * `npm run offsite -- --agent planner|grounder [--preset tiny] [--out DIR]`
 *
 * One offsite-tuning comparison (docs/offsite.md) of a shipped base model in
 * the real app (headless Chromium): zero-shot, full fine-tuning, and per
 * emulator scale the emulator fine-tuning, plug-in and uniform-drop rows.
 * Prints the table and writes report.json and report.md. This script never
 * loads tfjs itself.
 */
import { relative } from 'node:path';
import { reportTable } from '../src/offsite/report';
import { summaryLines } from '../src/offsite/summary';
import { argsOrExit, builtApp, failed, runMain, stderrPrinter } from './lib/cli';
import { OFFSITE_HELP, parseOffsiteArgs } from './lib/offsite-args';
import { runOffsiteCommand } from './lib/offsite-run';
import { formatDuration } from './lib/progress';

async function main(): Promise<number> {
  const args = argsOrExit('offsite', parseOffsiteArgs, OFFSITE_HELP);
  if (typeof args === 'number') return args;
  const printer = stderrPrinter();
  try {
    const command = `npm run offsite -- ${process.argv.slice(2).join(' ')}`.trim().replace(/ --$/, '');
    const { report, written, wallSeconds } = await runOffsiteCommand(args, { serve: builtApp(printer), printer, command });
    console.log(`${report.info.agent}, ${report.info.preset}: ${report.info.privateSet}\n`);
    console.log(reportTable(report));
    console.log(`\n${summaryLines(report.summary, report.info.agent === 'grounder' ? 'click-in-box accuracy' : 'exact-match').join('\n')}`);
    console.log(`\nwall time ${formatDuration(wallSeconds * 1000)} (the comparison ${formatDuration(report.info.wallSeconds * 1000)} on ${report.info.backend}); wrote`);
    for (const p of [written.json, written.markdown]) console.log(`  ${relative(process.cwd(), p) || p}`);
    return 0;
  } catch (e) {
    return failed('offsite', e);
  }
}

runMain(main);
