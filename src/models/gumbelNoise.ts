/**
 * Gumbel noise for sampling by Gumbel-max: token argmax(logit / T + g) is a
 * draw from softmax(logit / T), and with the same g over a smaller allowed
 * set it is a draw from the distribution renormalised over that set. The
 * noise is a hash of (seed, row, step, token), not a stream: the host's
 * sampler and the device's proposals (plannerDecode.ts) read the same value
 * for the same slot whatever order they visit the slots in, and the host
 * computes it only for the tokens a constraint leaves open.
 */

/** A 32-bit finaliser (murmur3's constants): every input bit moves about half the output bits. */
function mix(x: number): number {
  x ^= x >>> 16;
  x = Math.imul(x, 0x85ebca6b);
  x ^= x >>> 13;
  x = Math.imul(x, 0xc2b2ae35);
  x ^= x >>> 16;
  return x >>> 0;
}

/** g = −log(−log u), with u in (0, 1) from the hash of the slot. */
export function gumbelAt(seed: number, row: number, step: number, token: number): number {
  const h = mix(seed ^ mix(row ^ mix(step ^ mix(token + 0x9e3779b9))));
  return -Math.log(-Math.log((h + 0.5) / 4294967296));
}

/** The noise of every token of one (row, step), as the device adds it. */
export function gumbelRow(seed: number, row: number, step: number, vocab: number, out = new Float32Array(vocab)): Float32Array {
  for (let i = 0; i < vocab; i++) out[i] = gumbelAt(seed, row, step, i);
  return out;
}
