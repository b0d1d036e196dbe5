/**
 * Every token's characters (specials excluded) as one trie whose nodes list
 * the tokens ending there: walking a string through it finds, in one pass,
 * every token that spells a prefix of that string. The grammar constraint
 * and the copy marks both walk it.
 */
import type { Tokenizer } from './tokenizer';

export interface TokenNode {
  next: Map<string, TokenNode>;
  ids: number[];
}

const TOKEN_TRIES = new WeakMap<Tokenizer, TokenNode>();

export function tokenTrie(tok: Tokenizer): TokenNode {
  let root = TOKEN_TRIES.get(tok);
  if (root) return root;
  root = { next: new Map(), ids: [] };
  for (let id = tok.charBase; id < tok.size; id++) {
    let n = root;
    for (const c of tok.tokenString(id)) {
      let m = n.next.get(c);
      if (!m) n.next.set(c, (m = { next: new Map(), ids: [] }));
      n = m;
    }
    n.ids.push(id);
  }
  TOKEN_TRIES.set(tok, root);
  return root;
}
