/** The command line of `npm run bench`, and the sizes each preset is measured at. Parsed without side effects, so it can be tested. */
import type { BenchOptions } from '../../src/bench/types';
import type { PresetName } from '../../src/models/presets';
import { timestampName, type Backend } from './coevo-args';
import { nonNegativeInteger, positiveInteger, readFlags, THREADS_HELP, UsageError } from './flags';

export { UsageError };

export interface BenchArgs {
  options: BenchOptions;
  /** Where the JSON goes, as given or the timestamped default. */
  out: string;
  backend: Backend;
  backendExplicit: boolean;
  /** --threads: the WASM backend's thread count; undefined = the app's default (one per core). */
  threads?: number;
  /** --anchor: rounds of the PyTorch anchor interleaved with WASM rounds (null: no anchor). */
  anchorRounds: number | null;
}

export type ParsedBenchArgs = { help: true } | { help: false; args: BenchArgs };

export const BENCH_PRESETS: readonly PresetName[] = ['tiny', 'demo'];

/**
 * The co-evolution config of the 3-iteration memory and phase-time run:
 * each preset's own model sizes with far fewer steps and items, so that the
 * run takes minutes on software WebGPU (tiny) or on a laptop GPU (demo).
 * Every phase still runs, with the shapes of the real run.
 */
export const REDUCED_COEVO: Record<'tiny' | 'demo', readonly string[]> = {
  // One step of each training phase and one item per evaluation split: on software WebGPU every step costs about a minute.
  tiny: [
    'plannerSftSteps=1', 'grounderSftSteps=1', 'plannerGrpoSteps=1', 'grounderTrainSteps=1', 'plannerBatch=4', 'grounderBatch=8',
    'grpoPrompts=1', 'groupSize=2', 'seedTasks=2', 'distillStates=1', 'evalSize=1',
  ],
  demo: ['plannerSftSteps=20', 'grounderSftSteps=20', 'plannerGrpoSteps=3', 'grounderTrainSteps=10', 'seedTasks=24', 'distillStates=24', 'evalSize=4'],
};

const SIZES: Record<'tiny' | 'demo', Omit<BenchOptions, 'preset' | 'seed' | 'coevoSet' | 'iterations' | 'deviceSampling'>> = {
  // The co-evolution tiny preset's grounder batch; planner GRPO with 2 prompts × 4 (the preset's 4 × 7 takes many minutes a step on software WebGPU).
  tiny: { screens: 20, grounderBatch: 8, plannerBatch: 8, grounderSteps: 2, grpoPrompts: 2, groupSize: 4, plannerSteps: 1, matmulReps: 10, kernelReps: 2 },
  demo: { screens: 100, grounderBatch: 16, plannerBatch: 16, grounderSteps: 5, grpoPrompts: 8, groupSize: 7, plannerSteps: 2, matmulReps: 20, kernelReps: 5 },
};

/** WASM and PyTorch rounds each with --anchor: two at least, so that one disturbed round does not decide a ratio. */
export const DEFAULT_ANCHOR_ROUNDS = 2;

export const BENCH_HELP = `Measures training speed and memory in the real app, in headless Chromium with WebGPU, and writes JSON.

usage: npm run bench -- [options]

  --preset NAME        ${BENCH_PRESETS.join(' or ')} (default tiny)
  --out FILE           where to write the JSON (default out/bench/<preset>-<UTC timestamp>.json)
  --seed S             seed of every draw, an integer ≥ 0 (default 1)
  --iterations K       co-evolution iterations for phase times and memory (default 3; 0 skips them)
  --backend B          webgpu or wasm (default webgpu; with --backend webgpu a missing adapter is an error)
  --steps N            timed steps of each training step measured (default ${SIZES.tiny.grounderSteps} grounder
                       and ${SIZES.tiny.plannerSteps} planner for tiny, ${SIZES.demo.grounderSteps} and ${SIZES.demo.plannerSteps} for demo)
  ${THREADS_HELP}
  --set KEY=VALUE      override a field of the reduced co-evolution config (repeatable)
  --kernel-reps N      replays of each distinct kernel of the two steps, for the time-per-kernel
                       table (default ${SIZES.tiny.kernelReps} for tiny, ${SIZES.demo.kernelReps} for demo; 0 skips it)
  --anchor             also time the same steps mirrored in PyTorch on CPU (bench/anchor/), at the
                       WASM run's thread count, interleaved with WASM rounds; print WASM / PyTorch
                       ratios; fail if the mirror's FLOPs differ from the project's by over 10%.
                       Implies --backend wasm; installs Debian's python3-torch if no python3 has torch
  --anchor-rounds N    rounds of each side with --anchor (default ${DEFAULT_ANCHOR_ROUNDS}, at least 2)
  --device-sampling    planner GRPO samples on the device: each round of tokens read back once,
                       not each token (the JSON's planner.decode_read_backs_per_batch says how many)
  -h, --help           show this help

The 3-iteration run uses the preset's model sizes with reduced step counts
(listed in the JSON under iteration.config.set). Exit status: 0 measured,
1 the benchmark or the browser failed, 2 bad arguments.`;

const FLAGS = ['preset', 'out', 'seed', 'iterations', 'backend', 'set', 'kernel-reps', 'threads', 'steps', 'anchor-rounds'] as const;

/** Later `--set`s of a key replace the reduced config's value for it. */
export function mergeSets(base: readonly string[], extra: readonly string[]): string[] {
  const key = (s: string) => s.slice(0, s.indexOf('='));
  const overridden = new Set(extra.map(key));
  return [...base.filter((s) => !overridden.has(key(s))), ...extra];
}

export function parseBenchArgs(argv: readonly string[], now: Date = new Date()): ParsedBenchArgs {
  if (argv.includes('-h') || argv.includes('--help')) return { help: true };
  // --anchor and --device-sampling are switches, the flags without a value.
  const anchor = argv.includes('--anchor');
  const deviceSampling = argv.includes('--device-sampling');
  const { given, repeated } = readFlags(argv.filter((a) => a !== '--anchor' && a !== '--device-sampling'), FLAGS, ['set']);
  const set = repeated.get('set') ?? [];
  for (const value of set) {
    if (!/^[A-Za-z_][\w.-]*=.+$/.test(value)) throw new UsageError(`--set takes KEY=VALUE (e.g. --set evalSize=2), got "${value}".`);
  }
  const preset = given.get('preset') ?? 'tiny';
  if (preset !== 'tiny' && preset !== 'demo') throw new UsageError(`--preset must be one of ${BENCH_PRESETS.join(', ')}, got "${preset}".`);
  const backend = given.get('backend');
  if (backend !== undefined && backend !== 'webgpu' && backend !== 'wasm') throw new UsageError(`--backend must be webgpu or wasm, got "${backend}".`);
  if (anchor && backend === 'webgpu') throw new UsageError('--anchor compares the WASM backend with PyTorch on CPU; drop --backend webgpu.');
  if (!anchor && given.has('anchor-rounds')) throw new UsageError('--anchor-rounds needs --anchor.');
  // The mirror decodes one token per step; rounds on the device redo the steps after a correction.
  if (anchor && deviceSampling) throw new UsageError('--anchor times host sampling, one decoding step per token, as its PyTorch mirror does; drop --device-sampling.');
  const anchorRounds = anchor ? (given.has('anchor-rounds') ? positiveInteger('anchor-rounds', given.get('anchor-rounds') as string) : DEFAULT_ANCHOR_ROUNDS) : null;
  if (anchorRounds !== null && anchorRounds < 2) throw new UsageError('--anchor-rounds must be 2 or more: rounds of each side alternate.');
  const seed = given.has('seed') ? nonNegativeInteger('seed', given.get('seed') as string) : 1;
  const iterations = given.has('iterations') ? nonNegativeInteger('iterations', given.get('iterations') as string) : 3;
  const threads = given.has('threads') ? positiveInteger('threads', given.get('threads') as string) : undefined;
  const sizes = { ...SIZES[preset] };
  if (given.has('steps')) sizes.grounderSteps = sizes.plannerSteps = positiveInteger('steps', given.get('steps') as string);
  if (given.has('kernel-reps')) sizes.kernelReps = nonNegativeInteger('kernel-reps', given.get('kernel-reps') as string);
  return {
    help: false,
    args: {
      options: { preset, seed, iterations, coevoSet: mergeSets(REDUCED_COEVO[preset], set), deviceSampling, ...sizes },
      out: given.get('out') ?? `out/bench/${preset}-${timestampName(now)}.json`,
      backend: backend ?? (anchor ? 'wasm' : 'webgpu'),
      backendExplicit: backend !== undefined || anchor,
      threads,
      anchorRounds,
    },
  };
}
