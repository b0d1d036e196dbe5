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
 * With `addedOnly` (`--train added`) only the blocks growth adds train.
 */
export function grownStart(bytes: Uint8Array, cfg: ModelConfig, seed: number, addedOnly = false): Params | null {
  const from = headerConfig(bytes);
  if (from === null) return null;
  if (from.model !== cfg.model || from.dim >= cfg.dim) return null;
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

/** Why `--train added` cannot apply: the start is not a smaller preset's model, so growth adds nothing. */
export const addedOnlyRefusal = (model: string, preset: string): string =>
  `Training only the blocks growth adds needs a smaller preset's base ${model} to grow into ${preset}'s shape; the start given is not one.`;

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
