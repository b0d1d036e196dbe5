/**
 * The mixed model: the full model's weights with some units swapped for
 * their harmonizers. Only a view (a new name → tensor map): nothing is
 * copied, and the forward knows a unit is replaced because its original
 * weights are gone and its harmonizer's are there (layers.ts isReplaced).
 */
import type { ParamMap } from '../models/params';
import type { Unit } from './units';

/** Weights of `full` with every unit in `replaced` swapped for its harmonizer from `harmonizers`. */
export function mixedParams(full: ParamMap, units: readonly Unit[], harmonizers: ParamMap, replaced: ReadonlySet<number>): ParamMap {
  const out: Record<string, ParamMap[string]> = { ...full };
  for (const u of units) {
    if (!replaced.has(u.index)) continue;
    for (const name of u.params) delete out[name];
    const own = Object.keys(harmonizers).filter((k) => k.startsWith(`${u.harmonizer}.`));
    if (own.length === 0) throw new Error(`mixedParams: no harmonizer weights for ${u.id}`);
    for (const k of own) out[k] = harmonizers[k];
  }
  return out;
}
