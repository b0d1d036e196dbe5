/**
 * Model sizes. `tiny` trains a step in well under a second on WASM in Node
 * (unit tests, software WebGPU); `demo` runs three co-evolution iterations in
 * minutes on a laptop GPU; `full` is the largest that still trains in a tab.
 */
import { defaultTokenizer } from '../text/vocab';
import type { GrounderConfig } from './grounder';
import { grounderSpecs } from './grounder';
import type { PlannerConfig } from './planner';
import { plannerSpecs } from './planner';
import { countParams } from './params';

export type PresetName = 'tiny' | 'demo' | 'full';
export const PRESET_NAMES: readonly PresetName[] = ['tiny', 'demo', 'full'];

export function grounderPreset(name: PresetName, vocabSize = defaultTokenizer().size): GrounderConfig {
  const base = { model: 'grounder' as const, vocabSize, maxTokens: 24, charLength: 12 };
  switch (name) {
    case 'tiny':
      return { ...base, stem: [16, 32], dim: 32, heads: 2, textLayers: 1, layers: 1, glyphs: 128 };
    case 'demo':
      return { ...base, stem: [16, 32], dim: 64, heads: 4, textLayers: 1, layers: 2, glyphs: 128 };
    case 'full':
      return { ...base, maxTokens: 32, stem: [24, 48], dim: 96, heads: 4, textLayers: 2, layers: 4, glyphs: 192 };
  }
}

export function plannerPreset(name: PresetName, vocabSize = defaultTokenizer().size): PlannerConfig {
  const base = { model: 'planner' as const, vocabSize };
  switch (name) {
    case 'tiny':
      return { ...base, promptLength: 512, completionLength: 48, dim: 48, heads: 2, layers: 2, goalMarks: true, copyGate: true };
    case 'demo':
      return { ...base, promptLength: 512, completionLength: 48, dim: 96, heads: 4, layers: 3, goalMarks: true, copyGate: true };
    case 'full':
      return { ...base, promptLength: 512, completionLength: 64, dim: 128, heads: 4, layers: 4, goalMarks: true, copyGate: true };
  }
}

export interface PresetSize {
  preset: PresetName;
  grounder: number;
  planner: number;
}

/** Parameter counts of every preset, computed from the specs (no tensors made). */
export function presetSizes(): PresetSize[] {
  return PRESET_NAMES.map((preset) => ({
    preset,
    grounder: countParams(grounderSpecs(grounderPreset(preset))),
    planner: countParams(plannerSpecs(plannerPreset(preset))),
  }));
}

/** One line per preset, e.g. "tiny: grounder 123,456 parameters, planner 234,567 parameters". */
export function describePresets(): string {
  return presetSizes()
    .map((s) => `${s.preset}: grounder ${s.grounder.toLocaleString('en-US')} parameters, planner ${s.planner.toLocaleString('en-US')} parameters`)
    .join('\n');
}
