/**
 * The New-run form's logic, without a DOM: which config fields it shows and
 * in which group, the text each field holds, the validator's verdict on what
 * a person typed, and the run's name. The fields, their ranges and their
 * help all come from src/coevo/config.ts (CONFIG_FIELDS, applySet), so the
 * form refuses exactly what `npm run coevo -- --set` refuses, in the same words.
 */
import { applySet, CONFIG_FIELDS, ConfigError, defaultConfig, type CoevoConfig, type ConfigPath } from '../../coevo/config';
import type { PresetName } from '../../models/presets';

/** Fields the quick controls above the form already set (preset, seed, start, iterations, kept in the URL). */
export const QUICK_FIELDS = ['preset', 'seed', 'iterations', 'start'] as const satisfies readonly ConfigPath[];

/** The form's groups, in the order of the loop (METHOD.md); a unit test checks each other field sits in exactly one. */
export const FORM_GROUPS: readonly { title: string; fields: readonly ConfigPath[] }[] = [
  { title: 'Loop', fields: ['coevo', 'seedTasks', 'distillStates', 'evalSize', 'onlineEpisodes', 'writerErrorRate'] },
  { title: 'Planner', fields: ['plannerSftOnBase', 'plannerSftSteps', 'plannerSftLr', 'plannerBatch', 'plannerGrpoSteps', 'plannerGrpoLr', 'grpoPrompts', 'grpoScreen', 'grpoTargetedOnly', 'plannerConstraint', 'plannerGoalMarks', 'plannerCopyGate'] },
  { title: 'GRPO', fields: ['groupSize', 'temperature', 'beta', 'epsilon', 'aggregation'] },
  { title: 'Grounder', fields: ['grounderSftSteps', 'grounderSftLr', 'grounderBatch', 'grounderTrainSteps', 'grounderGrpo', 'grounderGrpoLr', 'grounderBeta', 'freezeGlyphReader', 'grounderRealShare'] },
  { title: 'Rewards', fields: ['rewardPool', 'rewardWeighting', 'pointReward'] },
  { title: 'Curation', fields: ['curation.tooEasy', 'curation.misaligned', 'curation.diversity', 'curation.keepFraction', 'attentionFilter'] },
  { title: 'LoRA', fields: ['lora.enabled', 'lora.rank', 'lora.alpha'] },
];

/** What the quick controls chose; the form's defaults follow them. */
export interface RunBasics {
  preset: PresetName;
  seed: number;
  iterations: number;
  start: 'base' | 'scratch';
}

/** A field's value as the form and `--set` write it (the pool as `name:prior,…`, as the run record keeps it). */
export function fieldText(config: CoevoConfig, path: ConfigPath): string {
  const [head, leaf] = path.split('.') as [keyof CoevoConfig, string | undefined];
  const v: unknown = leaf === undefined ? config[head] : (config[head] as unknown as Record<string, unknown>)[leaf];
  if (path === 'rewardPool') return config.rewardPool.map((e) => `${e.name}:${e.prior}`).join(',');
  return String(v);
}

/** The preset's defaults with the quick controls' choices applied. */
export function baseConfig(b: RunBasics): CoevoConfig {
  return { ...defaultConfig(b.preset, b.seed), iterations: b.iterations, start: b.start };
}

export type Edits = Partial<Record<ConfigPath, string>>;

export interface FormVerdict {
  /** The config the run would get; null while any field is refused. */
  config: CoevoConfig | null;
  /** The validator's message per refused field. */
  errors: Partial<Record<ConfigPath, string>>;
  /** `key=value` of each edit that differs from the defaults: what the worker applies (CoevoStartOptions.set). */
  set: string[];
  name: string;
}

/** Applies the edits over the defaults one by one, so each refused field gets the validator's own message. */
export function judge(b: RunBasics, edits: Edits): FormVerdict {
  const base = baseConfig(b);
  const errors: Partial<Record<ConfigPath, string>> = {};
  const set: string[] = [];
  let config: CoevoConfig = base;
  for (const [path, text] of Object.entries(edits) as [ConfigPath, string][]) {
    if (text.trim() === fieldText(base, path)) continue;
    const assignment = `${path}=${text.trim()}`;
    try {
      applySet(base, assignment);
      config = applySet(config, assignment);
      set.push(assignment);
    } catch (e) {
      errors[path] = e instanceof ConfigError || e instanceof Error ? e.message : String(e);
    }
  }
  const ok = Object.keys(errors).length === 0;
  return { config: ok ? config : null, errors, set, name: runName(b, ok ? config : base) };
}

const NAME_SHOWS = 6;

/** "tiny · seed 1 · coevo=false": the preset, the seed, then every field that differs from the preset's defaults. */
export function runName(b: RunBasics, config: CoevoConfig): string {
  const defaults = defaultConfig(b.preset, b.seed);
  const diffs = (Object.keys(CONFIG_FIELDS) as ConfigPath[])
    .filter((p) => p !== 'preset' && p !== 'seed')
    .filter((p) => fieldText(config, p) !== fieldText(defaults, p))
    .map((p) => (p === 'iterations' ? `K = ${config.iterations}` : `${p}=${fieldText(config, p)}`));
  const shown = diffs.length > NAME_SHOWS ? [...diffs.slice(0, NAME_SHOWS - 1), `+${diffs.length - NAME_SHOWS + 1} more`] : diffs;
  return [b.preset, `seed ${b.seed}`, ...shown].join(' · ');
}
