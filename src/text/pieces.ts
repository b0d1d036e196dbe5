/**
 * How text is cut before tokens are looked up: a word keeps the one space
 * before it (" send", as in SentencePiece), punctuation stands alone, and
 * whitespace runs are pieces of their own. Concatenating the pieces gives
 * back the text exactly, which is what makes decode(encode(x)) === x.
 */
const PIECE = / ?[\p{L}\p{N}]+| ?[^\s\p{L}\p{N}]|\s+/gu;

export function splitPieces(text: string): string[] {
  return text.match(PIECE) ?? [];
}
