/** The `--flag value` / `--flag=value` command lines of coevo, bench and pretrain, read one way. */

/** A mistake on the command line: the message says what was wrong and what is allowed. */
export class UsageError extends Error {
  override name = 'UsageError';
}

export interface Flags<F extends string> {
  /** Each single flag's value. */
  given: Map<F, string>;
  /** Each repeatable flag's values, in the order given. */
  repeated: Map<F, string[]>;
}

/**
 * Reads `argv` (the arguments after `--`) against the allowed flags. Throws
 * UsageError on a stray positional argument, an unknown flag, a missing or
 * empty value, or a single flag given twice.
 */
export function readFlags<F extends string>(argv: readonly string[], flags: readonly F[], repeatable: readonly F[] = []): Flags<F> {
  const out: Flags<F> = { given: new Map(), repeated: new Map() };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (!arg.startsWith('--')) throw new UsageError(`unexpected argument "${arg}": options start with --.`);
    const eq = arg.indexOf('=');
    const name = arg.slice(2, eq < 0 ? undefined : eq);
    if (!(flags as readonly string[]).includes(name)) throw new UsageError(`unknown option --${name}; the options are ${flags.map((f) => `--${f}`).join(', ')}, --help.`);
    const flag = name as F;
    let value: string;
    if (eq >= 0) value = arg.slice(eq + 1);
    else {
      const next = argv[i + 1];
      if (next === undefined || next.startsWith('--')) throw new UsageError(`--${flag} needs a value.`);
      value = next;
      i++;
    }
    if (value === '') throw new UsageError(`--${flag} needs a value.`);
    if (repeatable.includes(flag)) {
      out.repeated.set(flag, [...(out.repeated.get(flag) ?? []), value]);
      continue;
    }
    if (out.given.has(flag)) throw new UsageError(`--${flag} was given twice.`);
    out.given.set(flag, value);
  }
  return out;
}

export function nonNegativeInteger(flag: string, raw: string): number {
  const n = /^\d+$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(n)) throw new UsageError(`--${flag} must be an integer ≥ 0, got "${raw}".`);
  return n;
}

/** A count that must be at least 1 (--threads, --steps). */
export function positiveInteger(flag: string, raw: string): number {
  const n = nonNegativeInteger(flag, raw);
  if (n === 0) throw new UsageError(`--${flag} must be 1 or more.`);
  return n;
}

/** Help text of --threads, shared by the commands that open the app. */
export const THREADS_HELP = '--threads N          WASM threads (default: one per core, at most 8; 1 runs the single-threaded build)';
