/**
 * `npm run pretrain -- --preset tiny --seed 1 --out public/base`
 *
 * Pretrains the base grounder and planner in the real app (headless
 * Chromium, the real renderer's pixels), writes the safetensors files and a
 * manifest with the held-out figures they reached, and prints that table.
 * This script never loads tfjs itself.
 */
import { relative } from 'node:path';
import { argsOrExit, builtApp, failed, runMain, stderrPrinter } from './lib/cli';
import { dataMixLines, figureTable, runPretrain } from './lib/pretrain-run';
import { PRETRAIN_HELP, parsePretrainArgs } from './lib/pretrain-args';
import { formatDuration } from './lib/progress';

async function main(): Promise<number> {
  const args = argsOrExit('pretrain', parsePretrainArgs, PRETRAIN_HELP);
  if (typeof args === 'number') return args;
  const printer = stderrPrinter();
  try {
    const { manifest, written, wallSeconds } = await runPretrain(args, { serve: builtApp(printer), printer });
    console.log(figureTable(manifest));
    for (const line of dataMixLines(manifest)) console.log(line);
    console.log(`\nwall time ${formatDuration(wallSeconds * 1000)} on ${manifest.backend}; wrote`);
    for (const p of written) console.log(`  ${relative(process.cwd(), p)}`);
    return 0;
  } catch (e) {
    return failed('pretrain', e);
  }
}

runMain(main);
