/**
 * `npm run coevo -- --preset tiny --iterations 3 --seed 1 --out DIR [--backend webgpu|wasm] [--set key=value ...]`
 * `npm run coevo -- --seeds 1,2,3 [--vs key=value ...] --out DIR ...` (a seed study: lib/coevo-study.ts)
 *
 * Runs the co-evolution loop in the real app: builds it if dist/ is stale,
 * serves it cross-origin isolated, opens it in headless Chromium with WebGPU,
 * drives it through window.coevo, shows progress, and writes DIR/report.json,
 * DIR/report.md and DIR/charts/*.svg. This script never loads tfjs itself.
 */
import { relative, resolve } from 'node:path';
import { COEVO_HELP, parseCoevoArgs } from './lib/coevo-args';
import { runCoevo } from './lib/coevo-run';
import { isStudy, runStudy } from './lib/coevo-study';
import { argsOrExit, builtApp, failed, runMain, stderrPrinter } from './lib/cli';
import { formatDuration } from './lib/progress';

async function main(): Promise<number> {
  const args = argsOrExit('coevo', parseCoevoArgs, COEVO_HELP);
  if (typeof args === 'number') return args;
  const printer = stderrPrinter();
  const show = (p: string): string => relative(process.cwd(), p) || '.';
  if (isStudy(args)) {
    try {
      const { study, json, markdown, runs } = await runStudy(args, { serve: builtApp(printer), printer }, runCoevo);
      for (const r of runs) console.log(`${r.arm} seed ${r.seed}: run ${r.runId}${r.reused ? ' (finished earlier, reused)' : r.wallSeconds !== undefined ? `, ${formatDuration(r.wallSeconds * 1000)}` : ''}`);
      for (const v of study.verdict) console.log(v.sentence);
      console.log(`wrote ${show(json)}`);
      console.log(`      ${show(markdown)}`);
      return 0;
    } catch (e) {
      return failed('coevo', e);
    }
  }
  try {
    const { runId, device, wallSeconds, written } = await runCoevo(args, { serve: builtApp(printer), printer });
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
