/**
 * The fixture pages: page `seed` is one pattern in one look, its words and
 * arrangement drawn from the seed, its instructions printed in the world's
 * grammar. Seeded and deterministic. The split follows the world's rule:
 * pages with seeds at or above TEST_SEED_BASE are held out (never trained
 * on); the others are training pages. Both splits cycle through every
 * pattern × look, so the held-out pages share patterns and looks with the
 * training pages but not their words, arrangement or seeds.
 */
import { hashString, Random } from '../learn/random';
import { printInstruction, phrasingCount, roundTrips } from '../text/grammar';
import { SCREEN_SIZE, type Instruction } from '../world/types';
import { LOOK_SPECS, lookCss } from './looks';
import { Markup } from './markup';
import type { Plan } from './patterns/common';
import { PATTERN_FNS } from './patterns';
import { LOOKS, PATTERNS, type RealInstruction, type RealPage, type RealSplit } from './types';

/**
 * The world's TEST_SEED_BASE (suites.ts), repeated rather than imported so
 * the page can load this module without the whole world; a unit test keeps
 * them equal.
 */
export const TEST_SEED_BASE = 1_000_000;

/** Pages in the held-out suite every evaluation runs: each pattern × look twice. */
export const SUITE_PAGES = 2 * PATTERNS.length * LOOKS.length;

export function splitOfSeed(seed: number): RealSplit {
  return seed >= TEST_SEED_BASE ? 'held-out' : 'train';
}

/** Refuses a seed that is not a training page's: whatever draws pages for training calls this, so the held-out suite never reaches it. */
export function checkTrainingSeed(seed: number): void {
  if (!Number.isSafeInteger(seed) || seed < 0 || seed >= TEST_SEED_BASE) {
    throw new Error(`real training pages have seeds 0 ≤ seed < ${TEST_SEED_BASE} (the held-out suite starts there); got ${seed}.`);
  }
}

/** A phrasing of the plan that survives print → parse (the world's writers keep the same rule). */
function phrase(plan: Plan, rng: Random): Instruction {
  const base: Instruction = plan.type
    ? { action: 'TYPE', ref: plan.ref, value: plan.type.value, phrasing: 0 }
    : { action: 'CLICK', ref: plan.ref, phrasing: 0 };
  const n = phrasingCount(base.action, plan.ref);
  const start = rng.int(0, n - 1);
  for (let k = 0; k < n; k++) {
    const i = { ...base, phrasing: (start + k) % n };
    if (roundTrips(i)) return i;
  }
  throw new Error(`real screens: no phrasing of ${JSON.stringify(plan.ref)} survives print and parse`);
}

export function realPage(seed: number): RealPage {
  if (!Number.isInteger(seed) || seed < 0) throw new Error(`realPage: the seed must be a whole number ≥ 0; got ${seed}.`);
  const split = splitOfSeed(seed);
  const k = split === 'held-out' ? seed - TEST_SEED_BASE : seed;
  const pattern = PATTERNS[k % PATTERNS.length];
  const look = LOOKS[Math.floor(k / PATTERNS.length) % LOOKS.length];
  const rng = new Random(hashString(`real-screen/${seed}`));
  const m = new Markup();
  const out = PATTERN_FNS[pattern](m, rng);
  const { width, height } = SCREEN_SIZE.web;
  const instructions: RealInstruction[] = out.plans.map((plan) => {
    const instruction = phrase(plan, rng);
    return { style: plan.style, targetId: plan.targetId, instruction, text: printInstruction(instruction) };
  });
  return {
    id: `rs-${split}-${seed}`,
    seed,
    split,
    look,
    pattern,
    font: LOOK_SPECS[look].font,
    width,
    height,
    css: lookCss(look, width, height),
    html: `<div class="rs-page look-${look}">${out.html}</div>`,
    elements: m.elements,
    instructions,
  };
}

/** `count` pages of a split, seeds counted up from the split's first seed. */
export function realPages(split: RealSplit, count: number, first = 0): RealPage[] {
  const base = split === 'held-out' ? TEST_SEED_BASE : 0;
  return Array.from({ length: count }, (_, i) => realPage(base + first + i));
}

/** The held-out suite an evaluation runs. */
export function realScreenSuite(count = SUITE_PAGES): RealPage[] {
  return realPages('held-out', count);
}
