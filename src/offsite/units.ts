/**
 * The replaceable units of offsite tuning. For the planner: the self-attention
 * and the MLP sub-block of every transformer layer, in order (layer 0's
 * attention, layer 0's MLP, layer 1's attention, …).
 *
 * Sub-blocks rather than whole layers because the shipped base planner is
 * the `tiny` preset, two layers deep: counted as layers it would have
 * nothing to drop once its first and last layers became the adapters. As
 * sub-blocks it has four units: the first (layer 0's attention) and the last
 * (the last layer's MLP) are the adapters of the sandwich, and the two in
 * between are what an emulator may replace. `demo` (three layers) gives six
 * units, four in the middle; the code takes any depth.
 *
 * Embeddings, positions and the final norm belong to no unit: the emulator
 * ships them as they are and nobody tunes them.
 *
 * For the grounder (grounderUnits): the self-attention and MLP sub-blocks of
 * the instruction encoder's blocks (`text.blocks.i`), then those of the
 * cross-attending region blocks (`blocks.j`), in the order the instruction
 * flows through them. Each region block's cross-attention to the tokens
 * (`lnx`, `cross`) is no unit: layers.ts `block` has no harmonizer for it,
 * so it always runs, and the emulator ships it as it is, like the screen
 * encoder (stem, reading heads, `read.block`), the score maps and the fine
 * cross-attention, none of which is a transformer sub-block. The tiny
 * grounder (one text block, one region block) has four units, so two in
 * the middle (`text.blocks.0.mlp`, `blocks.0.attn`), as the tiny planner.
 */
import { harmonizerName } from '../models/layers';
import type { GrounderConfig } from '../models/grounder';
import type { PlannerConfig } from '../models/planner';

/** The configs offsite tuning takes; `model` says which agent. */
export type OffsiteModelConfig = PlannerConfig | GrounderConfig;

export type UnitKind = 'attn' | 'mlp';

export interface Unit {
  /** Position in the network, 0 … 2·layers − 1. */
  index: number;
  layer: number;
  kind: UnitKind;
  /** e.g. "blocks.1.attn". */
  id: string;
  /** Every weight the unit owns (its pre-norm included). */
  params: string[];
  /** Its attention projections, which rank compression may reduce (empty for an MLP unit). */
  projections: string[];
  /** Prefix of the harmonizer weights that stand in for it. */
  harmonizer: string;
}

const affine = (name: string) => [`${name}.w`, `${name}.b`];

/** The two sub-block units of transformer block `block`, numbered from 2·`layer`. */
function blockUnits(block: string, layer: number): Unit[] {
  return [
    {
      index: 2 * layer,
      layer,
      kind: 'attn',
      id: `${block}.attn`,
      params: [`${block}.ln1.g`, `${block}.ln1.b`, ...['q', 'k', 'v', 'o'].flatMap((m) => affine(`${block}.attn.${m}`))],
      projections: ['q', 'k', 'v', 'o'].map((m) => `${block}.attn.${m}.w`),
      harmonizer: harmonizerName(block, 'attn'),
    },
    {
      index: 2 * layer + 1,
      layer,
      kind: 'mlp',
      id: `${block}.mlp`,
      params: [`${block}.ln2.g`, `${block}.ln2.b`, ...affine(`${block}.mlp.fc`), ...affine(`${block}.mlp.proj`)],
      projections: [],
      harmonizer: harmonizerName(block, 'mlp'),
    },
  ];
}

export function plannerUnits(cfg: PlannerConfig): Unit[] {
  return Array.from({ length: cfg.layers }, (_, layer) => blockUnits(`blocks.${layer}`, layer)).flat();
}

/** Text-encoder blocks first, then the cross-attending region blocks; `layer` counts through both. */
export function grounderUnits(cfg: GrounderConfig): Unit[] {
  const names = [...Array.from({ length: cfg.textLayers }, (_, i) => `text.blocks.${i}`), ...Array.from({ length: cfg.layers }, (_, i) => `blocks.${i}`)];
  return names.flatMap((name, layer) => blockUnits(name, layer));
}

/** The units of either agent, by its config's `model`. */
export function modelUnits(cfg: OffsiteModelConfig): Unit[] {
  return cfg.model === 'grounder' ? grounderUnits(cfg) : plannerUnits(cfg);
}

/** The sandwich: the first and last units are the adapters; the middle is what an emulator compresses. */
export function sandwich(units: readonly Unit[]): { adapters: Unit[]; middle: Unit[] } {
  if (units.length < 3) throw new Error(`offsite: ${units.length} units leave no middle between the two adapter units`);
  return { adapters: [units[0], units[units.length - 1]], middle: units.slice(1, -1) };
}
