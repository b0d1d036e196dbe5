/**
 * The loop's ablations as named configs (issue 28): each is the full loop
 * with a few fields overridden, so `npm run coevo -- --ablation NAME` runs
 * the full loop and the ablation on the same seeds and compares them, and
 * nobody has to remember which fields make, say, "no curation".
 */
import { applySet, defaultConfig, type CoevoConfig } from './config';
import type { PresetName } from '../models/presets';

export interface Ablation {
  /** What the ablation takes away, in words. */
  what: string;
  /** `--set` assignments that turn the full loop into the ablation. */
  overrides: readonly string[];
  /** Why the ablation cannot be compared with this full-loop config (null: it can). */
  unfit?: (full: CoevoConfig) => string | null;
}

export const ABLATIONS = {
  'no-coevo': {
    what: 'the grounder never receives distilled data (Co-EPG’s w/o co-evolution)',
    overrides: ['coevo=false'],
  },
  'frozen-grounder': {
    what: 'the grounder is not trained at all: the base grounder grounds and rewards every iteration',
    overrides: ['grounderSftSteps=0', 'grounderTrainSteps=0', 'grounderGrpo=false'],
  },
  'single-grounder': {
    what: 'the planner’s reward comes from the current grounder alone, not the weighted pool',
    overrides: ['rewardWeighting=single'],
  },
  'sparse-reward': {
    what: 'grounder GRPO is rewarded for a hit only, without the dense distance term (SE-GUI’s ablation)',
    overrides: ['pointReward=sparse'],
    unfit: (full) => (full.grounderGrpo ? null : 'it changes the reward of grounder GRPO, which this config leaves off; add --set grounderGrpo=true so both arms run it'),
  },
  'no-attention-filter': {
    what: 'the grounder trains on every distilled sample, not only those the previous grounder attends to',
    overrides: ['attentionFilter=false'],
  },
  'no-curation': {
    what: 'distillation keeps every verified sample: no too-easy, misalignment or diversity filter',
    overrides: ['curation.tooEasy=false', 'curation.misaligned=false', 'curation.diversity=false'],
  },
} as const satisfies Record<string, Ablation>;

export type AblationName = keyof typeof ABLATIONS;
export const ABLATION_NAMES = Object.keys(ABLATIONS) as AblationName[];

export function isAblationName(name: string): name is AblationName {
  return Object.hasOwn(ABLATIONS, name);
}

/**
 * Why `name` cannot be run against the full loop of `preset` with `set`
 * applied (a full-loop override the ablation also sets, or a config the
 * ablation would not change), or null when it can.
 */
export function ablationProblem(name: AblationName, preset: PresetName, set: readonly string[]): string | null {
  const ablation: Ablation = ABLATIONS[name];
  const keys = new Set(ablation.overrides.map((o) => o.slice(0, o.indexOf('='))));
  const clash = set.find((kv) => keys.has(kv.slice(0, kv.indexOf('='))));
  if (clash) return `--set ${clash} is a field the ${name} ablation sets itself; leave it out`;
  let full = defaultConfig(preset, 1);
  for (const kv of set) full = applySet(full, kv);
  return ablation.unfit?.(full) ?? null;
}
