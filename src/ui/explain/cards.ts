/**
 * Explain mode's cards, kept as data: one per phase of the loop and one per
 * view, in the order a learner pages through them. A card may light parts of
 * the loop diagram while it shows (enter/leave hooks).
 */
import type { PhaseName } from '../../coevo/records';
import type { ViewName } from '../url';
import { PHASE_INFO } from '../loop/phases';

/** Parts of the loop diagram a card can point at: a phase, or one of the two agents. */
export type DiagramPart = PhaseName | 'planner' | 'grounder';

/** What a card's hooks may change while it shows. */
export interface ExplainContext {
  highlight(parts: readonly DiagramPart[]): void;
}

export interface ExplainCard {
  id: string;
  about: { phase: PhaseName } | { view: ViewName };
  title: string;
  /** Plain sentences; a blank line starts a new paragraph. */
  body: string;
  /** Diagram parts to highlight while the card shows (what the default enter hook lights). */
  highlight?: readonly DiagramPart[];
  enter?(ctx: ExplainContext): void;
  leave?(ctx: ExplainContext): void;
}

const phase = (p: PhaseName, title: string, body: string, highlight: readonly DiagramPart[]): ExplainCard => ({
  id: `phase:${p}`,
  about: { phase: p },
  title,
  body,
  highlight: [p, ...highlight],
});

const view = (v: ViewName, title: string, body: string, highlight: readonly DiagramPart[] = []): ExplainCard => ({
  id: `view:${v}`,
  about: { view: v },
  title,
  body,
  highlight,
});

export const CARDS: readonly ExplainCard[] = [
  view(
    'loop',
    'Two agents that teach each other',
    'A GUI agent here is two small models. The planner reads the goal and what is on the screen and writes one instruction, such as "click the Send button". The grounder looks at the pixels and points at where that instruction means.\n\nCo-evolution trains them in turns: the grounder scores the planner\'s instructions, and the planner\'s best instructions become new training data for the grounder.',
    ['planner', 'grounder'],
  ),
  phase(
    'seed-data',
    'Seed data D₀',
    'Scripted oracle runs solve tasks in the GUI world. For each step, a pool of instruction writers (in several styles, some deliberately wrong) describes the action, and a pool of verifiers keeps only the instructions that point at the right element.\n\nWhat survives is D₀, the seed dataset. Every sample remembers who wrote it.',
    [],
  ),
  phase(
    'sft-planner',
    'Planner SFT: π₀',
    'The planner learns to imitate D₀: given the goal, the screen\'s elements and the steps so far, predict the next instruction word by word. This supervised fine-tuning gives the first planner, π₀.\n\nA run from the shipped base models skips it by default: the base planner already learned from the oracle\'s steps, and imitating D₀\'s mixed wording made it worse on new sites. Then π₀ is the base planner.',
    ['planner'],
  ),
  phase(
    'sft-grounder',
    'Grounder SFT: φ₀',
    'The grounder learns from the same samples: given a screenshot and an instruction, put the most probability on the cells of the target element. Its per-cell probabilities are a heat map over the screen; the peak is where it clicks.',
    ['grounder'],
  ),
  phase(
    'planner-grpo',
    'Planner GRPO, rewarded by grounding',
    'For each training state the planner samples a group of instructions. Each is rewarded by how well a pool of grounders can act on it: right action type, right value, and a weighted vote of which grounders hit the true element.\n\nGRPO compares each sample with its own group: better than the group\'s mean pushes its words up, worse pushes them down. A group where every sample scored the same teaches nothing, so the phase first picks, among a few candidate states per prompt, those where the planner is least sure of its own best instruction.',
    ['planner', 'grounder'],
  ),
  phase(
    'distill',
    'Distilled instructions Eₖ',
    'The new planner writes instructions on fresh training states. Those the verifier pool grounds correctly, and that pass curation (not too easy, not misaligned, not duplicates), become Eₖ. They join the dataset: Dₖ = Dₖ₋₁ ∪ Eₖ.\n\nThis is how the planner teaches the grounder its own way of speaking.',
    ['planner'],
  ),
  phase(
    'grounder-train',
    'Grounder training on Dₖ',
    'The grounder continues training on the grown dataset, now with the planner\'s distilled instructions in it. An attention filter can skip samples where the previous grounder already looked at the right place.',
    ['grounder'],
  ),
  phase(
    'evaluate',
    'Evaluate every split',
    'The planner and grounder together try held-out tasks on every benchmark suite and split: same sites, new sites, new domains. A step succeeds when the planner\'s instruction has the right action and the grounder\'s point lands in the right element.\n\nIf co-evolution works, each iteration scores at least as well as the one before.',
    ['planner', 'grounder'],
  ),
  view(
    'grpo',
    'Inside one GRPO group',
    'One training state at a time: its screen and goal, the instructions the planner sampled, where each grounder of the pool pointed, and how the reward and the group-normalised advantage came out. Samples with a positive advantage were reinforced, those with a negative one discouraged.',
    ['planner-grpo'],
  ),
  view(
    'grounder',
    'Where the grounder looks',
    'The heat map is the grounder\'s belief over the screen for one instruction; the box is the true target. Compare the current grounder with the one before it to see what an iteration of training changed.',
    ['grounder'],
  ),
  view(
    'data',
    'The dataset and where it came from',
    'Every sample carries its provenance: seed writer or planner of iteration k, and every curation decision with its reason. Watch the mix of referring styles shift as the planner learns which instructions the grounder understands.',
    ['seed-data', 'distill'],
  ),
  view(
    'metrics',
    'Did it get better?',
    'Per-iteration scores for every suite and split, and the training curves behind them: loss, mean reward, KL to the reference, and the share of informative GRPO groups. Compare a run with its no-co-evolution ablation to see what the loop adds.',
    ['evaluate'],
  ),
  view(
    'playground',
    'Try the agents yourself',
    'Pick a task and watch the current planner and grounder solve it step by step, or type your own instruction over a screen and see where the grounder looks. You can also drop in a screenshot of your own.',
  ),
  view(
    'offsite',
    'Tuning on private data without the full model',
    'Offsite tuning (ScaleOT) splits the work between two owners who do not trust each other. The model owner ships a lossy emulator: some middle units are replaced by small harmonizers, chosen by how little the model misses them, and some are kept at reduced rank. The data owner tunes only the end units on it with private tasks and sends them back.\n\nRead the chart from the references: plug-in (the adapters in the full model) should come close to full fine-tuning, while the emulator alone stays below it. That gap is what keeps the full model worth owning.',
  ),
  view(
    'world',
    'The GUI world',
    'Every screen is drawn procedurally: web pages and phone apps across several domains, each in several visual variants, with real widgets that change state. The oracle knows the right next step, which is what makes rewards and metrics exact.',
  ),
];

export function cardIndex(id: string): number {
  return CARDS.findIndex((c) => c.id === id);
}

export function cardForPhase(p: PhaseName): ExplainCard {
  const card = CARDS.find((c) => 'phase' in c.about && c.about.phase === p);
  if (!card) throw new Error(`No explanation card for phase ${p}; add one to src/ui/explain/cards.ts.`);
  return card;
}

export function cardForView(v: ViewName): ExplainCard {
  const card = CARDS.find((c) => 'view' in c.about && c.about.view === v);
  if (!card) throw new Error(`No explanation card for view ${v}; add one to src/ui/explain/cards.ts.`);
  return card;
}

/** The card explain mode opens on: the running phase's on the Loop view (its intro when no run), otherwise the view's. */
export function cardFor(viewName: ViewName, p: PhaseName | null): ExplainCard {
  if (viewName === 'loop') return p ? cardForPhase(p) : cardForView('loop');
  return cardForView(viewName);
}

/** Shows a card: its own enter hook, or by default its highlight. */
export function enterCard(card: ExplainCard, ctx: ExplainContext): void {
  if (card.enter) card.enter(ctx);
  else ctx.highlight(card.highlight ?? []);
}

export function leaveCard(card: ExplainCard, ctx: ExplainContext): void {
  if (card.leave) card.leave(ctx);
  else ctx.highlight([]);
}

/** The paragraphs of a card's body. */
export function paragraphs(card: ExplainCard): string[] {
  return card.body.split(/\n\s*\n/).map((p) => p.trim()).filter(Boolean);
}

/** The view a card describes: a view card's own, a phase card's where that phase's output shows (PHASE_INFO). */
export function cardView(card: ExplainCard): ViewName {
  return 'view' in card.about ? card.about.view : PHASE_INFO[card.about.phase].view;
}

const VIEW_TITLE: Record<ViewName, string> = {
  loop: 'Loop', grpo: 'GRPO', grounder: 'Grounder', data: 'Data', metrics: 'Metrics', playground: 'Playground', offsite: 'Offsite', world: 'World',
};

/** The card's link text, e.g. "Open the Data view". */
export function cardLink(card: ExplainCard): string {
  return `Open the ${VIEW_TITLE[cardView(card)]} view`;
}
