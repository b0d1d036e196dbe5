/**
 * GRPO, as in ../shared/METHOD.md §2 "GRPO" and the common open
 * implementations (TRL's GRPOTrainer): one loss used by both agents. The
 * planner's completion is a sequence of instruction tokens; the grounder's
 * sampled point is a completion of a single "token" (T = 1).
 */
import * as tf from '../models/tf';
import { maskOf } from '../models/dtype';

/** Clip range of the probability ratio (PPO / GRPO default). */
export const GRPO_EPSILON = 0.2;
/** KL weight for the planner (Co-EPG, arXiv 2511.10705). */
export const PLANNER_BETA = 0.01;
/** KL weight for the grounder (SE-GUI, arXiv 2505.12370). */
export const GROUNDER_BETA = 0.004;
/** Completions per prompt and their sampling temperature in Co-EPG (G = 7, T = 0.9). */
export const GROUP_SIZE = 7;
export const SAMPLING_TEMPERATURE = 0.9;
/** Added to the group's std so a near-constant group does not blow up its advantages. */
export const ADVANTAGE_EPS = 1e-4;

/** Rewards closer than this count as equal: such a group teaches nothing. */
const EQUAL_REWARDS = 1e-9;

export interface GroupAdvantages {
  advantages: number[];
  /** Groups whose rewards are not all equal: only they carry a policy gradient. */
  informative: number;
  groups: number;
}

/**
 * A_i = (r_i − mean(r)) / (std(r) + 1e-4) within each consecutive group of
 * `groupSize` rewards, std with Bessel's correction (n − 1), as torch.std.
 * An all-equal group gets exactly zero advantages.
 */
export function groupAdvantages(rewards: readonly number[], groupSize: number): GroupAdvantages {
  if (!Number.isInteger(groupSize) || groupSize < 1) throw new Error(`groupAdvantages: groupSize must be an integer ≥ 1; got ${groupSize}`);
  if (rewards.length % groupSize !== 0) {
    throw new Error(`groupAdvantages: ${rewards.length} rewards do not split into groups of ${groupSize}`);
  }
  const advantages: number[] = [];
  let informative = 0;
  for (let g = 0; g < rewards.length; g += groupSize) {
    const r = rewards.slice(g, g + groupSize);
    if (r.some((x) => !Number.isFinite(x))) throw new Error(`groupAdvantages: group ${g / groupSize} has a non-finite reward`);
    const equal = Math.max(...r) - Math.min(...r) <= EQUAL_REWARDS;
    if (equal) {
      advantages.push(...r.map(() => 0));
      continue;
    }
    informative++;
    const mean = r.reduce((a, b) => a + b, 0) / r.length;
    const std = Math.sqrt(r.reduce((a, b) => a + (b - mean) ** 2, 0) / (r.length - 1));
    advantages.push(...r.map((x) => (x - mean) / (std + ADVANTAGE_EPS)));
  }
  return { advantages, informative, groups: rewards.length / groupSize };
}

/**
 * How per-token losses become one number:
 * - 'grpo': mean over each completion's tokens, then mean over completions (default);
 * - 'dapo': sum over all tokens / number of tokens (token-level mean);
 * - 'dr_grpo': sum over all tokens / (N × maxTokens), a constant normaliser.
 */
export type GrpoAggregation = 'grpo' | 'dapo' | 'dr_grpo';

export interface GrpoInputs {
  /** [N, T] log-probs of the sampled tokens under the policy being trained (gradients flow here). */
  logp: tf.Tensor2D;
  /** [N, T] log-probs under the policy that sampled them (a constant). */
  logpOld: tf.Tensor2D;
  /** [N, T] log-probs under the frozen reference policy (a constant). */
  logpRef: tf.Tensor2D;
  /** [N] group advantages, one per completion. */
  advantages: tf.Tensor1D;
  /** [N, T] 1 for completion tokens, 0 for padding. Padded log-probs must still be finite. */
  mask: tf.Tensor2D;
}

export interface GrpoOptions {
  epsilon?: number;
  beta: number;
  aggregation?: GrpoAggregation;
  /** The dr_grpo normaliser's length; defaults to T. */
  maxTokens?: number;
}

export interface GrpoLoss {
  loss: tf.Scalar;
  /** Token-mean k3 KL to the reference (a metric). */
  kl: tf.Scalar;
  /** Token-mean fraction of tokens where the clip is active (a metric). */
  clipFraction: tf.Scalar;
}

/**
 * The clipped-ratio policy loss plus β·KL. Inside tf.variableGrads or
 * optimizer.minimize only the returned scalar survives the tape's tidy:
 * tf.keep `kl` and `clipFraction` there if you want to read them.
 */
export function grpoLoss(inputs: GrpoInputs, opts: GrpoOptions): GrpoLoss {
  const { logp, logpOld, logpRef, mask } = inputs;
  const eps = opts.epsilon ?? GRPO_EPSILON;
  const aggregation = opts.aggregation ?? 'grpo';
  const [n, t] = logp.shape;
  // Broadcasting would silently accept a [N, 1] mask or old log-probs: insist on one shape.
  for (const [name, x] of [['logpOld', logpOld], ['logpRef', logpRef], ['mask', mask]] as const) {
    if (x.shape[0] !== n || x.shape[1] !== t) throw new Error(`grpoLoss: ${name} is [${x.shape}], logp is [${n},${t}]`);
  }
  if (inputs.advantages.shape[0] !== n) throw new Error(`grpoLoss: ${inputs.advantages.shape[0]} advantages for ${n} completions`);
  return tf.tidy(() => {
    const adv = tf.reshape(inputs.advantages, [n, 1]);
    // ρ = exp(logp − logp_old); per token −min(ρA, clip(ρ, 1−ε, 1+ε)A) + β·KL
    const ratio = tf.exp(tf.sub(logp, logpOld));
    const clipped = tf.clipByValue(ratio, 1 - eps, 1 + eps);
    const policy = tf.neg(tf.minimum(tf.mul(ratio, adv), tf.mul(clipped, adv)));
    // k3 estimator of KL(π‖π_ref): exp(logp_ref − logp) − (logp_ref − logp) − 1 ≥ 0
    const d = tf.sub(logpRef, logp);
    const kl = tf.sub(tf.sub(tf.exp(d), d), 1);
    const perToken = tf.mul(tf.add(policy, tf.mul(opts.beta, kl)), mask);

    const tokens = tf.maximum(tf.sum(mask), 1);
    let loss: tf.Scalar;
    if (aggregation === 'grpo') {
      const perCompletion = tf.div(tf.sum(perToken, 1), tf.maximum(tf.sum(mask, 1), 1));
      loss = tf.mean(perCompletion);
    } else if (aggregation === 'dapo') {
      loss = tf.div(tf.sum(perToken), tokens);
    } else {
      loss = tf.div(tf.sum(perToken), n * (opts.maxTokens ?? t));
    }

    // Clipping is active where it changes the minimum: ρ < 1−ε with A < 0, or ρ > 1+ε with A > 0.
    const low = tf.logicalAnd(tf.less(ratio, 1 - eps), tf.less(adv, 0));
    const high = tf.logicalAnd(tf.greater(ratio, 1 + eps), tf.greater(adv, 0));
    const active = tf.mul(maskOf(tf.logicalOr(low, high)), mask);
    return {
      loss,
      kl: tf.div(tf.sum(tf.mul(kl, mask)), tokens) as tf.Scalar,
      clipFraction: tf.div(tf.sum(active), tokens) as tf.Scalar,
    };
  });
}
