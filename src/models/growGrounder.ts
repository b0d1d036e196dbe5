/**
 * A grounder grown into a larger preset's shape with the same heat map
 * (growWeights.ts): a `demo` grounder starts where the trained `tiny` one
 * is, instead of from scratch.
 *
 * The cell stream and the instruction stream are widened m times, head size
 * kept; the stem's patch layer and convolution, and the glyph reader, do not
 * depend on the width and are copied. What reads a widened space has its
 * rows split: the reading and parsing heads, the slots, the gates. Three
 * places need their own rule:
 * - the row convolution's weight stacks one block of rows per shift, each
 *   block split on its own;
 * - FiLM's output is [γ, β], each half widened on its own;
 * - the residual head scores ⟨q, k⟩/√d: over m copies the product is m times
 *   larger and √d grows by √m, so q is scaled by 1/√m.
 * The pooled embedding (instruction ⊕ attended cells, for the diversity
 * filter) comes out as m copies: its cosines, all the filter reads, are kept.
 */
import type { Random } from '../learn/random';
import { glyphReaderSpecs } from './glyphReader';
import { grounderSpecs, type GrounderConfig } from './grounder';
import { grower, type Grower } from './growWeights';
import { blockSpecs } from './layers';
import type { ParamMap, Params } from './params';

/** Why `from` cannot grow into `to`, or null when it can. */
export function grounderGrowthProblem(from: GrounderConfig, to: GrounderConfig): string | null {
  for (const key of ['vocabSize', 'maxTokens', 'charLength', 'glyphs'] as const) {
    if (from[key] !== to[key]) return `their ${key} differ (${from[key]} and ${to[key]})`;
  }
  if (from.stem.join() !== to.stem.join()) return `their stems differ ([${from.stem}] and [${to.stem}])`;
  if ((from.rowWidth ?? 5) !== (to.rowWidth ?? 5)) return 'their row convolutions differ in width';
  if (to.dim % from.dim !== 0) return `width ${to.dim} is not a whole multiple of ${from.dim}`;
  if (to.dim / to.heads !== from.dim / from.heads) return `their head sizes differ (${from.dim / from.heads} and ${to.dim / to.heads})`;
  if (to.layers < from.layers || to.textLayers < from.textLayers) return `${to.textLayers} + ${to.layers} layers cannot hold ${from.textLayers} + ${from.layers}`;
  return null;
}

/** A layer norm, an embedding or a position table: m copies of each column. */
const widen = (g: Grower, ...names: string[]) => names.forEach((n) => g.widenColumns(n));

/** A dense layer from a widened space into classes or features that stay as they are. */
function wideToNarrow(g: Grower, name: string) {
  g.splitRows(`${name}.w`);
  g.copy(`${name}.b`);
}

function growBlock(g: Grower, name: string, cross: boolean) {
  widen(g, `${name}.ln1.g`, `${name}.ln1.b`, `${name}.ln2.g`, `${name}.ln2.b`);
  const parts = ['attn.q', 'attn.k', 'attn.v', 'attn.o', 'mlp.fc', 'mlp.proj'];
  if (cross) {
    widen(g, `${name}.lnx.g`, `${name}.lnx.b`);
    parts.push('cross.q', 'cross.k', 'cross.v', 'cross.o');
  }
  for (const part of parts) g.widenDense(`${name}.${part}`);
}

/** Grown weights (new variables) for `to`'s shape; `params` is left as it is. With `addedOnly`, only the added blocks are trainable. */
export function growGrounder(params: ParamMap, from: GrounderConfig, to: GrounderConfig, rng: Random, addedOnly = false): Params {
  const problem = grounderGrowthProblem(from, to);
  if (problem) throw new Error(`growGrounder: a ${from.dim}-wide grounder cannot grow into a ${to.dim}-wide one: ${problem}.`);
  const m = to.dim / from.dim;
  const d = from.dim;
  const g = grower(params, m, rng, 'grounder');
  for (const name of ['stem.patch.w', 'stem.patch.b', 'stem.conv.w', 'stem.conv.b']) g.copy(name);
  if (from.glyphs) for (const name of Object.keys(glyphReaderSpecs(from.glyphs))) g.copy(name);
  widen(g, 'stem.proj.w', 'stem.proj.b', 'pos.row', 'pos.col', 'text.tok', 'text.chars.w', 'text.chars.b', 'text.pos');
  for (const ln of ['read.ln0', 'read.ln', 'text.ln', 'fine.ln1', 'fine.ln2', 'head.ln']) widen(g, `${ln}.g`, `${ln}.b`);
  g.splitRows('read.row.w', { blocks: from.rowWidth ?? 5, cols: d * m, column: (c) => c % d });
  g.widenColumns('read.row.b');
  growBlock(g, 'read.block', false);
  for (let i = 0; i < from.textLayers; i++) growBlock(g, `text.blocks.${i}`, false);
  for (let i = 0; i < from.layers; i++) growBlock(g, `blocks.${i}`, true);
  const narrow = ['read.letters', 'read.role', 'read.icon', 'read.color', 'parse.content', 'parse.slots', 'parse.role', 'parse.icon', 'parse.color', 'parse.position', 'parse.relation', 'parse.gate', 'head.bias', 'head.offset'];
  for (const name of [...narrow, ...(from.glyphs ? ['parse.spell'] : [])]) wideToNarrow(g, name);
  // [γ, β]: column h·d·m + k·d + u of the grown output copies column h·d + u.
  const film = (c: number) => Math.floor(c / (d * m)) * d + ((c % (d * m)) % d);
  g.splitRows('film.w', { cols: 2 * d * m, column: film });
  g.widenColumns('film.b', 1, 2 * d * m, film);
  for (const name of ['fine.cross.q', 'fine.cross.k', 'fine.cross.v', 'fine.cross.o', 'fine.mlp.fc', 'fine.mlp.proj']) g.widenDense(name);
  g.widenDense('head.q', 1 / Math.sqrt(m));
  g.widenDense('head.k');
  for (let i = from.textLayers; i < to.textLayers; i++) {
    const b = `text.blocks.${i}`;
    g.fresh(blockSpecs(b, to.dim), [`${b}.attn.o.w`, `${b}.attn.o.b`, `${b}.mlp.proj.w`, `${b}.mlp.proj.b`]);
  }
  for (let i = from.layers; i < to.layers; i++) {
    const b = `blocks.${i}`;
    g.fresh(blockSpecs(b, to.dim, to.dim), [`${b}.attn.o.w`, `${b}.attn.o.b`, `${b}.cross.o.w`, `${b}.cross.o.b`, `${b}.mlp.proj.w`, `${b}.mlp.proj.b`]);
  }
  return g.done(grounderSpecs(to), addedOnly);
}
