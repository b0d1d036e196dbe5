/**
 * A pretraining loop's state between two steps, and the hook that hands it
 * out every few steps (`npm run pretrain -- --resume`).
 *
 * What makes a resume exact: the weights and the optimizer's state are
 * copied as float32 values; the random and data streams are not saved but
 * replayed. A resumed loop rebuilds its streams from the seed and draws the
 * batches of the steps already taken again, without training on them, so
 * every stream is where the uninterrupted run had it. That is exact by
 * construction (the same code draws in the same order, however the streams
 * keep their state: Random's seed, plannerStateStream's buffer of tasks), and
 * cheap: drawing a batch is host work of milliseconds, a training step is
 * not. The loop's record (losses so far) travels as JSON.
 */
import type { TensorData } from '../models/safetensors';
import type { Params } from '../models/params';
import type * as tf from '../models/tf';
import { copyWeights } from '../models/weightsCopy';
import { saveOptimizer, type OptimizerState } from '../models/optimizerState';

export { restoreWeights } from '../models/weightsCopy';

export interface LoopState<R> {
  /** Steps done (of this loop; the next step to train is this one, counted from 0). */
  step: number;
  weights: Record<string, TensorData>;
  /** null before the first step of the loop's current optimizer. */
  optimizer: OptimizerState | null;
  /** What the loop reports at its end, so far (plain JSON). */
  record: R;
}

export interface LoopCheckpoints<R> {
  /** Hand a state after every `every` steps, and after the last one. */
  every: number;
  save(s: LoopState<R>): Promise<void> | void;
}

/**
 * How a loop is checkpointed and resumed: an argument of its own beside the
 * loop's options, which say what to train (and are what a resume must
 * match); with neither, the loop trains exactly as it always did.
 */
export interface Resumable<R> {
  /** Hand the loop's state every few steps. */
  checkpoints?: LoopCheckpoints<R>;
  /** Continue from a state `checkpoints` handed out (same options otherwise): the end is what an uninterrupted run reaches, bit for bit. */
  resume?: LoopState<R>;
}

/** Whether a loop of `steps` steps hands a state after `done` of them. */
export function isCheckpointStep(done: number, steps: number, every: number): boolean {
  return every > 0 && done > 0 && (done % every === 0 || done === steps);
}

/** The state after `step` steps: a copy of the weights and of the optimizer's state. */
export async function captureLoop<R>(params: Params, opt: tf.Optimizer | null, step: number, record: R): Promise<LoopState<R>> {
  return { step, weights: await copyWeights(params), optimizer: opt ? await saveOptimizer(opt, params) : null, record };
}

/** Whether a resumed loop at `first` of `steps` must replay its streams (not when nothing is left to train). */
export function mustReplay(first: number, steps: number): boolean {
  return first > 0 && first < steps;
}
