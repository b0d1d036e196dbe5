/** The command line of `npm run offsite`: parsed without side effects, so it can be tested. */
import type { Scale } from '../../src/offsite/compare';
import { HARMONIZER_LR, loraOfRank, OFFSITE_AGENTS, OFFSITE_DEFAULTS, OFFSITE_PRESETS, type OffsiteAgentName, type OffsiteOptions, type OffsitePreset } from '../../src/offsite/jobTypes';
import { timestampName, type Backend } from './coevo-args';
import { nonNegativeInteger, positiveInteger, readFlags, THREADS_HELP, UsageError } from './flags';

export { UsageError };

export interface OffsiteArgs {
  options: OffsiteOptions;
  /** The folder report.json and report.md go to. */
  out: string;
  backend: Backend;
  backendExplicit: boolean;
  /** --threads: the WASM backend's thread count; undefined = the app's default (one per core). */
  threads?: number;
}

export type ParsedOffsiteArgs = { help: true } | { help: false; args: OffsiteArgs };

const P = OFFSITE_DEFAULTS.planner;
const G = OFFSITE_DEFAULTS.grounder;
const scalesText = (s: readonly Scale[]) => s.map((x) => `${x.alpha}:${x.beta}`).join(' and ');

export const OFFSITE_HELP = `Runs one offsite-tuning comparison (ScaleOT, docs/offsite.md) of a shipped base
model in the real app (headless Chromium) and writes report.json and report.md.

usage: npm run offsite -- --agent planner|grounder [options]

  --agent A            planner or grounder (required)
  --preset NAME        ${OFFSITE_PRESETS.join(' or ')}: whose shipped base is M (default tiny; only tiny ships)
  --seed S             the comparison's seed (harmonizers, masks, batch order), an integer ≥ 0 (default ${P.seed})
  --data-seed S        seed of the private and public sets, an integer ≥ 0 (default ${P.dataSeed})
  --tasks N            private tasks, half of them the test's: planner, cross-site tasks (default ${P.tasks});
                       grounder, tasks per held-out split, cross-site and cross-domain (default ${G.tasks})
  --test-states N      planner only: at most N test states (default ${P.testStates})
  --public N           the model owner's public items for harmonizers and importance
                       (default ${P.publicItems} planner states, ${G.publicItems} grounder examples)
  --replace-steps N    harmonizer and importance steps (default ${P.replaceSteps} planner, ${G.replaceSteps} grounder)
  --tune-steps N       adapter tuning steps, and full fine-tuning's (default ${P.tuneSteps} planner, ${G.tuneSteps} grounder)
  --batch N            batch size of every step (default ${P.batchSize})
  --tune-lr X          tuning learning rate, 0 < X < 1 (default ${P.tuneLr} planner, ${G.tuneLr} grounder)
  --emulator-scale A:B an emulator scale: replace ratio 0 ≤ A < 1 of the middle units, rank ratio
                       0 < B ≤ 1 of the kept attention projections; repeatable (default ${scalesText(P.scales)})
  --lora R             LoRA adapters of rank R (alpha 2R) on every unit the emulator keeps,
                       instead of the end units' weights
  --lora-lr X          LoRA's learning rate, 0 < X < 1 (default ${loraOfRank(1).lr}; needs --lora)
  --tune-table yes|no  the adapters also carry the token table, tuned whole (default no)
  --tune-outside yes|no  the adapters also carry every weight outside the units (the token
                       table, positions, heads; the grounder's screen encoder), tuned whole (default no)
  --whole-lr X         the rate of the weights carried whole, 0 < X < 1 (default: the adapters';
                       needs --tune-table or --tune-outside)
  --mask-group N       middle units per group of the sampled masks (default 2: consecutive pairs;
                       the number of middle units: one group, every score compared with every other)
  --harmonizer-lr X    the harmonizers' learning rate, 0 < X < 1 (default ${HARMONIZER_LR})
  --distill W          harmonizers learn the task loss plus W times a distance to the full
                       model (the planner's hidden states, the grounder's cell distributions;
                       0 ≤ W ≤ 100; default 0: the task loss alone)
  --out DIR            where to write report.json and report.md
                       (default out/offsite/<agent>-<preset>-<UTC timestamp>)
  --backend B          wasm or webgpu (default wasm: on a machine without a GPU it is far faster
                       than software WebGPU)
  ${THREADS_HELP}
  -h, --help           show this help

The defaults are the sizes of the agent's slow test (test/slow/offsite-<agent>.test.ts).
Exit status: 0 done, 1 the comparison or the browser failed, 2 bad arguments.`;

const FLAGS = [
  'agent', 'preset', 'seed', 'data-seed', 'tasks', 'test-states', 'public', 'replace-steps', 'tune-steps', 'batch', 'tune-lr',
  'emulator-scale', 'lora', 'lora-lr', 'tune-table', 'tune-outside', 'whole-lr', 'mask-group', 'harmonizer-lr', 'distill', 'out', 'backend', 'threads',
] as const;

/** A rate for --tune-lr and --lora-lr: a number strictly between 0 and 1. */
function rate(flag: string, raw: string): number {
  const x = /^[0-9.eE+-]+$/.test(raw) ? Number(raw) : NaN;
  if (!(x > 0 && x < 1)) throw new UsageError(`--${flag} must be a number with 0 < X < 1, got "${raw}".`);
  return x;
}

function distillWeight(raw: string): number {
  const x = /^[0-9.eE+-]+$/.test(raw) ? Number(raw) : NaN;
  if (!(x >= 0 && x <= 100)) throw new UsageError(`--distill must be a weight from 0 to 100, got "${raw}".`);
  return x;
}

/** `A:B`, e.g. 0.5:1 (one of the two middle units of tiny replaced, full rank). */
export function parseScale(raw: string): Scale {
  const m = /^([0-9.]+):([0-9.]+)$/.exec(raw);
  const alpha = m ? Number(m[1]) : NaN;
  const beta = m ? Number(m[2]) : NaN;
  if (!m || Number.isNaN(alpha) || Number.isNaN(beta)) throw new UsageError(`--emulator-scale takes ALPHA:BETA (e.g. 0.5:1), got "${raw}".`);
  if (!(alpha >= 0 && alpha < 1)) throw new UsageError(`--emulator-scale ${raw}: the replace ratio ALPHA must be in [0, 1) (at 1 nothing would run between the adapters), got ${alpha}.`);
  if (!(beta > 0 && beta <= 1)) throw new UsageError(`--emulator-scale ${raw}: the rank ratio BETA must be in (0, 1], got ${beta}.`);
  return { alpha, beta };
}

export function parseOffsiteArgs(argv: readonly string[], now: Date = new Date()): ParsedOffsiteArgs {
  if (argv.includes('-h') || argv.includes('--help')) return { help: true };
  const { given, repeated } = readFlags(argv, FLAGS, ['emulator-scale']);
  const agentRaw = given.get('agent');
  if (agentRaw === undefined) throw new UsageError('--agent is required: planner or grounder.');
  if (!(OFFSITE_AGENTS as readonly string[]).includes(agentRaw)) throw new UsageError(`--agent must be planner or grounder, got "${agentRaw}".`);
  const agent = agentRaw as OffsiteAgentName;
  const preset = given.get('preset') ?? 'tiny';
  if (!(OFFSITE_PRESETS as readonly string[]).includes(preset)) throw new UsageError(`--preset must be ${OFFSITE_PRESETS.join(' or ')} (base models ship for those), got "${preset}".`);
  const backendRaw = given.get('backend');
  if (backendRaw !== undefined && backendRaw !== 'webgpu' && backendRaw !== 'wasm') throw new UsageError(`--backend must be webgpu or wasm, got "${backendRaw}".`);
  if (agent === 'grounder' && given.has('test-states')) throw new UsageError('--test-states is for the planner: the grounder\'s test has one item per test task (set --tasks).');
  if (given.has('lora-lr') && !given.has('lora')) throw new UsageError('--lora-lr needs --lora.');

  const d = OFFSITE_DEFAULTS[agent];
  const int = (flag: (typeof FLAGS)[number], fallback: number, read: (f: string, raw: string) => number) => (given.has(flag) ? read(flag, given.get(flag) as string) : fallback);
  const tasks = int('tasks', d.tasks, positiveInteger);
  if (tasks < 2) throw new UsageError('--tasks must be 2 or more: the private tasks are split in two, for tuning and for the test.');
  const batchSize = int('batch', d.batchSize, positiveInteger);
  const publicItems = int('public', d.publicItems, positiveInteger);
  if (publicItems < 2 * batchSize) throw new UsageError(`--public must be at least twice --batch (${2 * batchSize}): one batch scores the masks, the others train the harmonizers; got ${publicItems}.`);
  const scales = (repeated.get('emulator-scale') ?? []).map(parseScale);
  const seen = new Set<string>();
  for (const s of scales) {
    const key = `${s.alpha}:${s.beta}`;
    if (seen.has(key)) throw new UsageError(`--emulator-scale ${key} was given twice.`);
    seen.add(key);
  }
  const yesNo = (flag: (typeof FLAGS)[number]): boolean => {
    const v = given.get(flag);
    if (v !== undefined && v !== 'yes' && v !== 'no') throw new UsageError(`--${flag} must be yes or no, got "${v}".`);
    return v === 'yes';
  };
  const table = yesNo('tune-table');
  const outside = yesNo('tune-outside');
  if (given.has('whole-lr') && !table && !outside) throw new UsageError('--whole-lr is the rate of the weights carried whole: give --tune-table yes or --tune-outside yes too.');
  const loraRank = given.has('lora') ? positiveInteger('lora', given.get('lora') as string) : null;
  const options: OffsiteOptions = {
    agent,
    preset: preset as OffsitePreset,
    seed: int('seed', d.seed, nonNegativeInteger),
    dataSeed: int('data-seed', d.dataSeed, nonNegativeInteger),
    tasks,
    testStates: agent === 'planner' ? int('test-states', d.testStates ?? 0, positiveInteger) : null,
    publicItems,
    replaceSteps: int('replace-steps', d.replaceSteps, positiveInteger),
    tuneSteps: int('tune-steps', d.tuneSteps, positiveInteger),
    batchSize,
    tuneLr: given.has('tune-lr') ? rate('tune-lr', given.get('tune-lr') as string) : d.tuneLr,
    scales: scales.length > 0 ? scales : d.scales.map((s) => ({ ...s })),
    lora: loraRank === null ? null : loraOfRank(loraRank, given.has('lora-lr') ? rate('lora-lr', given.get('lora-lr') as string) : undefined),
    ...(given.has('distill') ? { distill: distillWeight(given.get('distill') as string) } : {}),
    ...(table ? { tuneTable: true } : {}),
    ...(outside ? { tuneOutside: true } : {}),
    ...(given.has('whole-lr') ? { wholeLr: rate('whole-lr', given.get('whole-lr') as string) } : {}),
    ...(given.has('mask-group') ? { maskGroup: positiveInteger('mask-group', given.get('mask-group') as string) } : {}),
    ...(given.has('harmonizer-lr') ? { harmonizerLr: rate('harmonizer-lr', given.get('harmonizer-lr') as string) } : {}),
  };
  return {
    help: false,
    args: {
      options,
      out: given.get('out') ?? `out/offsite/${agent}-${preset}-${timestampName(now)}`,
      backend: (backendRaw as Backend | undefined) ?? 'wasm',
      backendExplicit: backendRaw !== undefined,
      ...(given.has('threads') ? { threads: positiveInteger('threads', given.get('threads') as string) } : {}),
    },
  };
}
