/**
 * Distillation to the full model, for the harmonizers (METHOD.md §7:
 * Offsite-Tuning's emulator is "optionally distilled to M's outputs"). The
 * mixed model (some units replaced) is the student, M the teacher, on the
 * owner's public items, so that the emulator behaves like M and not only
 * reaches its labels. The hope it is measured against: adapters tuned on an
 * emulator that imitates M should carry over when plugged into M.
 */
import { grounderForward, type GrounderConfig } from '../models/grounder';
import { grounderTensors, type GrounderBatch } from '../models/grounderData';
import type { ParamMap } from '../models/params';
import { plannerSequenceHidden, type PlannerConfig } from '../models/planner';
import { plannerTensors, type PlannerBatch } from '../models/plannerData';
import * as tf from '../models/tf';

/**
 * KL(softmax(teacher) ‖ softmax(student)) over the last axis. No gradient
 * reaches the teacher: its weights are not among the variables trained here
 * (the harmonizers), and its outputs do not depend on them.
 */
export function klOverLast(teacher: tf.Tensor, student: tf.Tensor): tf.Tensor {
  return tf.tidy(() => {
    const lt = tf.logSoftmax(teacher);
    const ls = tf.logSoftmax(student);
    return tf.sum(tf.mul(tf.exp(lt), tf.sub(lt, ls)), -1);
  });
}

/**
 * The planner's: the mean squared difference of the final hidden states
 * (after ln_f, per dimension) at every real token, prompt and completion
 * alike. The outputs themselves say little here: on the owner's public
 * states M is nearly sure of every completion token (task loss 0.07 nats on
 * the demo planner), so a KL to them is the task loss again, and measured
 * so it trained the same harmonizers to three decimals. The hidden states
 * carry what M computes at every position, the prompt's included.
 */
export function plannerDistillLoss(cfg: PlannerConfig): (student: ParamMap, teacher: ParamMap, b: PlannerBatch) => tf.Scalar {
  return (student, teacher, b) =>
    tf.tidy(() => {
      const { prompt, completion } = plannerTensors(b, cfg);
      const t = plannerSequenceHidden(teacher, cfg, prompt, completion);
      const s = plannerSequenceHidden(student, cfg, prompt, completion);
      const perToken = tf.mean(tf.square(tf.sub(s.hidden, t.hidden)), -1);
      return tf.div(tf.sum(tf.mul(perToken, t.real)), tf.maximum(tf.sum(t.real), 1)) as tf.Scalar;
    });
}

/** Mean KL between the cell distributions plus the mean squared difference of the offsets, per screen. */
export function grounderDistillLoss(cfg: GrounderConfig): (student: ParamMap, teacher: ParamMap, b: GrounderBatch) => tf.Scalar {
  return (student, teacher, b) =>
    tf.tidy(() => {
      const inputs = grounderTensors(b, cfg);
      const t = grounderForward(teacher, cfg, inputs);
      const s = grounderForward(student, cfg, inputs);
      const offsets = tf.mean(tf.sum(tf.square(tf.sub(s.offsets, t.offsets)), -1), -1);
      return tf.mean(tf.add(klOverLast(t.logits, s.logits), offsets)) as tf.Scalar;
    });
}
