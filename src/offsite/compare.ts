/**
 * The comparison ScaleOT reports, for the planner and one emulator scale
 * (α, β), on the data owner's private test states:
 * - zero-shot: the full model M as it is;
 * - emulator fine-tuning: adapters tuned on E, evaluated on E (what the data
 *   owner could get without M: the privacy side, should stay clearly lower);
 * - plug-in: the same adapters in M (the utility side);
 * - full fine-tuning: every weight of M tuned on the same data and steps
 *   (the upper bound);
 * - Offsite-Tuning: uniform layer drop at the same α and β, untrained
 *   identity harmonizers (the unit simply dropped), its plug-in and emulator
 *   fine-tuning (skipped at α = 0, where it is the same emulator).
 * Each row: greedy, grammar-constrained exact match (action type and
 * target) with its Wilson 95% interval, and the mean completion loss on the
 * same states (finer-grained than a rate on a few dozen states).
 */
import * as tf from '../models/tf';
import type { Params } from '../models/params';
import type { PlannerConfig } from '../models/planner';
import { HARMONIZER_LR } from './jobTypes';
import { plannerDistillLoss } from './distill';
import { plannerTensors, type PlannerBatch } from '../models/plannerData';
import type { Tokenizer } from '../text/tokenizer';
import { evalPlanner } from '../learn/evalPlanner';
import { plannerSftLoss } from '../learn/plannerSft';
import { plannerSftBatch, type PlannerState } from '../learn/plannerStates';
import type { Interval } from '../learn/stats';
import type { Emulator } from './emulator';
import type { AdapterKind } from './adapters';
import { runComparison, type OffsiteAgent } from './comparison';

export type RowName = 'zero-shot' | 'emulator fine-tuning' | 'plug-in' | 'full fine-tuning' | 'offsite-tuning emulator fine-tuning' | 'offsite-tuning plug-in';

export interface OffsiteRow {
  name: RowName;
  /** The emulator's (α, β); absent for zero-shot and full fine-tuning, which need none. */
  scale?: Scale;
  n: number;
  /** States whose greedy instruction had the right action type and target (grounder, compareGrounder.ts: items whose greedy point fell in the box). */
  k: number;
  /** k / n: exact match for the planner, click-in-box accuracy for the grounder. */
  exact: number;
  interval: Interval;
  /** Mean completion cross-entropy per token (nats) on the same states; the grounder SFT loss (cell + offset) for the grounder. */
  loss: number;
  /** Whether each test item was a hit, in test order: every row is measured on the same items, so two rows pair up (absent in reports before 7 Dec). */
  hit?: boolean[];
}

/** An emulator scale: replace ratio α of the middle units, rank ratio β of the kept attention projections. */
export interface Scale {
  alpha: number;
  beta: number;
}

export interface OffsiteSettings {
  scales: Scale[];
  /** Harmonizer + importance steps (the owner's side). */
  replaceSteps: number;
  /** Adapter tuning steps, and full fine-tuning's. */
  tuneSteps: number;
  batchSize: number;
  harmonizerLr: number;
  tuneLr: number;
  scoreLr: number;
  rlEvery: number;
  candidates: number;
  seed: number;
  /** LoRA adapters (rank, scale, their own learning rate) on every unit E keeps, instead of the end units' weights. */
  lora?: { rank: number; alpha: number; lr: number };
  /** Middle units per mask group while harmonizers and scores learn (absent: 2, consecutive pairs). */
  maskGroup?: number;
  /** The adapters carry the token table too, tuned whole. */
  tuneTable?: boolean;
  /** The adapters carry every weight outside the units (the token table among them), tuned whole. */
  tuneOutside?: boolean;
  /** The rate of the weights carried whole (absent: the adapters' own). */
  wholeLr?: number;
  /** Weight λ of distillation to M in the harmonizers' loss (task loss + λ·KL, distill.ts); absent or 0: the task loss alone. */
  distill?: number;
}

export const DEFAULT_OFFSITE: OffsiteSettings = {
  // On tiny the kept middle unit at α = 0.5 was an MLP in every measured run (the RL choice, and uniform
  // drop's), which rank compression leaves alone; the second scale keeps both middle units and keeps blocks.1.attn at a quarter rank
  // (factors of rank r of a 48 × 48 matrix are smaller than it only below r = 24).
  scales: [
    { alpha: 0.5, beta: 1 },
    { alpha: 0, beta: 0.25 },
  ],
  replaceSteps: 40,
  tuneSteps: 40,
  batchSize: 16,
  harmonizerLr: HARMONIZER_LR,
  tuneLr: 1e-3,
  // Rewards are standardised (layerReplace.ts), so an update moves a score by about η per mask that kept it.
  scoreLr: 0.5,
  rlEvery: 4,
  candidates: 4,
  seed: 1,
};

export interface OffsiteInputs {
  full: Params;
  cfg: PlannerConfig;
  tok: Tokenizer;
  /** The model owner's data, for harmonizers and importance. */
  publicStates: readonly PlannerState[];
  privateTrain: readonly PlannerState[];
  privateTest: readonly PlannerState[];
  settings: OffsiteSettings;
  onProgress?: (phase: string, step: number, total: number) => void;
}

/** What the data owner sent back after tuning on one emulator: the names are the record that only adapter tensors left. */
export interface SentBack {
  kind: AdapterKind;
  units: string[];
  tensors: string[];
  size: number;
}

export interface EmulatorSummary {
  method: Emulator['method'];
  scale: Scale;
  units: Emulator['units'];
  size: number;
  adapters: SentBack;
}

export interface OffsiteComparison {
  settings: OffsiteSettings;
  rows: OffsiteRow[];
  emulators: EmulatorSummary[];
  fullSize: number;
  adapterSize: number;
  /** Importance scores after each RL update, per middle unit. */
  scoreHistory: number[][];
  /** Wall seconds per phase. */
  seconds: Record<string, number>;
}

/** The planner as the comparison sees it: SFT batches, the completion loss, greedy constrained exact match. */
export function plannerAgent(full: Params, cfg: PlannerConfig, tok: Tokenizer): OffsiteAgent<PlannerState, PlannerState, PlannerBatch> {
  return {
    full,
    cfg,
    batch: (states) => plannerSftBatch(tok, cfg, states),
    lossOf: (p, b) =>
      tf.tidy(() => {
        const { prompt, completion, copy } = plannerTensors(b, cfg);
        return plannerSftLoss(p, cfg, prompt, completion, copy);
      }),
    distillOf: plannerDistillLoss(cfg),
    hits: async (p, test) => {
      const e = await evalPlanner(p, cfg, tok, test, { batchSize: 32, constrained: true });
      const hit = e.rows.map((r) => r.exact);
      return { k: hit.filter(Boolean).length, n: e.states, hit };
    },
    evalBatch: 32,
    clipNorm: 1,
  };
}

export function compareOffsite(i: OffsiteInputs): Promise<OffsiteComparison> {
  return runComparison({
    agent: plannerAgent(i.full, i.cfg, i.tok),
    publicItems: i.publicStates,
    privateTrain: i.privateTrain,
    privateTest: i.privateTest,
    settings: i.settings,
    onProgress: i.onProgress,
  });
}

// The table lives in table.ts, free of tfjs, so that the command line can print it; re-exported for the slow tests.
export { comparisonTable } from './table';
