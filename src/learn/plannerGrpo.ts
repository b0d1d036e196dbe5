/**
 * GRPO for the planner (METHOD.md §2), rewarded by the grounders:
 *
 *   for each prompt (a training state whose true next step the oracle knows)
 *     sample G completions at temperature 0.9 with the project Random
 *     (plannerDecode; their temperature-1 log-probs are the "old" policy's)
 *     reward each with planReward: the pool grounds the instruction on the
 *     state's screen, hits weighted by softmax(σ·c)
 *   advantages within each group (groupAdvantages)
 *   one Adam step on grpoLoss with β = PLANNER_BETA and the k3 KL to a
 *   frozen reference policy (a copy of the starting weights; under LoRA the
 *   frozen base itself, since the adapters start at ΔW = 0)
 *
 * Everything stochastic draws from the Random given, so a seed fixes a run
 * on any backend.
 */
import * as tf from '../models/tf';
import { flatAdam } from '../models/flatAdam';
import { completionMask, copyTensor, type PlannerConfig } from '../models/planner';
import { allowedMask } from '../models/plannerDecode';
import { copyTargets } from '../models/plannerData';
import { copyIndices } from '../text/copyMarks';
import { plannerGroupLogProbs } from '../models/plannerGroups';
import { loraParams, loraTrainables, type Lora } from '../models/lora';
import { cloneParams, disposeParams, type ParamMap, type Params } from '../models/params';
import { parseInstruction } from '../text/grammar';
import { SPECIAL, type Tokenizer } from '../text/tokenizer';
import { decodeStates, type DecodeTally } from './evalPlanner';
import { GROUP_SIZE, groupAdvantages, grpoLoss, PLANNER_BETA, SAMPLING_TEMPERATURE, type GrpoAggregation } from './grpo';
import { groundWithPool, type PoolGrounder } from './plannerGrounderPool';
import { applyStep } from './plannerSft';
import { plannerPrompts, planTruth, type PlannerState } from './plannerStates';
import type { Random } from './random';
import { planReward, type Grounding, type PlanReward, type PlanRewardOptions } from './rewards';

export interface PlannerGrpoOptions {
  /** Adam learning rate. */
  lr: number;
  /** The grounders whose hits reward an instruction (at least one). */
  pool: readonly PoolGrounder[];
  /** Draws every sampled token. */
  rng: Random;
  groupSize?: number; // GROUP_SIZE (7)
  temperature?: number; // SAMPLING_TEMPERATURE (0.9)
  beta?: number; // PLANNER_BETA (0.01)
  epsilon?: number; // GRPO_EPSILON (0.2)
  aggregation?: GrpoAggregation; // 'grpo'
  reward?: PlanRewardOptions;
  clipNorm?: number;
  /** Train adapters only; the reference is then the frozen base. */
  lora?: Lora;
  /** The reference policy; default a frozen copy of `params` made now (owned and freed by the trainer). */
  reference?: ParamMap;
  /** Rows per decoding forward (default: all G·B rows of a step at once). */
  decodeBatch?: number;
  /**
   * Grammar-constrained sampling (text/instructionConstraint.ts): the ratio
   * and the KL then use log-probs renormalised over what the constraint
   * allowed, at sampling and at training alike. Off: the plain softmax
   * (the ablation); the format reward applies either way.
   */
  constrained?: boolean;
  /** Tokens proposed on the device between read-backs (plannerDecode.ts); 0 or absent: one read-back per token. */
  deviceBlock?: number;
}

/** One sampled instruction as the UI shows it. */
export interface PlannerGrpoSample {
  stateIndex: number;
  truth: string;
  instruction: string;
  reasoning?: string;
  reward: PlanReward;
  /** What each pool member did with the instruction, in pool order; empty when it was not grounded (it did not parse). */
  groundings: Grounding[];
  advantage: number;
}

export interface PlannerGrpoStep {
  loss: number;
  meanReward: number;
  informativeGroups: number;
  groups: number;
  /** Token-mean k3 KL to the reference, under the weights before this update. */
  kl: number;
  clipFraction: number;
  samples: PlannerGrpoSample[];
  /** Sizes the step ran at, which vary with its draws; the bench's PyTorch anchor repeats them: the prompts' padded length, the most tokens a row decoded, the instructions the pool grounded. */
  sizes: { promptLength: number; decodeSteps: number; grounded: number };
  /** The sampling's completion batches and the logits it read back for them. */
  decode: DecodeTally;
}

export interface PlannerGrpo {
  step(states: readonly PlannerState[]): Promise<PlannerGrpoStep>;
  readonly trainable: number;
  /** Its Adam, in the open so that a phase can save and restore its state mid-phase (coevo/phaseJournal.ts). */
  readonly optimizer: tf.Optimizer;
  /** Frees the optimizer and the reference copy it made (not `params`, not a reference passed in). */
  dispose(): void;
}

export function makePlannerGrpo(params: Params, cfg: PlannerConfig, tok: Tokenizer, opts: PlannerGrpoOptions): PlannerGrpo {
  if (opts.pool.length === 0) throw new Error('makePlannerGrpo: the grounder pool is empty');
  const g = opts.groupSize ?? GROUP_SIZE;
  if (!Number.isInteger(g) || g < 2) throw new Error(`makePlannerGrpo: groupSize must be an integer ≥ 2; got ${g}`);
  const lora = opts.lora;
  const vars = lora ? loraTrainables(lora) : Object.values(params).filter((v) => v.trainable);
  if (vars.length === 0) throw new Error('makePlannerGrpo: nothing to train');
  const ownReference: Params | null = opts.reference || lora ? null : cloneParams(params);
  const reference: ParamMap = opts.reference ?? (lora ? params : (ownReference as Params));
  const opt = flatAdam(opts.lr);
  const c = cfg.completionLength;

  return {
    optimizer: opt,
    trainable: vars.reduce((n, v) => n + v.size, 0),
    async step(states) {
      const b = states.length;
      if (b === 0) throw new Error('plannerGrpo: no states');
      const n = b * g;
      // Under LoRA, W + ΔW is made once for the whole decode.
      const policy: ParamMap = lora ? tf.tidy(() => ({ ...loraParams(params, lora) })) : params;
      let decoded;
      const tally: DecodeTally = { batches: 0, readBacks: 0 };
      try {
        decoded = await decodeStates(policy, cfg, tok, states, {
          temperature: opts.temperature ?? SAMPLING_TEMPERATURE,
          rng: opts.rng,
          repeat: g,
          batchSize: opts.decodeBatch ?? n,
          constrained: opts.constrained,
          deviceBlock: opts.deviceBlock,
          tally,
        });
      } finally {
        if (lora) for (const t of lora.targets) policy[t].dispose();
      }

      // Only instructions that parse, on states with a target box, need grounding.
      const need = decoded.map((d, i) => (states[Math.floor(i / g)].step.box && parseInstruction(d.instruction) ? i : -1)).filter((i) => i >= 0);
      const answers = await groundWithPool(opts.pool, need.map((i) => ({ screen: states[Math.floor(i / g)].screen, instruction: decoded[i].instruction })));
      const groundings: Grounding[][] = decoded.map(() => []);
      need.forEach((i, k) => (groundings[i] = answers[k]));
      const rewards = decoded.map((d, i) => planReward(d.instruction, planTruth(states[Math.floor(i / g)]), groundings[i], opts.reward));
      const adv = groupAdvantages(rewards.map((r) => r.total), g);

      // Each state's prompt once: its group's G completions share it (plannerGroupLogProbs).
      const { ids: prompt, length: pl } = plannerPrompts(tok, cfg, states);
      const completion = new Int32Array(n * c).fill(SPECIAL.pad);
      const logpOld = new Float32Array(n * c);
      decoded.forEach((d, i) => {
        completion.set(d.tokens, i * c);
        logpOld.set(d.logProbs, i * c);
      });

      // grpoLoss's metrics, kept out of the gradient tape's tidy to be read back with the loss.
      const kept: { kl?: tf.Scalar; clip?: tf.Scalar } = {};
      const loss = tf.tidy(() => {
        const promptT = tf.tensor2d(prompt, [b, pl], 'int32');
        const completionT = tf.tensor2d(completion, [n, c], 'int32');
        const mask = completionMask(completionT);
        const renorm = opts.constrained ? allowedMask(decoded.map((d) => d.allowed ?? null), cfg) : undefined;
        // The marks the sampler added the gate's bonus to, recomputed from the sampled tokens.
        const copy = cfg.copyGate ? copyTensor(copyIndices(tok, decoded.map((_, i) => copyTargets(states[Math.floor(i / g)].parts)), completion, c), n, c, cfg.vocabSize) : undefined;
        const logpRef = plannerGroupLogProbs(reference, cfg, promptT, completionT, g, renorm, copy);
        const inputs = { logpOld: tf.tensor2d(logpOld, [n, c]), logpRef, mask, advantages: tf.tensor1d(adv.advantages) };
        return applyStep(
          opt,
          vars,
          () => {
            const logp = plannerGroupLogProbs(lora ? loraParams(params, lora) : params, cfg, promptT, completionT, g, renorm, copy);
            const out = grpoLoss({ ...inputs, logp }, { beta: opts.beta ?? PLANNER_BETA, epsilon: opts.epsilon, aggregation: opts.aggregation });
            tf.dispose([kept.kl, kept.clip].filter((t): t is tf.Scalar => t !== undefined));
            kept.kl = tf.keep(out.kl);
            kept.clip = tf.keep(out.clipFraction);
            return out.loss;
          },
          opts.clipNorm,
        );
      });
      const { kl, clip } = kept;
      if (!kl || !clip) {
        loss.dispose();
        throw new Error('plannerGrpo: the loss was never computed');
      }
      // One read-back for the three figures: each data() waits for the device.
      const stats = tf.stack([loss, kl, clip]);
      tf.dispose([loss, kl, clip]);
      const [lossV, klV, clipV] = await stats.data();
      stats.dispose();

      return {
        loss: lossV,
        meanReward: rewards.reduce((a, r) => a + r.total, 0) / n,
        informativeGroups: adv.informative,
        groups: adv.groups,
        kl: klV,
        clipFraction: clipV,
        sizes: { promptLength: pl, decodeSteps: Math.max(...decoded.map((d) => d.tokens.length)), grounded: need.length },
        decode: tally,
        samples: decoded.map((d, i) => ({
          stateIndex: Math.floor(i / g),
          truth: states[Math.floor(i / g)].instruction,
          instruction: d.instruction,
          ...(d.reasoning !== undefined ? { reasoning: d.reasoning } : {}),
          reward: rewards[i],
          groundings: groundings[i],
          advantage: adv.advantages[i],
        })),
      };
    },
    dispose() {
      opt.dispose();
      if (ownReference) disposeParams(ownReference);
    },
  };
}
