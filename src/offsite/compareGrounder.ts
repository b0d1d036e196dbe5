/**
 * The ScaleOT comparison for the grounder (compare.ts is the planner's), on
 * the data owner's private held-out grounding items, with the same rows:
 * zero-shot M; emulator fine-tuning (adapters tuned on E, evaluated on E);
 * plug-in (the adapters in M); full fine-tuning (every weight of M, same
 * batches and steps); Offsite-Tuning's uniform drop at the same (α, β), its
 * emulator fine-tuning and plug-in (skipped at α = 0, the same emulator).
 * Each row: click-inside-box accuracy of the greedy point (evalGrounder, the
 * ScreenSpot measure) with its Wilson 95% interval — stored in the row's
 * `exact` field so summary.ts and report.ts read it unchanged — and the mean
 * grounder SFT loss (cell + offset) on the same items, finer-grained than a
 * rate on a few dozen items.
 *
 * The phases are the planner's (comparison.ts runs both); only the data-facing
 * calls differ, and the grounder's SFT has no gradient clipping.
 */
import type { Params } from '../models/params';
import type { GrounderConfig } from '../models/grounder';
import { grounderBatch, type GrounderBatch, type GrounderExample } from '../models/grounderData';
import type { Tokenizer } from '../text/tokenizer';
import type { Screen } from '../world/types';
import { syntheticScreenImage } from '../models/rasterize';
import { evalGrounder, type GroundingItem } from '../learn/evalGrounder';
import { grounderDistillLoss } from './distill';
import { grounderBatchLoss } from './grounderLoss';
import { runComparison, type OffsiteAgent } from './comparison';
import type { OffsiteComparison, OffsiteSettings } from './compare';

export interface GrounderOffsiteInputs {
  full: Params;
  cfg: GrounderConfig;
  tok: Tokenizer;
  /** The model owner's data, for harmonizers and importance. */
  publicExamples: readonly GrounderExample[];
  privateTrain: readonly GroundingItem[];
  privateTest: readonly GroundingItem[];
  settings: OffsiteSettings;
  onProgress?: (phase: string, step: number, total: number) => void;
}

const EVAL_BATCH = 16;

/**
 * The grounder as the comparison sees it: SFT batches, its SFT loss, click-in-box hits of the greedy point.
 * `paint` draws the screens: Node's stand-in rasterizer by default; in the app (npm run offsite) the real
 * renderer, whose pixels the shipped base grounder was pretrained on.
 */
export function grounderAgent(full: Params, cfg: GrounderConfig, tok: Tokenizer, paint: (screen: Screen) => Float32Array = syntheticScreenImage): OffsiteAgent<GrounderExample, GroundingItem, GrounderBatch> {
  return {
    full,
    cfg,
    batch: (items) => grounderBatch(tok, cfg, items, paint),
    lossOf: grounderBatchLoss(cfg),
    distillOf: grounderDistillLoss(cfg),
    hits: async (p, test) => {
      const e = await evalGrounder(p, cfg, tok, test, { batchSize: EVAL_BATCH, paint });
      return { k: e.hits, n: e.n, hit: e.points.map((x) => x.hit) };
    },
    evalBatch: EVAL_BATCH,
  };
}

export function compareGrounderOffsite(i: GrounderOffsiteInputs): Promise<OffsiteComparison> {
  return runComparison({
    agent: grounderAgent(i.full, i.cfg, i.tok),
    publicItems: i.publicExamples,
    privateTrain: i.privateTrain,
    privateTest: i.privateTest,
    settings: i.settings,
    onProgress: i.onProgress,
  });
}
