/**
 * The Offsite view's run sizes: a quick look, a demonstration of the
 * machinery with too few states to tell the rows apart (on this 2-core
 * machine, WASM: 28 s for the tiny planner, 103 s for the demo grounder),
 * the sizes docs/offsite.md measured (5–9 minutes for tiny on WASM), and
 * the larger ones its demo runs used, where the rows' intervals part.
 */
import { OFFSITE_DEFAULTS, OFFSITE_AGENTS, OFFSITE_PRESETS, loraOfRank, type OffsiteAgentName, type OffsiteOptions, type OffsitePreset } from '../../offsite/jobTypes';

export const OFFSITE_SIZES = ['quick', 'standard', 'large'] as const;
export type OffsiteSize = (typeof OFFSITE_SIZES)[number];

export const SIZE_LABELS: Record<OffsiteSize, string> = {
  quick: 'Quick look (under 2 min on WASM; too few test items to tell rows apart)',
  standard: 'Standard (the sizes docs/offsite.md measured; 5–9 min on WASM)',
  large: 'Large (four times the test items, rows an interval apart; 5–7 min for demo on WASM)',
};

const QUICK: Record<OffsiteAgentName, Partial<OffsiteOptions>> = {
  planner: { tasks: 12, testStates: 16, publicItems: 48, replaceSteps: 8, tuneSteps: 8, batchSize: 8 },
  grounder: { tasks: 12, testStates: null, publicItems: 32, replaceSteps: 8, tuneSteps: 8, batchSize: 8 },
};

// The sizes of docs/offsite.md's demo runs at n = 200 (planner) and n = 60 (grounder, at a gentler rate: its own
// 3e-3 made full fine-tuning worse than zero-shot there).
const LARGE: Record<OffsiteAgentName, Partial<OffsiteOptions>> = {
  planner: { tasks: 120, testStates: 200, tuneSteps: 60 },
  grounder: { tasks: 60, tuneLr: 5e-4 },
};

/** Where the data owner's private data comes from: held-out web tasks, or the person's own marked screenshots (the grounder only). */
export type PrivateChoice = 'held-out' | 'own';

/** What the data owner tunes and sends back: the papers' end units, or LoRA on every unit the emulator keeps, alone, with the token table, or with every weight outside the units. */
export const ADAPTER_CHOICES = ['end-units', 'lora', 'lora-table', 'lora-outside'] as const;
export type AdapterChoice = (typeof ADAPTER_CHOICES)[number];
/** The rank docs/offsite.md measured LoRA at. */
export const VIEW_LORA_RANK = 4;

export const ADAPTER_LABELS: Record<AdapterChoice, string> = {
  'end-units': 'the end units (first and last sub-block, as in the papers)',
  lora: `LoRA, rank ${VIEW_LORA_RANK}, on every unit the emulator keeps`,
  'lora-table': `LoRA, rank ${VIEW_LORA_RANK}, on every unit the emulator keeps, and the token table`,
  'lora-outside': `LoRA, rank ${VIEW_LORA_RANK}, on every unit the emulator keeps, and every weight outside the units at full fine-tuning's rate`,
};

export function offsiteOptions(agent: OffsiteAgentName, preset: OffsitePreset, size: OffsiteSize, privateSet: PrivateChoice = 'held-out', adapters: AdapterChoice = 'end-units'): OffsiteOptions {
  const base = OFFSITE_DEFAULTS[agent];
  const own = privateSet === 'own' && agent === 'grounder';
  const sized = { ...base, scales: base.scales.map((s) => ({ ...s })), ...(size === 'quick' ? QUICK[agent] : size === 'large' ? LARGE[agent] : {}) };
  return {
    ...sized,
    agent,
    preset,
    lora: adapters === 'end-units' ? null : loraOfRank(VIEW_LORA_RANK),
    ...(adapters === 'lora-table' ? { tuneTable: true } : {}),
    // Weights already trained take full fine-tuning's rate; LoRA's (ten times it) took the demo grounder's screen encoder apart.
    ...(adapters === 'lora-outside' ? { tuneOutside: true, wholeLr: sized.tuneLr } : {}),
    ...(own ? { privateSet: 'own-screenshots' as const } : {}),
  };
}

/** The view's choices from its URL parameters (agent, base, size, private, adapters), each falling back to its default when missing or unknown. */
export function choicesFromUrl(search: string): { agent: OffsiteAgentName; preset: OffsitePreset; size: OffsiteSize; privateSet: PrivateChoice; adapters: AdapterChoice } {
  const q = new URLSearchParams(search);
  const pick = <T extends string>(list: readonly T[], v: string | null, fallback: T): T => list.find((x) => x === v) ?? fallback;
  return {
    agent: pick(OFFSITE_AGENTS, q.get('agent'), 'planner'),
    preset: pick(OFFSITE_PRESETS, q.get('base'), 'tiny'),
    size: pick(OFFSITE_SIZES, q.get('size'), 'quick'),
    privateSet: pick(['held-out', 'own'] as const, q.get('private'), 'held-out'),
    adapters: pick(ADAPTER_CHOICES, q.get('adapters'), 'end-units'),
  };
}
