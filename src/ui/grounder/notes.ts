/** The Grounder view's explanations, kept as data beside the components that show them. */
export const GROUNDER_NOTES = {
  title: 'Grounder: where it looks',
  lead:
    'The grounder turns a screenshot and one instruction into a heat map over the screen’s 8-pixel cells (a softmax: the shares add up to 100%) and clicks its brightest cell — the greedy point. ' +
    'GRPO training samples points from the same map instead; each earns the dense point reward R = 1 + 2·(inside the box + 1 − (d/d_max)²).',
  emptyRun: 'No run yet: start one in the Loop view. Without a run, the Playground shows the base models that ship for the tiny preset.',
  noSamples: 'This run has no samples with a target box yet: its seed-data phase writes D0. Step the loop in the Loop view, then come back.',
  current: 'The grounder after this iteration’s training on Dk.',
  previous: 'The grounder before it: φ(k−1), the one whose heat map the attention filter judges Dk’s samples by.',
  attention:
    'SE-GUI’s attention filter (τ = 0.2): the previous grounder’s map, divided by its maximum, must exceed τ somewhere in the true box, and its mean inside the box must exceed its mean over the screen. Otherwise the sample gets no loss.',
  attentionOnCurrent: 'Computed here on the map shown; training judges Dk with φ(k−1) — switch to “previous” to see that decision.',
  attentionOff: 'This run trains with the attention filter off, so every kept sample carries loss.',
} as const;
