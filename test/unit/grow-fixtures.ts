/** Shared by the growth tests (planner-grow, grounder-grow). */
import type * as tf from '../../src/models/tf';

/**
 * How many entries of a grown dense weight differ between the first and the
 * second copy of their input unit (rows r and r + d): copies that shared it
 * equally would get equal gradients and never part.
 */
export function unequalCopies(weight: tf.Tensor, d: number): number {
  const w = weight.arraySync() as number[][];
  let unequal = 0;
  for (let r = 0; r < d; r++) for (let c = 0; c < w[r].length; c++) if (Math.abs(w[r][c] - w[r + d][c]) > 1e-7) unequal++;
  return unequal;
}
