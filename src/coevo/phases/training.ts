/**
 * Pieces the training phases share: batches in shuffled epochs, the copy of
 * a generation that the next one is trained from, LoRA around a phase's
 * training (merged into the weights at the end, so every checkpoint is a
 * plain model), pools and agents whose calls wait at the batch gate, and
 * the weights generation 0 starts from.
 */
import { configJson, importCheckpoint, type ModelConfig } from '../../models/checkpoint';
import { initGrounder } from '../../models/grounder';
import { DEFAULT_LORA_TARGETS, createLora, disposeLora, mergeLora, type Lora } from '../../models/lora';
import { cloneParams, disposeParams, setTrainable, type Params } from '../../models/params';
import { fitCopyGate, initPlanner, sameUpToCopyGate } from '../../models/planner';
import { baseShips } from '../../pretrain/baseTypes';
import type { PoolGrounder } from '../../learn/plannerGrounderPool';
import type { Random } from '../../learn/random';
import type { CoevoConfig } from '../config';
import type { Agent, PlanQuery, Sampling } from '../evaluateOnline';
import type { BatchRunner } from '../phaseJournal';
import type { ModelName } from '../runState';
import type { PhaseContext } from './context';
import type { Screen } from '../../world/types';

/** Index batches of `batchSize` over `size` items, in epochs shuffled by `rng`; every batch is full. */
export function batchOrder(rng: Random, size: number, batchSize: number): () => number[] {
  if (size < 1) throw new Error('batchOrder: there are no items to make batches of');
  let order: number[] = [];
  const all = Array.from({ length: size }, (_, i) => i);
  return () => {
    while (order.length < batchSize) order = [...order, ...rng.shuffle(all)];
    return order.splice(0, batchSize);
  };
}

/** A trainable copy of a generation's weights: the next generation starts from it, the old one stays intact. */
export function trainableCopy(params: Params): Params {
  return cloneParams(params, true);
}

/**
 * Runs `train` with LoRA adapters on `params` when the config asks for
 * them (else with none), then merges the adapters into the weights and
 * makes them trainable again, so the result is a plain model.
 */
export async function withLora<T>(config: CoevoConfig, rng: Random, params: Params, train: (lora: Lora | undefined) => Promise<T>): Promise<T> {
  if (!config.lora.enabled) return train(undefined);
  const lora = createLora(rng, params, { rank: config.lora.rank, alpha: config.lora.alpha, targets: DEFAULT_LORA_TARGETS });
  try {
    const out = await train(lora);
    mergeLora(params, lora);
    return out;
  } finally {
    disposeLora(lora);
    setTrainable(params, true);
  }
}

/** The same pool members, each grounding a batch as one batch of the phase (waiting at the gate, recorded). */
export function gatedPool(pool: readonly PoolGrounder[], runner: BatchRunner): PoolGrounder[] {
  return pool.map((g) => ({
    name: g.name,
    prior: g.prior,
    ground: (queries) => runner.batch(() => g.ground(queries)),
  }));
}

/**
 * The same agent, each batch it plans, samples, grounds or reads run as one
 * batch of the phase; telling which prompts are cut is host work, not a batch.
 */
export function gatedAgent(agent: Agent, runner: BatchRunner): Agent {
  const read = agent.read?.bind(agent);
  const sample = agent.sample?.bind(agent);
  const promptCut = agent.promptCut?.bind(agent);
  return {
    plan: (queries) => runner.batch(() => agent.plan(queries)),
    ...(sample && { sample: (queries: readonly PlanQuery[], sampling: Sampling) => runner.batch(() => sample(queries, sampling)) }),
    ...(promptCut && { promptCut }),
    ground: (queries) => runner.batch(() => agent.ground(queries)),
    ...(read && { read: (screens: readonly Screen[]) => runner.batch(() => read(screens)) }),
  };
}

/**
 * The weights generation 0 is trained from: freshly initialised from `rng`
 * (config.start 'scratch', or 'base' for a model with no base for the
 * preset), or the shipped base checkpoint ('base'), which must have the run
 * preset's shape.
 */
export async function startingWeights(ctx: PhaseContext, model: ModelName, rng: Random): Promise<Params> {
  const { state } = ctx;
  const cfg: ModelConfig = model === 'planner' ? state.plannerCfg : state.grounderCfg;
  if (ctx.config.start === 'scratch' || !baseShips(ctx.config.preset, model)) return model === 'planner' ? initPlanner(rng, state.plannerCfg) : initGrounder(rng, state.grounderCfg);
  if (!ctx.base) throw new Error(`This run starts from the base ${model} (start = 'base'), but the engine was given no base checkpoints; set start=scratch.`);
  const { config, params } = importCheckpoint(await ctx.base(model, ctx.config.preset));
  // A planner's copy gate may be added or dropped (plannerCopyGate); the rest of the shape must be the preset's.
  const fits = config.model === 'planner' && cfg.model === 'planner' ? sameUpToCopyGate(config, cfg) : configJson(config) === configJson(cfg);
  if (!fits) {
    disposeParams(params);
    throw new Error(`The base ${model} checkpoint does not have the '${ctx.config.preset}' preset's shape; regenerate the base checkpoints or set start=scratch.`);
  }
  return cfg.model === 'planner' ? fitCopyGate(params, cfg) : params;
}
