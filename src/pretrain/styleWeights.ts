/**
 * How often a grounder tune draws each referring style, relative to the
 * others (absent styles weigh 1). The tiny grounder's reading stages drew
 * text ×2–3 and icon and colour ×1.5–2; a tune draws them all alike unless
 * told (`npm run pretrain -- --tune-styles text=2,color=1.5`).
 */
import { REF_STYLES, type RefStyle } from '../world/types';

export type StyleWeights = Partial<Record<RefStyle, number>>;

const MAX_WEIGHT = 10;

/** What is wrong with `w` as style weights, or null when nothing is. */
export function styleWeightsProblem(w: unknown): string | null {
  if (typeof w !== 'object' || w === null || Array.isArray(w)) return 'must be an object of style weights';
  const entries = Object.entries(w);
  if (entries.length === 0) return 'names no style';
  for (const [style, weight] of entries) {
    if (!(REF_STYLES as readonly string[]).includes(style)) return `names "${style}", which is not a referring style (${REF_STYLES.join(', ')})`;
    if (typeof weight !== 'number' || !(weight > 0 && weight <= MAX_WEIGHT)) return `gives ${style} the weight ${String(weight)}; a weight is a number with 0 < w ≤ ${MAX_WEIGHT}`;
  }
  return null;
}

/** "text=2,color=1.5" → { text: 2, color: 1.5 }; throws an Error that says what is wrong. */
export function parseStyleWeights(raw: string): StyleWeights {
  const out: Record<string, number> = {};
  for (const item of raw.split(',')) {
    const [style, weight, ...rest] = item.split('=').map((x) => x.trim());
    if (rest.length > 0 || style === '' || weight === undefined || weight === '') throw new Error(`"${item}" is not STYLE=WEIGHT`);
    if (style in out) throw new Error(`${style} is given twice`);
    out[style] = Number(weight);
  }
  const problem = styleWeightsProblem(out);
  if (problem) throw new Error(problem);
  return out as StyleWeights;
}
