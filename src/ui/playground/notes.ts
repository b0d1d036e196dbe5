/** The Playground's explanations, kept as data beside the components that show them. */
export const PLAYGROUND_NOTES = {
  title: 'Playground: try the agents yourself',
  modes: {
    agents: { label: 'Watch the agents', lead: 'The planner reads the goal, a list of what is on the screen and its earlier instructions, and writes one instruction; the grounder turns it into a point; the world acts there. Step through a task, or let it play.' },
    ask: { label: 'Ask the grounder', lead: 'Type any instruction and see where the grounder looks on this screen. The heat map updates as you type.' },
    upload: { label: 'Your screenshot', lead: 'Drop in your own screenshot (any image your browser reads). The grounder learnt on the world’s small screens, whose text is about 8 px tall: your screenshot is scaled until its text is about that size, cut into overlapping screens of the world’s size, and each is grounded; the best-scoring point is given in your image’s pixels.' },
  },
  base: (preset: string, bases: { shipped: readonly string[]; missing: readonly string[] }) =>
    `No run is selected, so these are the base models of the ${preset} preset that ship with the app (public/base/, made by npm run pretrain): the ${bases.shipped.join(' and ')} before any co-evolution${bases.missing.length > 0 ? `; no base ${bases.missing.join(' or ')} ships for ${preset} yet, so that one is untrained, with random weights` : ''}. Pick a run in the Loop view (or start one) to see what co-evolution changed.`,
  untrained: (preset: string) =>
    `No run is selected, so these are untrained models of the ${preset} preset with random weights: the heat map is noise and the planner writes gibberish. Start a run in the Loop view (or pick one) to see what training did.`,
  oracle: 'The oracle writes the task’s true next instruction, so you watch the grounder alone.',
  ends: {
    goal: 'Goal reached: the task’s goal predicate holds.',
    done: 'The planner said “done” before the goal was reached: a failed episode.',
    limit: 'Step limit reached without the goal: a failed episode.',
  },
} as const;
