/**
 * One step of the planner and grounder acting in the world, for the
 * Playground: the planner writes an instruction for the task's goal, the
 * screen's description and the earlier instructions (greedy decoding, as the
 * evaluation does), the grounder turns it into a point with its heat map,
 * and the world executes the action there. The same rules as online
 * evaluation (evaluateOnline.ts runEpisodes), one step at a time, and
 * stateless: the world is rebuilt by replaying the earlier actions, so the
 * page holds the episode and the worker holds nothing.
 */
import { printInstruction, parseInstruction } from '../text/grammar';
import type { Tokenizer } from '../text/tokenizer';
import { describeScreen } from '../world/describe';
import { act, createWorld, screenOf, type WorldState } from '../world/env';
import { nextStep } from '../world/play';
import { goalReached } from '../world/tasks';
import type { Action, Box, Screen, Task } from '../world/types';
import type { Paint } from '../learn/stepCheck';
import { groundOnce, type GroundOnceResult } from '../learn/groundOnce';
import type { Random } from '../learn/random';
import { decodeInstructions, type GrounderModel, type PlannerModel } from './evaluate';
import { actionOf, needsPoint, stepLimit, type EpisodeEnd } from './evaluateOnline';

/** A step already taken: what the planner wrote and what the world executed (null: nothing could be done). */
export interface TakenStep {
  instruction: string;
  action: Action | null;
}

export interface AgentStepInput {
  task: Task;
  /** The episode so far, oldest first. */
  taken: readonly TakenStep[];
  /** The planner model, or 'oracle' for the task's true next instruction (to watch the grounder alone). */
  planner: PlannerModel | 'oracle';
  grounder: GrounderModel;
  tok: Tokenizer;
  paint: Paint;
  /** Points sampled from the heat map besides the greedy one (default 0). */
  samples?: number;
  rng?: Random;
}

export interface AgentStepResult {
  /** 0-based number of this step in the episode. */
  index: number;
  screen: Screen;
  instruction: string;
  /** False when the instruction does not parse: the step changes nothing. */
  parsed: boolean;
  /** The grounder's answer, for instructions that need a point. */
  grounding: GroundOnceResult | null;
  action: Action | null;
  next: Screen;
  /** How the episode ended with this step; null while it goes on. */
  end: EpisodeEnd | null;
  limit: number;
  /** The oracle's next step from here, when the episode is still on its path (its instruction and target box). */
  truth: { instruction: string; box?: Box } | null;
}

/** The world after the steps taken; throws when the episode already ended. */
function replay(task: Task, taken: readonly TakenStep[]): WorldState {
  let state = createWorld(task);
  for (const s of taken) {
    if (goalReached(task, state) || state.done) throw new Error('This episode has already ended; reset it to play the task again.');
    if (s.action) state = act(state, s.action);
  }
  if (goalReached(task, state) || state.done) throw new Error('This episode has already ended; reset it to play the task again.');
  return state;
}

export async function agentStep(input: AgentStepInput): Promise<AgentStepResult> {
  const { task, taken, tok } = input;
  const limit = stepLimit(task);
  if (taken.length >= limit) throw new Error(`This episode has used its ${limit} steps; reset it to play the task again.`);
  const state = replay(task, taken);
  const screen = screenOf(state);
  const oracleNext = nextStep({ task, state, history: [] });
  const truth = oracleNext.kind === 'step' ? { instruction: printInstruction(oracleNext.step.instruction), box: oracleNext.step.box } : null;

  let instruction: string;
  if (input.planner === 'oracle') {
    if (!truth) throw new Error('The oracle has no next step from here (an earlier step left its path); reset the episode, or let the planner write the instructions.');
    instruction = truth.instruction;
  } else {
    const parts = { goal: task.goal, screen: describeScreen(screen), history: taken.map((s) => s.instruction) };
    [instruction] = await decodeInstructions(input.planner, tok, [{ parts, screen }], 1, { constrained: true });
  }

  const parsed = parseInstruction(instruction);
  let grounding: GroundOnceResult | null = null;
  if (parsed && needsPoint(parsed)) {
    grounding = await groundOnce(
      input.grounder.params,
      input.grounder.cfg,
      tok,
      { image: input.paint(screen), platform: screen.platform, instruction },
      { samples: input.samples ?? 0, rng: input.rng, box: truth?.box },
    );
  }
  const action = parsed ? actionOf(parsed, grounding ? { x: grounding.greedy.x, y: grounding.greedy.y } : null) : null;
  const after = action ? act(state, action) : state;
  const end: EpisodeEnd | null = goalReached(task, after) ? 'goal' : action?.type === 'DONE' ? 'done' : taken.length + 1 >= limit ? 'limit' : null;
  return { index: taken.length, screen, instruction, parsed: parsed !== null, grounding, action, next: screenOf(after), end, limit, truth };
}
