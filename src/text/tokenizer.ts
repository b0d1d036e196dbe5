/**
 * The tokenizer both agents share. Text is cut into pieces (pieces.ts); a
 * piece in the vocabulary is one token, any other piece is spelled with
 * character tokens (typed values, names of unseen sites), so every text
 * encodes and decode(encode(text)) === text for any text over CHARSET.
 *
 * Token ids: specials first (SPECIAL), then the characters of CHARSET, then
 * the vocabulary's pieces. Padding buckets keep tensor shapes fixed.
 *
 * For the grounder, every token also carries the letters of the word it
 * belongs to (wordChars), so a word it never saw as a token can still be
 * matched against what it reads on the screen.
 */
import { splitPieces } from './pieces';
import type { VocabData } from './vocabBuild';

export const SPECIAL_TOKENS = ['<pad>', '<bos>', '<eos>', '<sep>', '<unk>', '<think>', '</think>'] as const;
export type SpecialToken = (typeof SPECIAL_TOKENS)[number];

/** Ids of the special tokens. `unk` stands for a character outside CHARSET (decodes as U+FFFD). */
export const SPECIAL = { pad: 0, bos: 1, eos: 2, sep: 3, unk: 4, think: 5, endThink: 6 } as const;

/** Characters the fallback can spell: printable ASCII, newline, and the non-ASCII the world's data uses. */
export const CHARSET: readonly string[] = [
  '\n',
  ...Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i)),
  ...'·×…€£¥–—‘’“”',
  ...Array.from({ length: 64 }, (_, i) => String.fromCharCode(0xc0 + i)),
];

/** Fixed sequence lengths: pad to the smallest that fits, so shapes (and compiled kernels) repeat. */
export const BUCKETS: readonly number[] = [8, 16, 24, 32, 48, 64, 96, 128, 192, 256, 384, 512];

export function bucketFor(length: number, buckets: readonly number[] = BUCKETS): number {
  const b = buckets.find((x) => x >= length);
  if (b === undefined) throw new Error(`bucketFor: ${length} tokens exceed the largest bucket ${buckets[buckets.length - 1]}`);
  return b;
}

/** `ids` padded on the right (or cut) to `length`. */
export function padRight(ids: readonly number[], length: number, pad: number = SPECIAL.pad): number[] {
  const out = ids.slice(0, length);
  while (out.length < length) out.push(pad);
  return out;
}

/** `ids` padded on the left to `length`; when too long, the first ids are dropped. */
export function padLeft(ids: readonly number[], length: number, pad: number = SPECIAL.pad): number[] {
  const cut = ids.length > length ? ids.slice(ids.length - length) : ids.slice();
  return [...new Array<number>(length - cut.length).fill(pad), ...cut];
}

/**
 * The grounder's letter alphabet: 0 pads, 1–26 are a–z (case folded: the
 * screen may show "SEND" for "send"), 27–36 digits, 37 anything else.
 */
export const WORD_CHAR_CLASSES = 38;

function wordCharClass(c: string): number {
  const code = c.toLowerCase().charCodeAt(0);
  if (code >= 97 && code <= 122) return code - 96;
  if (code >= 48 && code <= 57) return code - 48 + 27;
  return 37;
}

/** Letter classes of one piece's word (its leading space dropped), cut or padded to `length`. */
export function wordChars(piece: string, length: number): number[] {
  const word = [...piece.trim()];
  return Array.from({ length }, (_, i) => (i < word.length ? wordCharClass(word[i]) : 0));
}

export interface EncodedText {
  ids: number[];
  /** For each token, the index of the piece it spells (char fallback: several tokens share one piece). */
  pieceOf: number[];
  pieces: string[];
}

export class Tokenizer {
  readonly size: number;
  readonly charBase = SPECIAL_TOKENS.length;
  readonly pieceBase = SPECIAL_TOKENS.length + CHARSET.length;
  private readonly pieceId = new Map<string, number>();
  private readonly charId = new Map<string, number>();
  private readonly strings: string[];

  constructor(readonly vocab: VocabData) {
    this.strings = [...SPECIAL_TOKENS, ...CHARSET, ...vocab.pieces];
    CHARSET.forEach((c, i) => this.charId.set(c, this.charBase + i));
    vocab.pieces.forEach((p, i) => this.pieceId.set(p, this.pieceBase + i));
    this.size = this.strings.length;
  }

  /** True for ids that spell a single character (the fallback). */
  isChar(id: number): boolean {
    return id >= this.charBase && id < this.pieceBase;
  }

  /** The token's text; specials give their name (e.g. "<eos>"). */
  tokenString(id: number): string {
    const s = this.strings[id];
    if (s === undefined) throw new Error(`Tokenizer: no token ${id} (size ${this.size})`);
    return s;
  }

  encodeDetailed(text: string): EncodedText {
    const ids: number[] = [];
    const pieceOf: number[] = [];
    const pieces = splitPieces(text);
    pieces.forEach((p, k) => {
      const id = this.pieceId.get(p);
      if (id !== undefined) {
        ids.push(id);
        pieceOf.push(k);
        return;
      }
      for (const c of p) {
        ids.push(this.charId.get(c) ?? SPECIAL.unk);
        pieceOf.push(k);
      }
    });
    return { ids, pieceOf, pieces };
  }

  encode(text: string): number[] {
    return this.encodeDetailed(text).ids;
  }

  /** Text of the ids; pad, bos, eos and sep are skipped, think tags kept, unk becomes U+FFFD. */
  decode(ids: readonly number[]): string {
    let out = '';
    for (const id of ids) {
      if (id === SPECIAL.pad || id === SPECIAL.bos || id === SPECIAL.eos || id === SPECIAL.sep) continue;
      out += id === SPECIAL.unk ? '\uFFFD' : this.tokenString(id);
    }
    return out;
  }

  /**
   * Fixed-size input for the grounder: `length` token ids (bos first, padded
   * on the right) and for each token the letter classes of its word,
   * `charLength` per token, flattened row-major ([length, charLength]).
   */
  encodeWithChars(text: string, length: number, charLength: number): { ids: Int32Array; chars: Int32Array } {
    const enc = this.encodeDetailed(text);
    const ids = new Int32Array(length);
    const chars = new Int32Array(length * charLength);
    ids[0] = SPECIAL.bos;
    const n = Math.min(enc.ids.length, length - 1);
    for (let t = 0; t < n; t++) {
      ids[t + 1] = enc.ids[t];
      chars.set(wordChars(enc.pieces[enc.pieceOf[t]], charLength), (t + 1) * charLength);
    }
    return { ids, chars };
  }
}
