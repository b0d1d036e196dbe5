/**
 * The shapes of one offsite comparison run in the app (`npm run offsite`):
 * what the command asks the worker for, the progress it polls, and each
 * agent's default sizes. Types and plain data only, so that the page and the
 * Node script import them without tfjs.
 */
import type { Scale } from './compare';

export type OffsiteAgentName = 'planner' | 'grounder';
export const OFFSITE_AGENTS: readonly OffsiteAgentName[] = ['planner', 'grounder'];

/** Presets a base model may ship for; the shipped loader says so when one does not (only tiny ships today). */
export type OffsitePreset = 'tiny' | 'demo';
export const OFFSITE_PRESETS: readonly OffsitePreset[] = ['tiny', 'demo'];

export interface OffsiteLora {
  rank: number;
  /** The delta is (alpha / rank)·A·B. */
  alpha: number;
  lr: number;
}

export interface OffsiteOptions {
  agent: OffsiteAgentName;
  preset: OffsitePreset;
  /** The comparison's seed: harmonizers, masks, batch order. */
  seed: number;
  /** The seed of the private and public sets (77 in every measured run of docs/offsite.md). */
  dataSeed: number;
  /** Private tasks: planner, cross-site tasks in all; grounder, tasks per held-out split (cross-site and cross-domain). Half are the test's. */
  tasks: number;
  /** Planner only: at most this many test states (null: all of the test tasks'). The grounder's test has one item per test task. */
  testStates: number | null;
  /** The model owner's public items for harmonizers and importance (planner states, grounder examples). */
  publicItems: number;
  replaceSteps: number;
  tuneSteps: number;
  batchSize: number;
  /** Adapter tuning and full fine-tuning learning rate (without LoRA). */
  tuneLr: number;
  scales: Scale[];
  /** LoRA adapters on every unit the emulator keeps instead of the end units' weights, or null. */
  lora: OffsiteLora | null;
  /** The adapters also carry the agent's token table, tuned whole (absent: false). */
  tuneTable?: boolean;
  /** The adapters also carry every weight outside the units, the token table among them, tuned whole (absent: false). */
  tuneOutside?: boolean;
  /** The rate of the weights carried whole (absent: the adapters' own). */
  wholeLr?: number;
  /** Weight of distillation to the full model in the harmonizers' loss (absent: 0, the task loss alone). */
  distill?: number;
  /** The harmonizers' Adam learning rate (absent: DEFAULT_OFFSITE's). */
  harmonizerLr?: number;
  /** Middle units per mask group of Dynamic LayerReplace (absent: 2). */
  maskGroup?: number;
  /** Grounder only: tune and test on the person's marked screenshots (sent with the run) instead of held-out web tasks (absent: those). */
  privateSet?: 'held-out' | 'own-screenshots';
}

/**
 * Each agent's sizes: those of its slow test's default run
 * (test/slow/offsite-*.test.ts), whose figures docs/offsite.md records.
 */
export const OFFSITE_DEFAULTS: Record<OffsiteAgentName, Omit<OffsiteOptions, 'agent' | 'preset' | 'lora'>> = {
  planner: {
    seed: 1, dataSeed: 77, tasks: 40, testStates: 48, publicItems: 300, replaceSteps: 24, tuneSteps: 30, batchSize: 8, tuneLr: 1e-3,
    scales: [{ alpha: 0.5, beta: 1 }, { alpha: 0, beta: 0.25 }],
  },
  // The grounder's own SFT rate: the planner's 1e-3 barely moves it in 30 steps.
  grounder: {
    seed: 1, dataSeed: 77, tasks: 30, testStates: null, publicItems: 200, replaceSteps: 16, tuneSteps: 24, batchSize: 8, tuneLr: 3e-3,
    scales: [{ alpha: 0.5, beta: 1 }, { alpha: 0, beta: 0.25 }],
  },
};

/** The harmonizers' learning rate unless a run sets its own (DEFAULT_OFFSITE's). */
export const HARMONIZER_LR = 3e-3;

/** LoRA of rank r as the slow tests run it (OFFSITE_LORA=r): alpha 2r, its own learning rate. */
export const loraOfRank = (rank: number, lr = 5e-3): OffsiteLora => ({ rank, alpha: 2 * rank, lr });

/** Fails with the field named on a value the comparison cannot run (the worker's own check; the command refuses them earlier with flag names). */
export function checkOffsiteOptions(o: OffsiteOptions): void {
  if (!OFFSITE_AGENTS.includes(o.agent)) throw new Error(`agent must be planner or grounder; got ${JSON.stringify(o.agent)}.`);
  if (!OFFSITE_PRESETS.includes(o.preset)) throw new Error(`preset must be tiny or demo; got ${JSON.stringify(o.preset)}.`);
  const whole = (name: string, v: number, min: number) => {
    if (!Number.isSafeInteger(v) || v < min) throw new Error(`${name} must be an integer ≥ ${min}; got ${v}.`);
  };
  whole('seed', o.seed, 0);
  whole('dataSeed', o.dataSeed, 0);
  // Two tasks at least, so that the split by task leaves one on each side.
  whole('tasks', o.tasks, 2);
  if (o.testStates !== null) whole('testStates', o.testStates, 1);
  // The validation batch that scores masks comes out of the public items, and the harmonizers need a batch beside it.
  whole('batchSize', o.batchSize, 1);
  whole('publicItems', o.publicItems, 2 * o.batchSize);
  whole('replaceSteps', o.replaceSteps, 1);
  whole('tuneSteps', o.tuneSteps, 1);
  if (!(o.tuneLr > 0 && o.tuneLr < 1)) throw new Error(`tuneLr must be in (0, 1); got ${o.tuneLr}.`);
  if (o.scales.length === 0) throw new Error('scales must hold at least one (alpha, beta).');
  for (const s of o.scales) {
    if (!(s.alpha >= 0 && s.alpha < 1)) throw new Error(`a scale's alpha (replace ratio) must be in [0, 1); got ${s.alpha}.`);
    if (!(s.beta > 0 && s.beta <= 1)) throw new Error(`a scale's beta (rank ratio) must be in (0, 1]; got ${s.beta}.`);
  }
  if (new Set(o.scales.map((s) => `${s.alpha}/${s.beta}`)).size !== o.scales.length) throw new Error('scales must differ: the rows of one scale are found by its (alpha, beta).');
  if (o.privateSet !== undefined && o.privateSet !== 'held-out' && o.privateSet !== 'own-screenshots') throw new Error(`privateSet must be held-out or own-screenshots; got ${JSON.stringify(o.privateSet)}.`);
  if (o.privateSet === 'own-screenshots' && o.agent !== 'grounder') throw new Error('privateSet own-screenshots is for the grounder: a screenshot with a marked target is a grounding example, not a planner state.');
  if (o.maskGroup !== undefined) whole('maskGroup', o.maskGroup, 1);
  if (o.tuneTable !== undefined && typeof o.tuneTable !== 'boolean') throw new Error(`tuneTable must be true or false; got ${JSON.stringify(o.tuneTable)}.`);
  if (o.tuneOutside !== undefined && typeof o.tuneOutside !== 'boolean') throw new Error(`tuneOutside must be true or false; got ${JSON.stringify(o.tuneOutside)}.`);
  if (o.wholeLr !== undefined) {
    if (!(o.wholeLr > 0 && o.wholeLr < 1)) throw new Error(`wholeLr must be in (0, 1); got ${o.wholeLr}.`);
    if (!o.tuneTable && !o.tuneOutside) throw new Error('wholeLr is the rate of weights carried whole: ask for tuneTable or tuneOutside too.');
  }
  if (o.harmonizerLr !== undefined && !(o.harmonizerLr > 0 && o.harmonizerLr < 1)) throw new Error(`harmonizerLr must be in (0, 1); got ${o.harmonizerLr}.`);
  if (o.distill !== undefined && !(o.distill >= 0 && o.distill <= 100)) throw new Error(`distill must be a weight from 0 to 100; got ${o.distill}.`);
  if (o.lora) {
    whole('lora.rank', o.lora.rank, 1);
    if (!(o.lora.alpha > 0)) throw new Error(`lora.alpha must be > 0; got ${o.lora.alpha}.`);
    if (!(o.lora.lr > 0 && o.lora.lr < 1)) throw new Error(`lora.lr must be in (0, 1); got ${o.lora.lr}.`);
  }
}

/** Where a running comparison is, for the command's progress line. */
export interface OffsiteProgress {
  state: 'idle' | 'running' | 'done' | 'failed';
  /** The phase running: a training phase ("full fine-tuning", "α 0.5 β 1: tune on the ScaleOT emulator") or an evaluation. */
  phase: string;
  /** Steps of this phase done and in all (0 and 0 for an evaluation, which counts no steps). */
  step: number;
  steps: number;
  /** Training steps of the whole comparison done and in all: the overall bar. */
  done: number;
  total: number;
  /** Time left for the whole comparison, from its pace so far (evaluations included); null before the first step. */
  etaMs: number | null;
  elapsedMs: number;
  /** Every phase that has ended, in order, with the run's elapsed time at its end: polls can miss a short phase, this cannot. */
  finished: { phase: string; atMs: number }[];
  error?: string;
}

export const IDLE_OFFSITE: OffsiteProgress = { state: 'idle', phase: '', step: 0, steps: 0, done: 0, total: 0, etaMs: null, elapsedMs: 0, finished: [] };
