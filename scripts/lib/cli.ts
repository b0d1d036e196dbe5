/**
 * What every command that drives the app shares: arguments parsed or a
 * usage message with exit 2, progress on stderr, the app rebuilt when stale
 * and served, and a failure's exit status.
 */
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { staleReason, viteBuild } from './build-if-stale';
import { UsageError } from './flags';
import { RunFailure } from './run-failure';
import { formatDuration, ProgressPrinter } from './progress';
import { serveDist } from './serve-dist';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

type Parsed<T> = { help: true } | { help: false; args: T };

/** The parsed arguments, or the exit status when there is nothing to run (help shown: 0; a usage error: 2). */
export function argsOrExit<T>(name: string, parse: (argv: readonly string[]) => Parsed<T>, help: string): T | number {
  try {
    const parsed = parse(process.argv.slice(2));
    if (!parsed.help) return parsed.args;
    console.log(help);
    return 0;
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    console.error(`${name}: ${e.message}\nRun with --help for the options.`);
    return 2;
  }
}

/** Progress goes to stderr, so that stdout keeps only the summary. */
export function stderrPrinter(): ProgressPrinter {
  return new ProgressPrinter({
    write: (t) => process.stderr.write(t),
    isTTY: process.stderr.isTTY === true,
    get columns() {
      return process.stderr.columns;
    },
  });
}

/** Serves dist/, building it first when it is older than the sources. */
export function builtApp(printer: ProgressPrinter): (port?: number) => ReturnType<typeof serveDist> {
  return async (port) => {
    const stale = staleReason(ROOT);
    if (stale) {
      printer.log(`building the app (${stale})…`);
      const t = performance.now();
      await viteBuild(ROOT);
      printer.log(`  built in ${formatDuration(performance.now() - t)}`);
    }
    try {
      return await serveDist(ROOT, port);
    } catch (e) {
      // A profile's runs belong to the origin, so its port is fixed: say what holds it up.
      if (port !== undefined) throw new Error(`cannot serve the app on port ${port}, the port of this --profile directory (is another run using the same profile?): ${e instanceof Error ? e.message : String(e)}`);
      throw e;
    }
  };
}

/** The exit status of a failed command, its message printed. */
export function failed(name: string, e: unknown): number {
  console.error(`${name}: ${e instanceof Error ? e.message : String(e)}`);
  return e instanceof RunFailure ? e.exitCode : 1;
}

export function runMain(main: () => Promise<number>): void {
  main().then(
    (code) => process.exit(code),
    (e: unknown) => {
      console.error(e);
      process.exit(1);
    },
  );
}
