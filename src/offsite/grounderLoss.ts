/**
 * The grounder's loss for offsite tuning: its SFT loss (learn/grounderSft.ts,
 * cell cross-entropy against the centre-weighted box target plus the
 * offset's squared error, weight 1), as one scalar over a batch. The
 * harmonizers learn on it, the importance scores are rewards of it, and the
 * comparison reports it on the private test items — the same quantity the
 * data owner's adapter tuning lowers (makeGrounderSft).
 */
import { grounderForward, type GrounderConfig } from '../models/grounder';
import { grounderTensors, type GrounderBatch } from '../models/grounderData';
import { GRID_CELLS } from '../models/canvas';
import type { ParamMap } from '../models/params';
import * as tf from '../models/tf';
import { grounderSftLosses, sftTargets } from '../learn/grounderSft';

export function grounderBatchLoss(cfg: GrounderConfig): (p: ParamMap, b: GrounderBatch) => tf.Scalar {
  return (p, b) => {
    const n = b.examples.length;
    const targets = sftTargets(b);
    return tf.tidy(() => {
      const out = grounderForward(p, cfg, grounderTensors(b, cfg));
      const l = grounderSftLosses(out.logits, out.offsets, tf.tensor2d(targets.cells, [n, GRID_CELLS]), tf.tensor3d(targets.offsets, [n, GRID_CELLS, 2]));
      return tf.mean(tf.add(l.cell, l.offset)) as tf.Scalar;
    });
  };
}
