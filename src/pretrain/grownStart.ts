/**
 * A tuning run's start grown from a smaller preset's base model
 * (`npm run pretrain -- --tune DIR --grow-from tiny`): growPlanner.ts and
 * growGrounder.ts, picked by the checkpoint's own config.
 */
import { importCheckpoint, readCheckpoint, type ModelConfig } from '../models/checkpoint';
import { grounderGrowthProblem, growGrounder } from '../models/growGrounder';
import { growPlanner, growthProblem } from '../models/growPlanner';
import { disposeParams, type Params } from '../models/params';
import { Random } from '../learn/random';

/**
 * The start grown into `cfg`'s shape, or null when it is not a narrower
 * model of the same kind (the caller's own shape check then says what is
 * wrong). A narrower one that cannot grow is refused with the reason.
 * With `addedOnly` (`--train added`) only the blocks growth adds train, and
 * a start that does not grow is refused, since growth would add nothing.
 */
export function grownStart(bytes: Uint8Array, cfg: ModelConfig, seed: number, addedOnly = false): Params | null {
  const from = headerConfig(bytes);
  const grows = from !== null && from.model === cfg.model && from.dim < cfg.dim;
  if (addedOnly && !grows) throw new Error(`Training only the blocks growth adds needs a smaller preset's base ${cfg.model} to grow from; the start given is not one.`);
  if (from === null || !grows) return null;
  const rng = new Random(seed).fork('grow');
  if (from.model === 'planner' && cfg.model === 'planner') {
    refuse(from, growthProblem(from, cfg));
    return grownWith(bytes, (params) => growPlanner(params, from, cfg, rng, addedOnly));
  }
  if (from.model === 'grounder' && cfg.model === 'grounder') {
    refuse(from, grounderGrowthProblem(from, cfg));
    return grownWith(bytes, (params) => growGrounder(params, from, cfg, rng, addedOnly));
  }
  return null;
}

function refuse(from: ModelConfig, problem: string | null): void {
  if (problem !== null) throw new Error(`The ${from.dim}-wide base ${from.model} to tune cannot grow into the preset's shape: ${problem}.`);
}

/** The checkpoint's config, from its header alone (a start of the preset's own shape makes no tensors here), or null if unreadable. */
function headerConfig(bytes: Uint8Array): ModelConfig | null {
  try {
    return readCheckpoint(bytes).config;
  } catch {
    return null;
  }
}

function grownWith(bytes: Uint8Array, grow: (params: Params) => Params): Params {
  const { params } = importCheckpoint(bytes);
  try {
    return grow(params);
  } finally {
    disposeParams(params);
  }
}
