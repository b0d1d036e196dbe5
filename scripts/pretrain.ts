/**
 * `npm run pretrain -- --preset tiny --seed 1 --out public/base`
 *
 * Pretrains the base grounder and planner in the real app (headless
 * Chromium, the real renderer's pixels), writes the safetensors files and a
 * manifest with the held-out figures they reached, and prints that table.
 * This script never loads tfjs itself.
 */
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { staleReason, viteBuild } from './lib/build-if-stale';
import { UsageError } from './lib/coevo-args';
import { RunFailure } from './lib/coevo-run';
import { figureTable, runPretrain } from './lib/pretrain-run';
import { PRETRAIN_HELP, parsePretrainArgs, type PretrainArgs } from './lib/pretrain-args';
import { formatDuration, ProgressPrinter } from './lib/progress';
import { serveDist } from './lib/serve-dist';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

async function main(): Promise<number> {
  let args: PretrainArgs;
  try {
    const parsed = parsePretrainArgs(process.argv.slice(2));
    if (parsed.help) {
      console.log(PRETRAIN_HELP);
      return 0;
    }
    args = parsed.args;
  } catch (e) {
    if (e instanceof UsageError) {
      console.error(`pretrain: ${e.message}\nRun with --help for the options.`);
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
      await viteBuild(ROOT);
    }
    return serveDist(ROOT);
  };
  try {
    const { manifest, written, wallSeconds } = await runPretrain(args, { serve, printer });
    console.log(figureTable(manifest));
    console.log(`\nwall time ${formatDuration(wallSeconds * 1000)} on ${manifest.backend}; wrote`);
    for (const p of written) console.log(`  ${relative(process.cwd(), p)}`);
    return 0;
  } catch (e) {
    console.error(`pretrain: ${e instanceof Error ? e.message : String(e)}`);
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
