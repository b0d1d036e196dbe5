/**
 * The inspector's view model, free of Svelte: which marker each pool
 * grounder gets, where the markers go on the screen (samples that agree
 * share one marker), how numbers read, and the short explanations shown
 * beside the data.
 */
import type { GroupRecord, GroupSample } from '../../coevo/groupRecords';
import type { PlanWeighting } from '../../learn/rewards';
import type { Platform } from '../../world/types';

export type MarkShape = 'circle' | 'square' | 'triangle' | 'diamond';

export interface GrounderMark {
  shape: MarkShape;
  /** Okabe–Ito, so the grounders stay apart with every common colour-vision deficiency. */
  colour: string;
}

/** One marker shape and colour per pool position; the true box is drawn in amber, which no grounder uses. */
export const GROUNDER_MARKS: readonly GrounderMark[] = [
  { shape: 'circle', colour: '#0072B2' },
  { shape: 'square', colour: '#D55E00' },
  { shape: 'triangle', colour: '#009E73' },
  { shape: 'diamond', colour: '#CC79A7' },
];
export const TRUTH_COLOUR = '#E69F00';

export function markOf(j: number): GrounderMark {
  return GROUNDER_MARKS[j % GROUNDER_MARKS.length];
}

/** An SVG path of `shape` centred on (x, y) with "radius" r, all in screen pixels. */
export function markPath(shape: MarkShape, x: number, y: number, r: number): string {
  switch (shape) {
    case 'circle':
      return `M${x - r},${y}a${r},${r} 0 1,0 ${2 * r},0a${r},${r} 0 1,0 ${-2 * r},0Z`;
    case 'square': {
      const s = r * 0.9;
      return `M${x - s},${y - s}h${2 * s}v${2 * s}h${-2 * s}Z`;
    }
    case 'triangle':
      return `M${x},${y - r * 1.15}L${x + r},${y + r * 0.75}L${x - r},${y + r * 0.75}Z`;
    case 'diamond':
      return `M${x},${y - r * 1.2}L${x + r * 1.2},${y}L${x},${y + r * 1.2}L${x - r * 1.2},${y}Z`;
  }
}

/** Where one grounder put one or more samples' instructions (samples that agree on the point share it). */
export interface PlacedMark {
  grounder: number;
  x: number;
  y: number;
  hit: boolean;
  /** 0-based sample indices. */
  samples: number[];
}

/** Every grounder's points for every sample, merged where they coincide (to a tenth of a pixel). */
export function placeMarks(group: GroupRecord): PlacedMark[] {
  const byKey = new Map<string, PlacedMark>();
  group.samples.forEach((s, i) => {
    s.groundings.forEach((g, j) => {
      if (!g.point) return;
      const key = `${j}:${g.point.x.toFixed(1)}:${g.point.y.toFixed(1)}`;
      const have = byKey.get(key);
      if (have) have.samples.push(i);
      else byKey.set(key, { grounder: j, x: g.point.x, y: g.point.y, hit: g.hit, samples: [i] });
    });
  });
  return [...byKey.values()];
}

/**
 * Where a marker's label (its samples' numbers) goes: up and to the right,
 * flipped inward near the right and top edges so the frame does not clip it.
 */
export function labelAt(m: PlacedMark, r: number, width: number): { x: number; y: number; anchor: 'start' | 'end'; text: string } {
  const text = m.samples.map((i) => i + 1).join(',');
  const left = m.x + r * (1.3 + 0.75 * text.length) > width;
  const below = m.y - r * 2.2 < 0;
  return { x: left ? m.x - r * 1.3 : m.x + r * 1.3, y: below ? m.y + r * 2 : m.y - r * 0.9, anchor: left ? 'end' : 'start', text };
}

/** Screen zoom per platform: a web page (200×128) and a phone (120×208) both fit a 1280×720 window beside the samples. */
export const ZOOM: Readonly<Record<Platform, number>> = { web: 2.5, mobile: 2 };

export function signed(x: number, digits = 2): string {
  const s = Math.abs(x).toFixed(digits);
  return x > 0 ? `+${s}` : x < 0 ? `−${s}` : s;
}

export function fixed(x: number, digits = 2): string {
  return x.toFixed(digits);
}

/** The bar scale: the largest |advantage| of the group, at least 1 (so one outlier does not fill the bar). */
export function advantageScale(group: GroupRecord): number {
  return Math.max(1, ...group.samples.map((s) => Math.abs(s.advantage)));
}

/** Why a sample earned what it earned, in one sentence. */
export function rewardReason(s: GroupSample, truthType: string, pool: readonly { name: string }[]): string {
  if (!s.parsed) return 'Does not parse as an instruction: reward 0, nothing grounded.';
  if (s.reward.type === 0) return `Wrong action type (${s.actionType ?? '?'} instead of ${truthType}): reward 0.`;
  if (s.reward.value === 0) return 'Right action, wrong typed value: reward 0.';
  const hits = pool.filter((_, j) => s.reward.hits[j] === 1).map((g) => g.name);
  if (s.reward.hits.length === 0) return `Right action and value; this step has no target box: reward ${fixed(s.reward.total)}.`;
  if (hits.length === 0) return 'Right action, but no grounder found the target from this wording: reward 0.';
  return `Hit by ${hits.join(' and ')}: reward = Σ w of the hits = ${fixed(s.reward.total)}.`;
}

/** How the pool's hits were weighted (config.rewardWeighting), as the legend says it. */
export const WEIGHTING_TEXT: Readonly<Record<PlanWeighting, string>> = {
  'prior-confidence': 'w = softmax(σ · confidence)',
  prior: 'w = softmax(σ)',
  uniform: 'w = 1 / pool size',
  single: 'one grounder only',
};

/** Short explanations, kept as data so the words can change without touching the layout. */
export const GRPO_NOTES = {
  title: 'GRPO group inspector',
  lead: 'One prompt of the planner’s GRPO at a time: G sampled instructions, where each grounder of the reward pool points, and what that earned.',
  how: [
    'Planner GRPO samples G instructions for the same screen and goal.',
    'Each instruction that parses is grounded by every grounder of the reward pool; a grounder scores a hit when its point lands in the true target box.',
    'Reward = 0 if the action type or the typed value is wrong; otherwise the sum of the weights w of the grounders that hit (w = softmax of prior σ × confidence).',
    'Advantage = (reward − group mean) / group standard deviation: wordings the grounders understand better than their siblings are made more likely, the others less.',
  ],
  informative: 'Informative group: rewards differ, so this group moves the planner.',
  noneInformative: 'No informative group in this batch: every group’s samples got equal rewards. Try another batch, or untick “informative only”.',
  uninformative: 'Uninformative group: every sample got the same reward, so all advantages are 0 and it teaches nothing.',
  emptyRun: 'No run yet: start one in the Loop view, then come back here once its planner GRPO phase has finished.',
  noGrpoYet:
    'This run has no finished planner GRPO phase yet. Groups appear here as soon as iteration 1’s planner GRPO commits (after the seed phases and the first evaluation).',
  noGroupsStored: 'This run’s planner GRPO finished before groups were recorded (an older run), so there is nothing to inspect. Start a new run.',
  keys: '← → step through the states while the inspector has focus.',
} as const;
