/**
 * Copy marks: after a completion's tokens so far, which next tokens go on
 * spelling one of the goal-named texts (goalMarks.ts goalNamedTexts) inside
 * a quoted span. The planner adds a learned, context-gated bonus to those
 * tokens' logits (planner.ts `copyGate`), so "Open the Recipes folder" can
 * favour `"Recipes"` on a site whose words it never saw: the mark depends
 * on the goal and the screen, not on the words.
 *
 * Inside an open quote whose text so far starts some target, a token is
 * marked when its characters go on along that target (up to its closing
 * quote). Outside a quote, a token is marked when it opens a quote and
 * spells at least the target's first character. A `<think>` trace is free
 * text: nothing is marked in it, and the instruction after `</think>` is
 * read on its own.
 */
import { SPECIAL, type Tokenizer } from './tokenizer';
import { tokenTrie, type TokenNode } from './tokenTrie';

/** Every token that spells a prefix of `rest` of at least `minChars` characters, into `out`. */
function walk(root: TokenNode, rest: string, minChars: number, out: Set<number>): void {
  let n: TokenNode | undefined = root;
  let depth = 0;
  for (const ch of rest) {
    n = n.next.get(ch);
    if (!n) return;
    depth++;
    if (depth >= minChars) for (const id of n.ids) out.add(id);
  }
}

/** The instruction's text so far, or null inside a `<think>` trace. */
function instructionSoFar(tok: Tokenizer, generated: readonly number[]): string | null {
  let body = generated;
  if (body[0] === SPECIAL.think) {
    const close = body.indexOf(SPECIAL.endThink);
    if (close < 0) return null;
    body = body.slice(close + 1);
  }
  if (body.includes(SPECIAL.eos)) return null;
  return tok.decode(body);
}

/** The text of the quote left open at the end of `text`, or null when every quote is closed. */
function openQuote(text: string): string | null {
  let open: number | null = null;
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === '"') open = open === null ? i + 1 : null;
  }
  return open === null ? null : text.slice(open);
}

/** The marked next tokens after `generated` (ascending ids), for the goal-named `targets`. */
export function copyTokens(tok: Tokenizer, targets: readonly string[], generated: readonly number[]): number[] {
  if (targets.length === 0) return [];
  const text = instructionSoFar(tok, generated);
  if (text === null) return [];
  const root = tokenTrie(tok);
  const out = new Set<number>();
  const inside = openQuote(text);
  for (const t of targets) {
    if (inside === null) walk(root, `"${t}"`, 2, out);
    else if (t.startsWith(inside) && t.length > inside.length) walk(root, `${t.slice(inside.length)}"`, 1, out);
    else if (t === inside) walk(root, '"', 1, out);
  }
  return [...out].sort((a, b) => a - b);
}

/** copyTokens for one row's targets, as plannerDecode takes it (RowCopy). */
export function rowCopy(tok: Tokenizer, targets: readonly string[]): (generated: readonly number[]) => number[] {
  return (generated) => copyTokens(tok, targets, generated);
}

/**
 * Teacher-forced marks of a batch: flat indices into [B, C, V] of the
 * tokens marked at each completion position t (given tokens 0 … t − 1 of
 * that row), for `completion` [B, C] row-major.
 */
export function copyIndices(tok: Tokenizer, targets: readonly (readonly string[])[], completion: ArrayLike<number>, c: number): Int32Array {
  const v = tok.size;
  const out: number[] = [];
  targets.forEach((ts, r) => {
    if (ts.length === 0) return;
    const row = Array.from({ length: c }, (_, t) => completion[r * c + t]);
    for (let t = 0; t < c; t++) {
      if (t > 0 && row[t - 1] === SPECIAL.eos) break;
      for (const id of copyTokens(tok, ts, row.slice(0, t))) out.push((r * c + t) * v + id);
    }
  });
  return Int32Array.from(out);
}
