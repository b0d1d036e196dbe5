/**
 * The project's one seeded random source. Everything stochastic (world
 * generation, sampling, shuffles, weight init) draws from a Random, so a run
 * is reproducible from its seed and does not depend on the tfjs backend.
 */
export class Random {
  private s: number;

  constructor(seed: number) {
    // Mix the seed so that nearby seeds give unrelated streams.
    this.s = hash32(seed >>> 0) || 0x9e3779b9;
  }

  /** Uniform in [0, 1). mulberry32: small, fast, good enough for simulation. */
  next(): number {
    let t = (this.s = (this.s + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** Integer in [lo, hi] inclusive. */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('Random.pick: empty list');
    return items[Math.floor(this.next() * items.length)];
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  /** Standard normal, Box-Muller. */
  normal(): number {
    const u = Math.max(this.next(), 1e-12);
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * this.next());
  }

  shuffle<T>(items: readonly T[]): T[] {
    const out = items.slice();
    for (let i = out.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1));
      [out[i], out[j]] = [out[j], out[i]];
    }
    return out;
  }

  /** The stream's whole state, so that a resumed phase can continue it exactly (coevo/phaseJournal.ts). */
  saveState(): number {
    return this.s;
  }

  /** Puts back a state saveState returned: the next draws are the ones that followed it. */
  loadState(state: number): void {
    if (!Number.isInteger(state) || state < 0 || state > 0xffffffff) throw new RangeError(`Random.loadState: a state is a 32-bit unsigned integer; got ${state}`);
    this.s = state;
  }

  /** A child stream for a named purpose, so adding draws in one place does not shift another. */
  fork(label: string | number): Random {
    return new Random(hash32(this.int(0, 0x7fffffff) ^ hashString(String(label))));
  }
}

export function hash32(x: number): number {
  x = Math.imul(x ^ (x >>> 16), 0x7feb352d);
  x = Math.imul(x ^ (x >>> 15), 0x846ca68b);
  return (x ^ (x >>> 16)) >>> 0;
}

/** FNV-1a, for turning names into seeds. */
export function hashString(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}
