/** The command line of `npm run pretrain`: parsed without side effects, so it can be tested. */
import type { Backend } from './coevo-args';
import { nonNegativeInteger, readFlags, UsageError } from './flags';
import { parseStyleWeights, type StyleWeights } from '../../src/pretrain/styleWeights';

export type BaseModelName = 'grounder' | 'planner';
export const BASE_MODELS: readonly BaseModelName[] = ['grounder', 'planner'];

export interface PretrainArgs {
  preset: 'tiny' | 'demo';
  seed: number;
  out: string;
  backend: Backend;
  backendExplicit: boolean;
  /** Which base models to train (both by default). */
  models: BaseModelName[];
  /** Scale every stage's step count (1 = the recipe; smaller for a quick look). */
  scale: number;
  /** A folder of base models to measure as they are instead of training them, or null. */
  measure: string | null;
  /** A folder whose base model (--only) the run tunes (PLANNER_TUNE_RECIPES, GROUNDER_TUNE) instead of training one from the seed, or null. */
  tune: string | null;
  /** With --tune: the smaller preset whose model in that folder is grown into --preset's shape first (pretrain/grownStart.ts), or null. */
  growFrom: 'tiny' | null;
  /** With --grow-from: train only the blocks growth adds (`--train added`), leaving the grown copies of the smaller model as they are. */
  trainAdded: boolean;
  /** Folders whose base models (--only) are averaged into one and measured (a uniform soup), or null. */
  soup: string[] | null;
  /** A folder whose checkpoints (<preset>-<model>.resume.safetensors) the run continues from, or null. */
  resume: string | null;
  /** Training steps between two checkpoints for every model, or null for each model's own (CHECKPOINT_EVERY); 0: none. */
  checkpointEvery: number | null;
  /** Share of the grounder's pretraining examples from real-DOM training pages, 0 ≤ x ≤ 1 (0: the world's screens only). */
  realShare: number;
  /** With --only grounder --tune: how often the tune draws each referring style, relative (absent styles 1), or null (all alike). */
  tuneStyles: StyleWeights | null;
}

/** --measure and --soup measure weights made earlier: no training, so no checkpoints. */
export function trainsNothing(args: PretrainArgs): boolean {
  return args.measure !== null || args.soup !== null;
}

export type ParsedPretrainArgs = { help: true } | { help: false; args: PretrainArgs };

export const PRETRAIN_HELP = `Pretrains the base grounder and base planner in the real app (headless Chromium)
and writes them where the app loads them from.

usage: npm run pretrain -- [options]

  --preset NAME     tiny or demo (default tiny)
  --seed S          seed, an integer ≥ 0 (default 1); the same seed and backend give the same files
  --out DIR         where to write <preset>-grounder.safetensors, <preset>-planner.safetensors and
                    <preset>-base.json (default public/base)
  --backend B       webgpu or wasm (default wasm: on a machine without a GPU it is far faster
                    than software WebGPU)
  --only MODEL      grounder or planner (default: both)
  --scale F         multiply every stage's steps by F, 0 < F ≤ 4 (default 1; e.g. 0.05 for a smoke run)
  --measure DIR     train nothing: measure the base models already in DIR with the recipes'
                    held-out probes (after a change to how the app uses their weights) and write
                    them with the new figures to --out; the manifest keeps which run trained them
  --tune DIR        with --only MODEL: start from that base model in DIR instead of fresh weights
                    and run its tuning recipe (steps times --scale; resumable like any run). The
                    planner: SFT only, adding the preset's copy gate if it has none. The grounder:
                    600 steps on whole screens at 5e-4 (a sixth of its pretraining rate), with
                    --real-share if given
  --grow-from tiny  with --preset demo --only MODEL --tune DIR: start from DIR's tiny model,
                    grown to demo's shape with the same function (twice as wide, one block deeper,
                    the copies of each unit unequal so training can tell them apart), then run the
                    demo tuning recipe
  --train WHAT      with --grow-from: all (default) trains every weight of the grown model; added
                    trains only the block growth adds, so the tiny model's function stays inside
                    it unchanged and the tune can only add to it
  --soup DIR,DIR[,DIR…]
                    with --only MODEL: train nothing; average that base model's weights over the
                    folders (a uniform soup of models tuned from one start, e.g. --tune runs with
                    different --seed) and measure the mean like --measure; the manifest names the
                    models it averaged
  --checkpoint-every N
                    every N training steps, keep a checkpoint to resume from in --out as
                    <preset>-<model>.resume.safetensors (weights, Adam state, steps done), replaced
                    atomically; removed once the run has written its models (default: every 25
                    grounder steps and every 50 planner steps; 0: none)
  --real-share X    mix real-DOM fixture pages (HTML/CSS laid out and drawn by the browser; training
                    seeds only, never the held-out suite) into the grounder's pretraining: a share X
                    of its examples, 0 ≤ X ≤ 1 (default 0: the world's screens only); the manifest
                    records the examples per source
  --tune-styles S=W[,S=W…]
                    with --only grounder --tune DIR: draw the tune's referring styles by these
                    relative weights (styles text, icon, position, relation, color, function; those
                    not named weigh 1; 0 < W ≤ 10), e.g. text=2,icon=1.5,color=1.5 as the tiny
                    grounder's reading stages drew them (default: all alike)
  --resume DIR      continue an interrupted run from its checkpoints in DIR (--out defaults to DIR):
                    with the same --preset, --seed, --scale, --backend and recipe it writes the same
                    safetensors files, byte for byte, as a run that was never interrupted; another
                    run's checkpoint is refused, and a model with no checkpoint in DIR starts afresh
  -h, --help        show this help

Exit status: 0 done, 1 training or the browser failed, 2 bad arguments.`;

const FLAGS = ['preset', 'seed', 'out', 'backend', 'only', 'scale', 'measure', 'tune', 'soup', 'resume', 'checkpoint-every', 'real-share', 'grow-from', 'tune-styles', 'train'] as const;

export function parsePretrainArgs(argv: readonly string[]): ParsedPretrainArgs {
  if (argv.includes('-h') || argv.includes('--help')) return { help: true };
  const { given } = readFlags(argv, FLAGS);
  const preset = given.get('preset') ?? 'tiny';
  if (preset !== 'tiny' && preset !== 'demo') throw new UsageError(`--preset must be tiny or demo (base models ship for those), got "${preset}".`);
  const seed = nonNegativeInteger('seed', given.get('seed') ?? '1');
  const backendRaw = given.get('backend');
  if (backendRaw !== undefined && backendRaw !== 'webgpu' && backendRaw !== 'wasm') throw new UsageError(`--backend must be webgpu or wasm, got "${backendRaw}".`);
  const only = given.get('only');
  if (only !== undefined && !(BASE_MODELS as readonly string[]).includes(only)) throw new UsageError(`--only must be grounder or planner, got "${only}".`);
  const scaleRaw = given.get('scale') ?? '1';
  const scale = Number(scaleRaw);
  if (!(scale > 0 && scale <= 4)) throw new UsageError(`--scale must be a number with 0 < F ≤ 4, got "${scaleRaw}".`);
  const measure = given.get('measure') ?? null;
  const resume = given.get('resume') ?? null;
  if (measure !== null && resume !== null) throw new UsageError('--measure trains nothing, so there is nothing to --resume; give one of them.');
  const tune = given.get('tune') ?? null;
  if (tune !== null && only === undefined) throw new UsageError('--tune continues one base model; give --only planner or --only grounder with it.');
  if (tune !== null && measure !== null) throw new UsageError('--measure trains nothing, so there is nothing to --tune; give one of them.');
  const growRaw = given.get('grow-from');
  if (growRaw !== undefined) {
    if (growRaw !== 'tiny') throw new UsageError(`--grow-from must be tiny (the only preset smaller than another), got "${growRaw}".`);
    if (preset !== 'demo') throw new UsageError('--grow-from tiny grows a tiny base model into a bigger preset; give --preset demo with it.');
    if (tune === null || only === undefined) throw new UsageError('--grow-from grows the model it tunes; give --only planner or --only grounder and --tune DIR (the folder of the tiny one) with it.');
  }
  const trainRaw = given.get('train') ?? 'all';
  if (trainRaw !== 'all' && trainRaw !== 'added') throw new UsageError(`--train must be all or added, got "${trainRaw}".`);
  if (trainRaw === 'added' && growRaw === undefined) throw new UsageError('--train added trains the blocks growth adds; give --grow-from tiny (and --tune DIR) with it.');
  const soupRaw = given.get('soup');
  const soup = soupRaw === undefined ? null : soupRaw.split(',').map((d) => d.trim());
  if (soup !== null) {
    if (only === undefined) throw new UsageError('--soup averages one base model; give --only planner or --only grounder with it.');
    if (soup.length < 2 || soup.some((d) => d === '')) throw new UsageError(`--soup needs two or more folders separated by commas, got "${soupRaw}".`);
    const other = [measure !== null && '--measure', tune !== null && '--tune', resume !== null && '--resume'].find(Boolean);
    if (other) throw new UsageError(`--soup measures an average and trains nothing, so it does not go with ${other}; give one of them.`);
  }
  const everyRaw = given.get('checkpoint-every');
  const shareRaw = given.get('real-share') ?? '0';
  const realShare = shareRaw.trim() === '' ? NaN : Number(shareRaw);
  if (!(realShare >= 0 && realShare <= 1)) throw new UsageError(`--real-share must be a number with 0 ≤ X ≤ 1 (the share of the grounder's examples from real-DOM pages), got "${shareRaw}".`);
  if (realShare > 0 && only === 'planner') throw new UsageError('--real-share mixes real pages into the grounder\'s pretraining; --only planner does not train it.');
  if (realShare > 0 && (measure !== null || soup !== null)) throw new UsageError(`${soup !== null ? '--soup' : '--measure'} trains nothing, so there is nothing to mix --real-share into; give one of them.`);
  const stylesRaw = given.get('tune-styles');
  let tuneStyles: StyleWeights | null = null;
  if (stylesRaw !== undefined) {
    if (only !== 'grounder' || tune === null) throw new UsageError('--tune-styles weighs the styles of a grounder tune; give --only grounder and --tune DIR with it.');
    try {
      tuneStyles = parseStyleWeights(stylesRaw);
    } catch (e) {
      throw new UsageError(`--tune-styles ${e instanceof Error ? e.message : String(e)} (got "${stylesRaw}").`);
    }
  }
  return {
    help: false,
    args: {
      preset,
      seed,
      out: given.get('out') ?? resume ?? 'public/base',
      backend: (backendRaw as Backend | undefined) ?? 'wasm',
      backendExplicit: backendRaw !== undefined,
      models: only ? [only as BaseModelName] : [...BASE_MODELS],
      scale,
      measure,
      tune,
      growFrom: growRaw === undefined ? null : 'tiny',
      trainAdded: trainRaw === 'added',
      soup,
      resume,
      checkpointEvery: everyRaw === undefined ? null : nonNegativeInteger('checkpoint-every', everyRaw),
      realShare,
      tuneStyles,
    },
  };
}
