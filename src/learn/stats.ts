/**
 * The interval arithmetic the reports share: Wilson intervals of a rate,
 * Newcombe's interval of the difference of two rates, and Student-t
 * intervals of a mean over seeds. Pure numbers, no engine: the pretraining
 * manifests, the run report, the seed study and the UI all use it.
 */

/** The standard normal's 97.5th percentile: two-sided 95%. */
export const Z95 = 1.959964;

export interface Interval {
  low: number;
  high: number;
}

/** Wilson score interval (95%) of k successes in n; n = 0 says nothing, so [0, 1]. */
export function wilson(k: number, n: number, z = Z95): Interval {
  if (n === 0) return { low: 0, high: 1 };
  const p = k / n;
  const d = 1 + (z * z) / n;
  const centre = (p + (z * z) / (2 * n)) / d;
  const half = (z * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n))) / d;
  return { low: Math.max(0, centre - half), high: Math.min(1, centre + half) };
}

/** Wilson interval of a rate given as a fraction of n (the count is rounded: the fraction was k/n). */
export function wilsonOfRate(rate: number, n: number): Interval {
  return wilson(Math.round(rate * n), n);
}

/**
 * Newcombe's hybrid score interval (method 10 of Newcombe 1998) of b − a,
 * for rates a of na and b of nb measured on independent samples. On the
 * same items measured twice it is conservative: the pairing would narrow it.
 */
export function rateDifference(a: number, na: number, b: number, nb: number): Interval {
  const wa = wilsonOfRate(a, na);
  const wb = wilsonOfRate(b, nb);
  const d = b - a;
  return {
    low: d - Math.sqrt((b - wb.low) ** 2 + (wa.high - a) ** 2),
    high: d + Math.sqrt((wb.high - b) ** 2 + (a - wa.low) ** 2),
  };
}

/**
 * Newcombe's interval for paired data (method 10 of Newcombe 1998, "based on
 * paired data") of rate(b) − rate(a), where a[i] and b[i] are the same item
 * measured twice: the Wilson limits of each rate, combined with the
 * correlation φ of the 2×2 table of pairs. At φ = 0 it is rateDifference;
 * the more the two agree item by item, the narrower it gets.
 */
export function pairedRateDifference(a: readonly boolean[], b: readonly boolean[]): Interval {
  if (a.length !== b.length) throw new Error(`pairedRateDifference: ${a.length} and ${b.length} items are no pairs`);
  const n = a.length;
  if (n === 0) return { low: -1, high: 1 };
  let both = 0, onlyB = 0, onlyA = 0;
  for (let i = 0; i < n; i++) {
    if (a[i] && b[i]) both++;
    else if (b[i]) onlyB++;
    else if (a[i]) onlyA++;
  }
  const neither = n - both - onlyB - onlyA;
  const [kb, ka] = [both + onlyB, both + onlyA];
  const [pb, pa] = [kb / n, ka / n];
  const [wb, wa] = [wilson(kb, n), wilson(ka, n)];
  const margins = kb * (n - kb) * ka * (n - ka);
  const phi = margins > 0 ? (both * neither - onlyB * onlyA) / Math.sqrt(margins) : 0;
  const d = pb - pa;
  const below = Math.sqrt(Math.max(0, (pb - wb.low) ** 2 - 2 * phi * (pb - wb.low) * (wa.high - pa) + (wa.high - pa) ** 2));
  const above = Math.sqrt(Math.max(0, (wb.high - pb) ** 2 - 2 * phi * (wb.high - pb) * (pa - wa.low) + (pa - wa.low) ** 2));
  return { low: d - below, high: d + above };
}

/** Two-sided 95% Student-t critical values for 1 to 30 degrees of freedom. */
const T95 = [
  12.7062, 4.3027, 3.1824, 2.7764, 2.5706, 2.4469, 2.3646, 2.306, 2.2622, 2.2281, 2.201, 2.1788, 2.1604, 2.1448, 2.1314, 2.1199, 2.1098, 2.1009, 2.093, 2.086, 2.0796, 2.0739, 2.0687,
  2.0639, 2.0595, 2.0555, 2.0518, 2.0484, 2.0452, 2.0423,
];

/** t(0.975, df): from the table up to 30, then the Cornish–Fisher expansion (within 1e-3 there). */
export function t95(df: number): number {
  if (!Number.isInteger(df) || df < 1) throw new Error(`t95: degrees of freedom must be an integer ≥ 1; got ${df}`);
  if (df <= T95.length) return T95[df - 1];
  const z = Z95;
  return z + (z ** 3 + z) / (4 * df) + (5 * z ** 5 + 16 * z ** 3 + 3 * z) / (96 * df * df);
}

export interface MeanInterval {
  n: number;
  mean: number;
  /** Sample standard deviation (n − 1); null for n < 2. */
  sd: number | null;
  /** Student-t 95% interval of the mean; null for n < 2, where one value gives no spread to build it from. */
  interval: Interval | null;
}

/** Plain mean; 0 for no values (a phase with no steps reports 0, not NaN). */
export function mean(xs: readonly number[]): number {
  return xs.length === 0 ? 0 : xs.reduce((a, b) => a + b, 0) / xs.length;
}

/** Mean of `xs` (finite numbers) with its t-interval. */
export function meanInterval(xs: readonly number[]): MeanInterval {
  if (xs.some((x) => !Number.isFinite(x))) throw new Error('meanInterval: every value must be a finite number');
  const n = xs.length;
  if (n === 0) return { n, mean: NaN, sd: null, interval: null };
  const mean = xs.reduce((a, x) => a + x, 0) / n;
  if (n < 2) return { n, mean, sd: null, interval: null };
  const sd = Math.sqrt(xs.reduce((a, x) => a + (x - mean) ** 2, 0) / (n - 1));
  const half = (t95(n - 1) * sd) / Math.sqrt(n);
  return { n, mean, sd, interval: { low: mean - half, high: mean + half } };
}

/** Whether an interval lies wholly above or below 0 (touching 0 counts as including it). */
export function sign(i: Interval): 'above' | 'below' | 'includes 0' {
  if (i.low > 0) return 'above';
  if (i.high < 0) return 'below';
  return 'includes 0';
}
