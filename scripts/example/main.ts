/**
 * `npm run example [-- --from DIR --commit SHA] [-- --note TEXT]`
 *
 * Makes the example run the app ships (public/example/tiny-run.zip and its
 * provenance, tiny-run.json): runs the recipe of src/example/provenance.ts
 * with `npm run coevo`'s code (about 21 minutes on WASM here), then checks
 * and ships its run.zip. With --from, ships DIR/run.zip of a run already made
 * with the recipe instead (then --commit names the code that made it).
 *
 * This folder is CommonJS (its package.json), as scripts/export is: the
 * archive reader imports tfjs-core, whose deep imports do not load as Node
 * ES modules.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { EXAMPLE_DIR, EXAMPLE_RECIPE } from '../../src/example/provenance';
import { runCoevo, RUN_ARCHIVE } from '../lib/coevo-run';
import { timestampName } from '../lib/coevo-args';
import { builtApp, failed, ROOT, runMain, stderrPrinter } from '../lib/cli';
import { readFlags, UsageError } from '../lib/flags';
import { shipExample } from './ship';

const HELP = `Makes the example run the app ships in public/example/.

usage: npm run example [-- --from DIR --commit SHA] [-- --note TEXT]

  (no options)   run the example recipe headless (npm run coevo's code) and ship its run.zip
  --from DIR     ship DIR/run.zip, a run already made with the recipe, instead of running it
  --commit SHA   the git commit that made the run (default: this checkout's HEAD; needed with --from)
  --note TEXT    a remark kept in the provenance manifest`;

function head(): string {
  const sha = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim();
  const dirty = execFileSync('git', ['status', '--porcelain', '--', 'src', 'workers', 'scripts'], { cwd: ROOT, encoding: 'utf8' }).trim();
  if (dirty) throw new UsageError(`the code has uncommitted changes (src, workers or scripts), so no commit describes it; commit them first.`);
  return sha;
}

async function main(): Promise<number> {
  const argv = process.argv.slice(2);
  if (argv.includes('-h') || argv.includes('--help')) {
    console.log(HELP);
    return 0;
  }
  try {
    const { given } = readFlags(argv, ['from', 'commit', 'note'] as const);
    const from = given.get('from');
    if (from !== undefined && !given.has('commit')) throw new UsageError('--from needs --commit: the commit of the code that made that run.');
    const commit = given.get('commit') ?? head();
    let dir = from;
    if (dir === undefined) {
      const printer = stderrPrinter();
      const r = EXAMPLE_RECIPE;
      dir = join(ROOT, 'out', 'example', timestampName(new Date()));
      const args = { preset: r.preset, iterations: r.iterations, seed: r.seed, backend: r.backend, backendExplicit: true, set: [...r.set], out: dir };
      await runCoevo(args, { serve: builtApp(printer), printer });
    }
    const zip = new Uint8Array(readFileSync(join(resolve(dir), RUN_ARCHIVE)));
    const shipped = shipExample(join(ROOT, 'public', EXAMPLE_DIR), zip, commit, given.get('note'));
    console.log(`shipped ${shipped.runId} (${shipped.bytes} bytes, sha256 ${shipped.sha256}) to public/${EXAMPLE_DIR}/`);
    return 0;
  } catch (e) {
    if (e instanceof UsageError) {
      console.error(`example: ${e.message}\nRun with --help for the options.`);
      return 2;
    }
    return failed('example', e);
  }
}

runMain(main);
