/**
 * The adapter trainer of each agent, for the tuning entry (tune.ts): the
 * planner's SFT (completion cross-entropy, clipped) or the grounder's SFT
 * (cell and offset loss), over whatever parameters are trainable. Kept
 * apart so tune.ts stays about what crosses the privacy boundary.
 */
import type { GrounderConfig } from '../models/grounder';
import type { GrounderBatch } from '../models/grounderData';
import type { Params } from '../models/params';
import type { PlannerConfig } from '../models/planner';
import type { PlannerBatch } from '../models/plannerData';
import type { Lora } from '../models/lora';
import { makeGrounderSft } from '../learn/grounderSft';
import { makePlannerSft } from '../learn/plannerSft';
import type { OffsiteModelConfig } from './units';

/** A batch of either agent; the trainer checks it matches its model. */
export type OffsiteBatch = PlannerBatch | GrounderBatch;

export interface AdapterTrainer {
  step(batch: OffsiteBatch): Promise<{ loss: number }>;
  dispose(): void;
}

const isGrounderBatch = (b: OffsiteBatch): b is GrounderBatch => 'images' in b;

export function adapterTrainer(params: Params, cfg: OffsiteModelConfig, o: { lr: number; clipNorm?: number; lora?: Lora; ownRate?: { lr: number; names: readonly string[] } }): AdapterTrainer {
  if (cfg.model === 'grounder') {
    const g: GrounderConfig = cfg;
    // makeGrounderSft has no clipping; its SFT never needed one (learn-grounder-sft).
    const t = makeGrounderSft(params, g, { lr: o.lr, ...(o.lora ? { lora: o.lora } : {}), ...(o.ownRate ? { ownRate: o.ownRate } : {}) });
    return {
      step: async (b) => {
        if (!isGrounderBatch(b)) throw new Error('offsite: a planner batch for the grounder');
        return { loss: (await t.step(b)).loss };
      },
      dispose: () => t.dispose(),
    };
  }
  const p: PlannerConfig = cfg;
  const t = makePlannerSft(params, p, { lr: o.lr, clipNorm: o.clipNorm, lora: o.lora, ownRate: o.ownRate });
  return {
    step: async (b) => {
      if (isGrounderBatch(b)) throw new Error('offsite: a grounder batch for the planner');
      return { loss: (await t.step(b)).loss };
    },
    dispose: () => t.dispose(),
  };
}
