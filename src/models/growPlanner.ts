/**
 * A planner grown into a larger preset's shape with the same function
 * (growWeights.ts): a bigger planner starts where a trained smaller one is,
 * instead of from scratch.
 *
 * Wider by a whole factor m, head size kept: every unit of the residual
 * stream, of q/k/v (so each head) and of the MLP's hidden layer is m copies
 * of one unit. A layer norm over m copies of a vector has the same mean and
 * variance, so it gives m copies of its output. The output embedding is the
 * input one (tied), so the final norm's scale and shift are divided by m to
 * keep the logits. Deeper: blocks are added last, adding nothing at first.
 */
import { blockSpecs } from './layers';
import { plannerSpecs, type PlannerConfig } from './planner';
import type { Params, ParamMap } from './params';
import type { Random } from '../learn/random';
import { grower } from './growWeights';

/** Why `from` cannot grow into `to`, or null when it can. */
export function growthProblem(from: PlannerConfig, to: PlannerConfig): string | null {
  for (const key of ['vocabSize', 'promptLength', 'completionLength'] as const) {
    if (from[key] !== to[key]) return `their ${key} differ (${from[key]} and ${to[key]})`;
  }
  if (Boolean(from.goalMarks) !== Boolean(to.goalMarks)) return 'one reads goal marks and the other does not';
  if (to.dim % from.dim !== 0) return `width ${to.dim} is not a whole multiple of ${from.dim}`;
  if (to.dim / to.heads !== from.dim / from.heads) return `their head sizes differ (${from.dim / from.heads} and ${to.dim / to.heads})`;
  if (to.layers < from.layers) return `${to.layers} layers cannot hold ${from.layers}`;
  return null;
}

/** Grown weights (new variables) for `to`'s shape; `params` is left as it is. With `addedOnly`, only the added blocks are trainable. */
export function growPlanner(params: ParamMap, from: PlannerConfig, to: PlannerConfig, rng: Random, addedOnly = false): Params {
  const problem = growthProblem(from, to);
  if (problem) throw new Error(`growPlanner: a ${from.dim}-wide, ${from.layers}-layer planner cannot grow into a ${to.dim}-wide, ${to.layers}-layer one: ${problem}.`);
  const m = to.dim / from.dim;
  const g = grower(params, m, rng, 'planner');
  g.widenColumns('tok');
  g.widenColumns('pos');
  g.widenColumns('ln_f.g', 1 / m);
  g.widenColumns('ln_f.b', 1 / m);
  for (let i = 0; i < from.layers; i++) {
    const b = `blocks.${i}`;
    for (const ln of ['ln1', 'ln2']) for (const x of ['g', 'b']) g.widenColumns(`${b}.${ln}.${x}`);
    for (const d of ['attn.q', 'attn.k', 'attn.v', 'attn.o', 'mlp.fc', 'mlp.proj']) g.widenDense(`${b}.${d}`);
  }
  const gated = Boolean(from.copyGate && to.copyGate);
  if (gated) {
    // The gate reads the final norm's output, which is m copies scaled by 1/m: each share is m times larger.
    g.splitRows('copy.w', { scale: m });
    g.copy('copy.b');
  }
  for (let i = from.layers; i < to.layers; i++) {
    const b = `blocks.${i}`;
    g.fresh(blockSpecs(b, to.dim), [`${b}.attn.o.w`, `${b}.attn.o.b`, `${b}.mlp.proj.w`, `${b}.mlp.proj.b`]);
  }
  // Without a gate in both, the tune adds it (fitCopyGate).
  const specs = Object.fromEntries(Object.entries(plannerSpecs(to)).filter(([k]) => gated || !k.startsWith('copy.')));
  return g.done(specs, addedOnly);
}
