/** The command line of `npm run coevo`: parsed without side effects, so it can be tested. */
import { nonNegativeInteger, positiveInteger, readFlags, THREADS_HELP, UsageError } from './flags';
import { ABLATION_NAMES, ABLATIONS, ablationProblem, isAblationName, type AblationName } from '../../src/coevo/ablations';
import type { PresetName } from '../../src/models/presets';

export type Backend = 'webgpu' | 'wasm';

export interface CoevoArgs {
  preset: string;
  iterations: number;
  seed: number;
  /** Output directory, as given (relative to the working directory) or the timestamped default. */
  out: string;
  backend: Backend;
  /** Whether --backend was given: then a run on another backend is an error, not a warning. */
  backendExplicit: boolean;
  /** --threads: the WASM backend's thread count (results do not depend on it); undefined = the app's default. */
  threads?: number;
  /** `key=value` overrides, in the order given; the app checks keys and values. */
  set: string[];
  /** A browser profile directory kept between invocations, so that the same command resumes an unfinished run. */
  profile?: string;
  /** --seeds: a seed study, one run per seed in this order (coevo-study.ts); `seed` is then the first. */
  seeds?: number[];
  /** --vs: overrides of a comparison config run on the same seeds; a study even with one seed. */
  vs?: string[];
  /** --ablation: the named ablation whose overrides make `vs` (src/coevo/ablations.ts). */
  ablation?: AblationName;
}

export type ParsedCoevoArgs = { help: true } | { help: false; args: CoevoArgs };

export { UsageError };

/** The presets of the co-evolution config; the app is the final judge, this only catches typos before a build and a browser start. */
export const PRESETS = ['tiny', 'demo', 'full'] as const;
const BACKENDS: readonly Backend[] = ['webgpu', 'wasm'];

export const COEVO_HELP = `Runs the co-evolution loop headless, in the real app in headless Chromium, and writes a report.

usage: npm run coevo -- [options]

  --preset NAME        model and world size: ${PRESETS.join(', ')} (default tiny)
  --iterations K       co-evolution iterations after the seed SFT, an integer ≥ 0 (default 3)
  --seed S             seed of the run, an integer ≥ 0 (default 1)
  --out DIR            where to write report.json, report.md and charts/
                       (default out/coevo/<UTC timestamp>)
  --backend B          webgpu or wasm (default: the app's choice, as in the browser: webgpu on
                       a hardware adapter, wasm on a software one (SwiftShader) or without
                       WebGPU; with --backend webgpu a missing adapter is an error)
  ${THREADS_HELP}
  --set KEY=VALUE      override one config field (repeatable), e.g. --set coevo=false
  --profile DIR        keep the browser's storage in DIR (created if missing). Rerunning the
                       same command with the same DIR after an interruption (Ctrl-C, a crash,
                       a closed laptop) resumes the run from its last finished phase; without
                       it every start uses a fresh profile and an interrupted run is lost
  --seeds S1,S2,...    a seed study instead of one --seed: the seeds run one after another,
                       each into DIR/A/seed-S/, then DIR/study.json and DIR/study.md give per
                       iteration the mean over seeds with a 95% t-interval (none for one seed)
                       and a verdict. A seed whose report.json is already there with the same
                       options is not run again; with --profile P each seed has its own
                       profile P/A/seed-S, so an interrupted seed resumes where it stopped
  --vs KEY=VALUE       with it, also run a comparison config on the same seeds into
                       DIR/B/seed-S/: the options above plus this override (repeatable: all
                       of them make one config, e.g. --vs coevo=false). The study adds the
                       paired differences A − B per seed with a 95% t-interval
  --ablation NAME      the full loop (A) against one of its ablations (B), as with --vs:
${ABLATION_NAMES.map((n) => `                         ${n.padEnd(20)} ${ABLATIONS[n].overrides.join(' ')}`).join('\n')}
  -h, --help           show this help

The app is built first when dist/ is older than the sources. Progress is one
updating line on a terminal and a line every few seconds otherwise.
Exit status: 0 done, 1 the run or the browser failed, 2 bad arguments or a config the app refused.`;

const VALUE_FLAGS = ['preset', 'iterations', 'seed', 'seeds', 'out', 'backend', 'set', 'vs', 'profile', 'threads', 'ablation'] as const;

/** `2024-05-01T12-30-05`: sortable and safe in a file name. */
export function timestampName(now: Date): string {
  return now.toISOString().slice(0, 19).replace(/:/g, '-');
}

/**
 * Parses the arguments after `--`. Accepts `--flag value` and `--flag=value`.
 * Throws UsageError on an unknown flag, a missing or bad value, a flag given
 * twice (other than --set), or a stray positional argument.
 */
export function parseCoevoArgs(argv: readonly string[], now: Date = new Date()): ParsedCoevoArgs {
  if (argv.includes('-h') || argv.includes('--help')) return { help: true };
  const { given, repeated } = readFlags(argv, VALUE_FLAGS, ['set', 'vs']);
  const set = overrides('set', repeated.get('set') ?? []);
  const vs = overrides('vs', repeated.get('vs') ?? []);
  if (given.has('seed') && given.has('seeds')) throw new UsageError('give either --seed or --seeds, not both.');
  const seeds = given.has('seeds') ? seedList(given.get('seeds')!) : undefined;

  const preset = given.get('preset') ?? 'tiny';
  if (!(PRESETS as readonly string[]).includes(preset)) throw new UsageError(`--preset must be one of ${PRESETS.join(', ')}, got "${preset}".`);
  const ablation = given.has('ablation') ? ablationOf(given.get('ablation')!, preset as PresetName, set, vs) : undefined;
  const backendRaw = given.get('backend');
  if (backendRaw !== undefined && !(BACKENDS as readonly string[]).includes(backendRaw)) throw new UsageError(`--backend must be webgpu or wasm, got "${backendRaw}".`);
  return {
    help: false,
    args: {
      preset,
      iterations: given.has('iterations') ? nonNegativeInteger('iterations', given.get('iterations')!) : 3,
      seed: seeds ? seeds[0] : given.has('seed') ? nonNegativeInteger('seed', given.get('seed')!) : 1,
      out: given.get('out') ?? `out/coevo/${timestampName(now)}`,
      backend: (backendRaw as Backend | undefined) ?? 'webgpu',
      backendExplicit: backendRaw !== undefined,
      ...(given.has('threads') ? { threads: positiveInteger('threads', given.get('threads')!) } : {}),
      set,
      ...(given.has('profile') ? { profile: given.get('profile')! } : {}),
      ...(seeds ? { seeds } : {}),
      ...(ablation ? { vs: [...ABLATIONS[ablation].overrides], ablation } : vs.length ? { vs } : {}),
    },
  };
}

/** The --ablation name, checked against the other options. */
function ablationOf(name: string, preset: PresetName, set: readonly string[], vs: readonly string[]): AblationName {
  if (!isAblationName(name)) throw new UsageError(`--ablation must be one of ${ABLATION_NAMES.join(', ')}, got "${name}".`);
  if (vs.length > 0) throw new UsageError('give either --ablation or --vs, not both: the ablation is the comparison config.');
  let problem: string | null;
  try {
    problem = ablationProblem(name, preset, set);
  } catch (e) {
    throw new UsageError(e instanceof Error ? e.message : String(e));
  }
  if (problem) throw new UsageError(`--ablation ${name}: ${problem}.`);
  return name;
}

/** KEY=VALUE overrides of --set or --vs, each key once. */
function overrides(flag: 'set' | 'vs', values: readonly string[]): string[] {
  const keys = new Set<string>();
  for (const value of values) {
    const m = /^([A-Za-z_][\w.-]*)=(.+)$/.exec(value);
    if (!m) throw new UsageError(`--${flag} takes KEY=VALUE (e.g. --${flag} coevo=false), got "${value}".`);
    if (keys.has(m[1])) throw new UsageError(`--${flag} ${m[1]} was given twice.`);
    keys.add(m[1]);
  }
  return [...values];
}

/** `1,2,3`: distinct integers ≥ 0, in the order given. */
function seedList(raw: string): number[] {
  const parts = raw.split(',').map((p) => p.trim());
  const seeds = parts.map((p) => {
    if (!/^\d+$/.test(p) || !Number.isSafeInteger(Number(p))) throw new UsageError(`--seeds takes integers ≥ 0 separated by commas (e.g. --seeds 1,2,3), got "${raw}".`);
    return Number(p);
  });
  const twice = seeds.find((s, i) => seeds.indexOf(s) !== i);
  if (twice !== undefined) throw new UsageError(`--seeds lists seed ${twice} twice.`);
  return seeds;
}
