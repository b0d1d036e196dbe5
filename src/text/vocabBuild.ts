/**
 * Builds the vocabulary from the world's language (corpus.ts). Walking the
 * world takes seconds, so scripts/build-vocab.ts writes the result to
 * src/text/vocab.json once, and a test checks that the file is up to date:
 * that it holds every piece the world now needs. It may keep a few pieces a
 * world change made rare: dropping one would shift the ids after it and void
 * the shipped base models' embeddings.
 */
import { grammarTexts, worldTexts } from './corpus';
import { splitPieces } from './pieces';

export interface VocabData {
  version: 1;
  /** Pieces seen at least this often in the corpus get their own token (grammar words always do). */
  minCount: number;
  /** Word pieces: a word with its leading space (" send"), punctuation, or a whitespace run. */
  pieces: string[];
}

export const VOCAB_MIN_COUNT = 2;

export function buildVocabData(): VocabData {
  const counts = new Map<string, number>();
  for (const t of worldTexts()) for (const p of splitPieces(t)) counts.set(p, (counts.get(p) ?? 0) + 1);
  const keep = new Set([...counts].filter(([, n]) => n >= VOCAB_MIN_COUNT).map(([p]) => p));
  // Grammar words in both spacings, so every form of every instruction is in the vocabulary.
  for (const t of grammarTexts()) for (const p of splitPieces(t.trim())) {
    const bare = p.startsWith(' ') ? p.slice(1) : p;
    if (bare.trim() === '') continue;
    keep.add(bare);
    keep.add(' ' + bare);
  }
  // Code-point order, not locale order, so every machine writes the same file.
  const pieces = [...keep].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return { version: 1, minCount: VOCAB_MIN_COUNT, pieces };
}

/** How `committed` covers a fresh build: pieces the world now needs that it lacks, and pieces it keeps that the world no longer needs. */
export function vocabCoverage(committed: VocabData, built: VocabData): { missing: string[]; kept: string[] } {
  const has = new Set(committed.pieces);
  const needed = new Set(built.pieces);
  return { missing: built.pieces.filter((p) => !has.has(p)), kept: committed.pieces.filter((p) => !needed.has(p)) };
}
