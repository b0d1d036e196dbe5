/**
 * What the GRPO group inspector shows: a few GRPO groups of each planner
 * GRPO batch, kept with everything needed to explain them without the
 * models. A group is one prompt (a training state) sampled G times; each
 * sample carries its instruction, every pool grounder's point on the screen,
 * the C-DREM reward broken into its parts (METHOD.md §2) and its
 * group-normalised advantage.
 *
 * The record holds the Screen itself (plain JSON), not only the task and
 * step, so the UI draws it with the Canvas renderer as it was, even if the
 * world's code changes later. Only type imports here: the UI reads this
 * module, and it must not pull tfjs in.
 */
import type { PlanWeighting, Point } from '../learn/rewards';
import type { PlannerGrpoStep } from '../learn/plannerGrpo';
import type { PlannerState } from '../learn/plannerStates';
import type { ActionType, Box, RefStyle, Screen, Task } from '../world/types';

/** Groups recorded per GRPO batch (the first ones of the batch). */
export const GROUPS_PER_BATCH = 2;
/** At most this many groups per phase; longer phases record evenly spaced batches. */
export const MAX_GROUPS_PER_PHASE = 64;

/** One pool member: its name (e.g. 'verifier', 'grounder@0') and prior σ. */
export interface PoolMember {
  name: string;
  prior: number;
}

/** What one pool grounder did with one sampled instruction. */
export interface GroupGrounding {
  /** Its point in screen pixels, or null when it gave none (e.g. the verifier found no unique element). */
  point: Point | null;
  /** c_j ∈ [0, 1], its confidence in that point. */
  confidence: number;
  /** Whether the point is inside the true target box (always false when the step has no target box). */
  hit: boolean;
}

/** The C-DREM reward of one sample, part by part (src/learn/rewards.ts planReward). */
export interface GroupReward {
  /** r_type: 1 when the action type matches the true step's. */
  type: number;
  /** r_value: 1 when the typed value matches (token F1 > 0.5), or the action carries none. */
  value: number;
  /** r_plan = Σ_j w_j · hit_j over the pool. */
  plan: number;
  /** w_j, softmax(σ·c) under the default weighting; in pool order; empty when not grounded. */
  weights: number[];
  /** hit_j ∈ {0, 1}, in pool order. */
  hits: number[];
  /** The reward GRPO used: 0 if unparsed, or if type or value is wrong; else r_plan. */
  total: number;
}

export interface GroupSample {
  /** The instruction as the planner wrote it. */
  instruction: string;
  /** Its chain-of-thought trace, when the planner wrote one. */
  reasoning?: string;
  /** Whether the instruction parses in the grammar (unparsed ones earn 0 and are not grounded). */
  parsed: boolean;
  actionType: ActionType | null;
  /** How it refers to its target, when it names one. */
  style: RefStyle | null;
  /** One per pool member, in pool order; empty when it was not grounded. */
  groundings: GroupGrounding[];
  reward: GroupReward;
  /** (r − mean) / (std + ε) within the group; 0 for every sample of an uninformative group. */
  advantage: number;
}

/** The true next step of the group's state, as the reward compared against it. */
export interface GroupTruth {
  /** The canonical instruction (the SFT target). */
  instruction: string;
  type: ActionType;
  box?: Box;
  value?: string;
  targetId?: string;
}

export interface GroupRecord {
  runId: string;
  iteration: number;
  /** 0-based GRPO step (batch) within the phase. */
  batch: number;
  /** Index of the prompt within its batch. */
  group: number;
  task: Task;
  stepIndex: number;
  screen: Screen;
  goal: string;
  truth: GroupTruth;
  pool: PoolMember[];
  weighting: PlanWeighting;
  /** Whether the rewards differed, so the group moved the policy. */
  informative: boolean;
  samples: GroupSample[];
}

/** The batches of a phase of `steps` batches whose first groups are recorded: all, or evenly spaced ones, first and last included. */
export function recordedBatches(steps: number, perBatch = GROUPS_PER_BATCH, max = MAX_GROUPS_PER_PHASE): Set<number> {
  const slots = Math.max(1, Math.floor(max / Math.max(1, perBatch)));
  if (steps <= slots) return new Set(Array.from({ length: steps }, (_, i) => i));
  if (slots === 1) return new Set([0]);
  return new Set(Array.from({ length: slots }, (_, i) => Math.round((i * (steps - 1)) / (slots - 1))));
}

export interface GroupSource {
  runId: string;
  iteration: number;
  batch: number;
  pool: readonly PoolMember[];
  weighting: PlanWeighting;
  /** G: the step's samples come in groups of this many, one group per state. */
  groupSize: number;
  /** How many of the batch's groups to keep, from the first. */
  count: number;
}

/** The first `count` groups of one GRPO step, as records. */
export function groupRecordsOfStep(states: readonly PlannerState[], step: PlannerGrpoStep, src: GroupSource): GroupRecord[] {
  const g = src.groupSize;
  if (step.samples.length !== states.length * g) {
    throw new Error(`groupRecordsOfStep: ${step.samples.length} samples do not make ${states.length} groups of ${g}.`);
  }
  const out: GroupRecord[] = [];
  for (let s = 0; s < Math.min(src.count, states.length); s++) {
    const state = states[s];
    const box = state.step.box;
    const samples = step.samples.slice(s * g, (s + 1) * g).map((x): GroupSample => {
      const r = x.reward;
      return {
        instruction: x.instruction,
        ...(x.reasoning !== undefined ? { reasoning: x.reasoning } : {}),
        parsed: r.parsed !== null,
        actionType: r.parsed?.action ?? null,
        style: r.parsed?.ref?.style ?? null,
        groundings: x.groundings.map((gr, j) => ({
          point: gr.point ? { x: gr.point.x, y: gr.point.y } : null,
          confidence: gr.confidence,
          hit: r.hits[j] === 1,
        })),
        reward: { type: r.rType, value: r.rValue, plan: r.rPlan, weights: [...r.weights], hits: [...r.hits], total: r.total },
        advantage: x.advantage,
      };
    });
    out.push({
      runId: src.runId,
      iteration: src.iteration,
      batch: src.batch,
      group: s,
      task: state.task,
      stepIndex: state.stepIndex,
      screen: state.screen,
      goal: state.task.goal,
      truth: {
        instruction: state.instruction,
        type: state.step.type,
        ...(box ? { box: { ...box } } : {}),
        ...(state.step.value !== undefined ? { value: state.step.value } : {}),
        ...(state.step.targetId !== undefined ? { targetId: state.step.targetId } : {}),
      },
      pool: src.pool.map(({ name, prior }) => ({ name, prior })),
      weighting: src.weighting,
      // groupAdvantages gives an uninformative group all-zero advantages, and an informative one at least one non-zero.
      informative: samples.some((x) => x.advantage !== 0),
      samples,
    });
  }
  return out;
}

