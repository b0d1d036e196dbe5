/**
 * `npm run coevo -- --preset tiny --iterations 3 --seed 1 --out DIR [--backend webgpu|wasm] [--set key=value ...]`
 *
 * Runs the co-evolution loop in the real app: builds it if dist/ is stale,
 * serves it cross-origin isolated, opens it in headless Chromium with WebGPU,
 * drives it through window.coevo, shows progress, and writes DIR/report.json,
 * DIR/report.md and DIR/charts/*.svg. This script never loads tfjs itself.
 */
import { relative, resolve } from 'node:path';
import { COEVO_HELP, parseCoevoArgs } from './lib/coevo-args';
import { runCoevo } from './lib/coevo-run';
import { argsOrExit, builtApp, failed, runMain, stderrPrinter } from './lib/cli';
import { formatDuration } from './lib/progress';

async function main(): Promise<number> {
  const args = argsOrExit('coevo', parseCoevoArgs, COEVO_HELP);
  if (typeof args === 'number') return args;
  const printer = stderrPrinter();
  try {
    const { runId, device, wallSeconds, written } = await runCoevo(args, { serve: builtApp(printer), printer });
    const show = (p: string): string => relative(process.cwd(), p) || '.';
    console.log(`run ${runId} done on ${device.backend} (${device.adapter}); wall time ${formatDuration(wallSeconds * 1000)} (${wallSeconds.toFixed(1)} s)`);
    console.log(`wrote ${show(written.json)}`);
    console.log(`      ${show(written.markdown)}`);
    console.log(`      ${written.charts.length} charts in ${show(resolve(args.out, 'charts'))}/`);
    console.log(`      ${show(written.archive)} (the run: Import in the app, or npm run export -- --archive)`);
    return 0;
  } catch (e) {
    return failed('coevo', e);
  }
}

runMain(main);
