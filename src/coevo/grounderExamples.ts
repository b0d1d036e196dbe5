/**
 * What a grounder phase (sft-grounder, grounder-train) trained on, as its
 * summary records it and the report reads it: examples from the loop's own
 * data (Dk) and from real-DOM training pages (phases/realMix.ts), each SFT
 * and GRPO step counting its batch; or why no pages were mixed in.
 */
export const LOOP_EXAMPLES = 'loop_examples';
export const REAL_EXAMPLES = 'real_examples';
export const REAL_MIX_SKIPPED = 'real_skipped';

export interface GrounderExampleCounts {
  loop: number;
  real: number;
  /** Why the phase had no real pages although its config asked for some. */
  real_skipped?: string;
}

/** The counts a grounder phase's summary holds; null for runs from before they were kept. */
export function grounderExamplesFromSummary(summary: Record<string, number | string>): GrounderExampleCounts | null {
  const loop = summary[LOOP_EXAMPLES];
  if (typeof loop !== 'number') return null;
  const real = summary[REAL_EXAMPLES];
  const skipped = summary[REAL_MIX_SKIPPED];
  return { loop, real: typeof real === 'number' ? real : 0, ...(typeof skipped === 'string' ? { real_skipped: skipped } : {}) };
}
