/**
 * GRPO for the grounder (METHOD.md §2 "GRPO", §3, SE-GUI): for each sample
 * the current grounder draws G cells (samplePoints, the project's Random,
 * so WebGPU and WASM draw the same), each point earns the dense point reward
 * (1·format + 2·(inside + decay); `sparse` keeps only inside), rewards
 * become group advantages, and grpoLoss (clipped ratio, k3 KL with
 * β = GROUNDER_BETA to a frozen reference) updates the cell policy. A
 * sampled point is a one-token completion (T = 1); its old log-prob comes
 * from the sampling pass. The in-cell offset is regressed, not sampled, so
 * GRPO does not train it.
 */
import * as tf from '../models/tf';
import { flatAdam } from '../models/flatAdam';
import { oneHotFloat } from '../models/dtype';
import { GRID_CELLS } from '../models/canvas';
import { grounderForward, samplePoints, type GrounderConfig } from '../models/grounder';
import { grounderTensors, type GrounderBatch } from '../models/grounderData';
import { loraParams, loraTrainables, type Lora } from '../models/lora';
import { disposeParams, trainableVars, type ParamMap, type Params } from '../models/params';
import { GROUNDER_BETA, GROUP_SIZE, groupAdvantages, grpoLoss, type GrpoAggregation } from './grpo';
import type { Random } from './random';
import { densePointReward } from './rewards';

export interface GrounderGrpoConfig {
  lr: number;
  /** Draws the sampled cells; the same seed gives the same samples on every backend. */
  rng: Random;
  /** Points per sample (default GROUP_SIZE = 7). */
  groupSize?: number;
  /** Sampling temperature (default 1: the trained policy itself, so old log-probs are exact). */
  temperature?: number;
  /** Hit-or-miss reward only (the paper's ablation). */
  sparse?: boolean;
  beta?: number;
  epsilon?: number;
  aggregation?: GrpoAggregation;
  /** The frozen reference policy; default a frozen copy of `params` taken now (owned by the trainer). */
  reference?: ParamMap;
  /** Train only these adapters (the reference is then the base with the adapters as they were). */
  lora?: Lora;
  /** Parameters left as they are, by name (without LoRA). */
  frozen?: (name: string) => boolean;
}

export interface GrounderGrpoStep {
  loss: number;
  meanReward: number;
  /** Share of sampled points inside the true box. */
  hitRate: number;
  informativeGroups: number;
  groups: number;
  /** Token-mean k3 KL to the reference. */
  kl: number;
  clipFraction: number;
}

export interface GrounderGrpo {
  /** One update; reads back twice: the sampling pass's logits, then the step's metrics. */
  step(batch: GrounderBatch): Promise<GrounderGrpoStep>;
  /** The frozen reference the KL is measured against. */
  readonly reference: ParamMap;
  /** The reference when the trainer copied it (null when one was passed in): its weights are state a mid-phase save keeps. */
  readonly copiedReference: Params | null;
  /** Its Adam, in the open so that a phase can save and restore its state mid-phase (coevo/phaseJournal.ts). */
  readonly optimizer: tf.Optimizer;
  /** Frees the optimizer and a reference the trainer cloned; the trained parameters stay the caller's. */
  dispose(): void;
}

export function makeGrounderGrpo(params: Params, cfg: GrounderConfig, opts: GrounderGrpoConfig): GrounderGrpo {
  if (!(opts.lr > 0)) throw new Error(`makeGrounderGrpo: lr must be > 0; got ${opts.lr}`);
  const g = opts.groupSize ?? GROUP_SIZE;
  if (!Number.isInteger(g) || g < 2) throw new Error(`makeGrounderGrpo: groupSize must be an integer ≥ 2; got ${g}`);
  const lora = opts.lora;
  // Merged adapters are not read by loraParams: training them would change nothing the model computes.
  if (lora?.merged) throw new Error('makeGrounderGrpo: unmerge the LoRA adapters before training them');
  const vars = lora ? loraTrainables(lora) : trainableVars(params, opts.frozen);
  if (vars.length === 0) throw new Error('makeGrounderGrpo: nothing to train (every parameter is frozen and no LoRA was given)');
  // Under LoRA the reference is the base with the adapters' current ΔW folded in.
  const ownedReference: Params | null = opts.reference ? null : frozenCopy(lora ? tf.tidy(() => loraParams(params, lora)) : params, lora && !lora.merged ? lora.targets : []);
  const reference: ParamMap = opts.reference ?? (ownedReference as Params);
  const optimizer: tf.Optimizer = flatAdam(opts.lr);
  const policy = (): ParamMap => (lora ? loraParams(params, lora) : params);

  async function step(batch: GrounderBatch): Promise<GrounderGrpoStep> {
    const n = batch.examples.length;
    const inputs = grounderTensors(batch, cfg);
    // Sampling pass: the current policy's logits and offsets, and the reference's log-probs over all cells.
    const { sampled, refLogp } = tf.tidy(() => {
      const out = grounderForward(policy(), cfg, inputs);
      const ref = grounderForward(reference, cfg, inputs);
      return { sampled: { logits: out.logits, offsets: out.offsets }, refLogp: tf.logSoftmax(ref.logits) };
    });
    const draws = await samplePoints(opts.rng, sampled, g, opts.temperature ?? 1);
    tf.dispose([sampled.logits, sampled.offsets]);

    const rewards: number[] = [];
    const cells = new Int32Array(n * g);
    const logpOld = new Float32Array(n * g);
    let hits = 0;
    draws.forEach((row, i) => {
      const e = batch.examples[i];
      row.forEach((p, j) => {
        const r = densePointReward(p, e.box, e.screen, { sparse: opts.sparse });
        rewards.push(r.total);
        hits += r.base;
        cells[i * g + j] = p.cell;
        logpOld[i * g + j] = p.logProb;
      });
    });
    const adv = groupAdvantages(rewards, g);

    const stats = tf.tidy(() => {
      const pick = oneHotFloat(tf.tensor1d(cells, 'int32'), GRID_CELLS); // [N·G, cells]
      // Each sample's row repeated G times, as [N·G, cells], to line up with the draws.
      const repeat = (x: tf.Tensor) => tf.reshape(tf.tile(tf.expandDims(x, 1), [1, g, 1]), [n * g, GRID_CELLS]);
      const logpRef = tf.reshape(tf.sum(tf.mul(repeat(refLogp), pick), 1), [n * g, 1]) as tf.Tensor2D;
      const old = tf.tensor2d(logpOld, [n * g, 1]);
      const advantages = tf.tensor1d(adv.advantages);
      const mask = tf.ones([n * g, 1]) as tf.Tensor2D;
      let metrics: tf.Tensor[] = [];
      const { grads } = tf.variableGrads(() => {
        const out = grounderForward(policy(), cfg, inputs);
        const logp = tf.reshape(tf.sum(tf.mul(repeat(tf.logSoftmax(out.logits)), pick), 1), [n * g, 1]) as tf.Tensor2D;
        const l = grpoLoss(
          { logp, logpOld: old, logpRef, advantages, mask },
          { beta: opts.beta ?? GROUNDER_BETA, epsilon: opts.epsilon, aggregation: opts.aggregation },
        );
        metrics = [tf.keep(l.loss), tf.keep(l.kl), tf.keep(l.clipFraction)];
        return l.loss;
      }, vars);
      optimizer.applyGradients(grads);
      const s = tf.stack(metrics);
      tf.dispose(metrics);
      return s;
    });
    tf.dispose([refLogp, ...Object.values(inputs)]);
    const [loss, kl, clipFraction] = await stats.data();
    stats.dispose();
    return {
      loss,
      meanReward: rewards.reduce((a, b) => a + b, 0) / rewards.length,
      hitRate: hits / rewards.length,
      informativeGroups: adv.informative,
      groups: adv.groups,
      kl,
      clipFraction,
    };
  }

  return {
    step,
    reference,
    copiedReference: ownedReference,
    optimizer,
    dispose: () => {
      optimizer.dispose();
      if (ownedReference) disposeParams(ownedReference);
    },
  };
}

/**
 * A frozen copy of `p` as new untrainable variables (the reference policy);
 * `owned` names tensors of `p` made for this call (W + ΔW), freed here.
 * tf.clone, not Variable.clone: the latter throws "Cannot read properties of
 * null (reading 'clone')" under vitest, where tfjs-core's op handler is not
 * set on the variable's class (params.ts cloneParams hits the same).
 */
function frozenCopy(p: ParamMap, owned: readonly string[]): Params {
  const out: Params = {};
  for (const name of Object.keys(p)) out[name] = tf.tidy(() => tf.variable(tf.clone(p[name]), false));
  for (const name of owned) p[name].dispose();
  return out;
}
