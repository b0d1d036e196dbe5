/**
 * Adam at two learning rates: the named variables get their own FlatAdam,
 * the rest share another. Offsite tuning needs it: LoRA factors start at
 * zero and learn at a fast rate, while the base weights carried whole beside
 * them (the grounder's heads, its screen encoder) are already trained and
 * come apart at that rate; they take full fine-tuning's.
 */
import * as tf from './tf';
import { flatAdam, gradientEntries, type FlatAdam } from './flatAdam';
import type { Params } from './params';

export class SplitAdam extends tf.Optimizer {
  static className = 'SplitAdam';

  constructor(
    private readonly rest: FlatAdam,
    private readonly named: FlatAdam,
    private readonly names: ReadonlySet<string>,
  ) {
    super();
  }

  applyGradients(variableGradients: tf.NamedTensorMap | { name: string; tensor: tf.Tensor }[]): void {
    const rest: tf.NamedTensorMap = {};
    const named: tf.NamedTensorMap = {};
    for (const [n, g] of gradientEntries(variableGradients)) (this.names.has(n) ? named : rest)[n] = g;
    if (Object.keys(rest).length > 0) this.rest.applyGradients(rest);
    if (Object.keys(named).length > 0) this.named.applyGradients(named);
    this.incrementIterations();
  }

  override dispose(): void {
    this.rest.dispose();
    this.named.dispose();
  }

  getConfig(): tf.serialization.ConfigDict {
    return { rest: this.rest.getConfig(), named: this.named.getConfig() };
  }
}

/** One FlatAdam at `lr`, or a SplitAdam when some variables (by tf variable name) take `other.lr`. */
export function adamAtRates(lr: number, other?: { lr: number; names: ReadonlySet<string> }): { optimizer: tf.Optimizer; main: FlatAdam } {
  const main = flatAdam(lr);
  if (!other || other.names.size === 0) return { optimizer: main, main };
  if (!(other.lr > 0)) throw new Error(`adamAtRates: the second rate must be > 0; got ${other.lr}`);
  return { optimizer: new SplitAdam(main, flatAdam(other.lr), other.names), main };
}

/** A trainer's `ownRate` (weights by parameter name) as adamAtRates takes it (by variable name). */
export function ownRateOf(params: Params, own?: { lr: number; names: readonly string[] }): { lr: number; names: ReadonlySet<string> } | undefined {
  if (!own) return undefined;
  return {
    lr: own.lr,
    names: new Set(
      own.names.map((n) => {
        const v = params[n];
        if (!v) throw new Error(`ownRate: no parameter ${n}`);
        if (!v.trainable) throw new Error(`ownRate: ${n} is not trained`);
        return v.name;
      }),
    ),
  };
}
