/**
 * The base planner's SFT step: makePlannerSft's step on the full weights
 * (src/learn/plannerSft.ts), with its optimizer in the open so that a
 * pretraining checkpoint can save it and a resumed run put it back. The
 * same kernels in the same order (plannerSftLoss, applyStep, FlatAdam), so
 * the same weights bit for bit as makePlannerSft: test/unit/pretrain-resume
 * checks it.
 */
import * as tf from '../models/tf';
import { FlatAdam } from '../models/flatAdam';
import type { PlannerConfig } from '../models/planner';
import type { PlannerBatch } from '../models/plannerData';
import type { Params } from '../models/params';
import { applyStep, plannerSftLoss } from '../learn/plannerSft';

export interface PlannerSftTrainer {
  readonly optimizer: FlatAdam;
  /** One step; the loss before its update. */
  step(batch: PlannerBatch): Promise<number>;
  dispose(): void;
}

export function plannerSftTrainer(params: Params, cfg: PlannerConfig, opts: { lr: number; clipNorm: number }): PlannerSftTrainer {
  const vars = Object.values(params).filter((v) => v.trainable);
  if (vars.length === 0) throw new Error('plannerSftTrainer: nothing to train (all parameters frozen)');
  const optimizer = new FlatAdam(opts.lr);
  return {
    optimizer,
    async step(batch) {
      const n = batch.examples.length;
      const pl = batch.promptLength;
      if (pl > cfg.promptLength || batch.prompt.length !== n * pl || batch.completion.length !== n * cfg.completionLength) {
        throw new Error(`plannerSftTrainer: batch of ${n} does not have [${n}, ≤ ${cfg.promptLength}] prompts and [${n}, ${cfg.completionLength}] completions`);
      }
      const loss = tf.tidy(() => {
        const prompt = tf.tensor2d(batch.prompt, [n, pl], 'int32');
        const completion = tf.tensor2d(batch.completion, [n, cfg.completionLength], 'int32');
        return applyStep(optimizer, vars, () => plannerSftLoss(params, cfg, prompt, completion), opts.clipNorm);
      });
      const value = (await loss.data())[0];
      loss.dispose();
      return value;
    },
    dispose() {
      optimizer.dispose();
    },
  };
}
