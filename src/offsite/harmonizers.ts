/**
 * Fresh harmonizers for the units an emulator may replace. Hidden width
 * dim/4 keeps one near a seventh of an attention unit's weights (tiny: 1,308
 * against 9,504), so replacing a unit really does shrink what ships.
 */
import { harmonizerSpecs } from '../models/layers';
import { initParams, type Params, type ParamSpecs } from '../models/params';
import type { Random } from '../learn/random';
import type { Unit } from './units';

export const harmonizerHidden = (dim: number) => Math.max(4, Math.round(dim / 4));

export function initHarmonizers(rng: Random, dim: number, units: readonly Unit[], hidden = harmonizerHidden(dim)): Params {
  const specs: ParamSpecs = {};
  for (const u of units) Object.assign(specs, harmonizerSpecs(u.harmonizer, dim, hidden));
  return initParams(rng, specs);
}
