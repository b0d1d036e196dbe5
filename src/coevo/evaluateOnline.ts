/**
 * The agent as the evaluation sees it, and online task success: a planner
 * and a grounder acting in the executable world until the goal holds, the
 * planner says DONE, or a step limit.
 *
 * `Agent` takes whole batches (many states at once) so a neural agent can
 * run one fixed-shape forward per batch; stub agents (an oracle, a verifier)
 * implement the same interface, which is what lets the scoring be tested
 * exactly without models.
 *
 * An episode also ends as a success as soon as the goal predicate holds:
 * the oracle's trajectories have no DONE step, so a planner trained on them
 * never learns to say DONE, and continuing past the goal would only give a
 * stray action the chance to undo it. A DONE before the goal is a failure.
 */
import { hasRef, parseInstruction } from '../text/grammar';
import { act, createWorld, screenOf, type WorldState } from '../world/env';
import { goalReached, oracle } from '../world/tasks';
import type { Action, Instruction, Platform, Screen, Task } from '../world/types';
import type { Point } from '../learn/rewards';
import type { Random } from '../learn/random';
import type { ReadingFigures } from '../learn/readingProbe';

/** One state the planner must write the next instruction for. */
export interface PlanQuery {
  /** The task; a neural planner reads only its goal (stub agents may use the rest). */
  task: Task;
  screen: Screen;
  /** Earlier instructions of this episode (offline: the true previous steps), oldest first. */
  history: readonly string[];
}

export interface GroundQuery {
  screen: Screen;
  instruction: string;
}

/** How to sample instead of decoding greedily: the temperature, and the seeded source every draw comes from. */
export interface Sampling {
  temperature: number;
  rng: Random;
}

export interface Agent {
  /** The next instruction text for each query, in order. */
  plan(queries: readonly PlanQuery[]): Promise<string[]>;
  /** One sampled instruction per query, as the loop's GRPO would draw it; agents that only plan greedily leave it out. */
  sample?(queries: readonly PlanQuery[], sampling: Sampling): Promise<string[]>;
  /** Whether each query's prompt had to be cut to fit the planner; agents without a prompt leave it out. */
  promptCut?(queries: readonly PlanQuery[]): boolean[];
  /** A point (screen pixels) for each query, in order; null when it gives none. */
  ground(queries: readonly GroundQuery[]): Promise<(Point | null)[]>;
  /** What the grounder reads on each screen's cells, against the layout's labels (the reading probe); agents without a reader leave it out. */
  read?(screens: readonly Screen[]): Promise<ReadingFigures>;
}

/** Whether executing the instruction needs a point from the grounder. */
export function needsPoint(i: Instruction): boolean {
  return hasRef(i.action);
}

/**
 * The world action an instruction and a point make: the point for CLICK, and
 * for TYPE/SELECT (which focus or open the element under it first, as the
 * oracle's actions do). Null when a needed point is missing.
 */
export function actionOf(i: Instruction, point: Point | null): Action | null {
  switch (i.action) {
    case 'CLICK':
      return point ? { type: 'CLICK', x: point.x, y: point.y } : null;
    case 'TYPE':
      return point ? { type: 'TYPE', text: i.value ?? '', x: point.x, y: point.y } : null;
    case 'SELECT':
      return point ? { type: 'SELECT', option: i.value ?? '', x: point.x, y: point.y } : null;
    case 'SCROLL':
      return { type: 'SCROLL', direction: i.direction ?? 'down' };
    case 'BACK':
      return { type: 'BACK' };
    case 'OPEN_APP':
      return { type: 'OPEN_APP', app: i.app ?? '' };
    case 'DONE':
      return { type: 'DONE' };
  }
}

/** Twice the oracle's length plus two: room to recover from a few wrong steps, not to wander. */
export function stepLimit(task: Task): number {
  return 2 * oracle(task).length + 2;
}

export type EpisodeEnd = 'goal' | 'done' | 'limit';

export interface EpisodeResult {
  taskId: string;
  platform: Platform;
  success: boolean;
  end: EpisodeEnd;
  /** Instructions the planner wrote, one per step taken. */
  instructions: string[];
  /** Where each step acted (null for actions without a point, or when no action could be made). */
  points: (Point | null)[];
  limit: number;
}

interface Episode {
  task: Task;
  state: WorldState;
  result: EpisodeResult;
}

/**
 * Runs every task as an episode, all in lockstep: each round plans for every
 * live episode in one call and grounds every instruction that needs a point
 * in one call. An unparseable instruction, or one without a needed point,
 * is a step that changes nothing.
 */
export interface RunEpisodesOptions {
  /** Caps every episode's step limit (default: stepLimit of its task). */
  maxSteps?: number;
  onEpisode?: (r: EpisodeResult) => void;
}

export async function runEpisodes(agent: Agent, tasks: readonly Task[], opts: RunEpisodesOptions = {}): Promise<EpisodeResult[]> {
  const cap = opts.maxSteps ?? Infinity;
  if (!(cap >= 1)) throw new Error(`runEpisodes: maxSteps must be at least 1; got ${opts.maxSteps}`);
  const episodes: Episode[] = tasks.map((task) => ({
    task,
    state: createWorld(task),
    result: { taskId: task.id, platform: task.platform, success: false, end: 'limit', instructions: [], points: [], limit: Math.min(cap, stepLimit(task)) },
  }));
  const finish = (e: Episode, end: EpisodeEnd, success: boolean) => {
    e.result.end = end;
    e.result.success = success;
    opts.onEpisode?.(e.result);
  };
  let live = episodes.filter((e) => {
    // A task whose goal already holds at the start needs no step (none of ours; kept for honesty).
    if (!goalReached(e.task, e.state)) return true;
    finish(e, 'goal', true);
    return false;
  });
  while (live.length > 0) {
    const screens = live.map((e) => screenOf(e.state));
    const texts = await agent.plan(live.map((e, i) => ({ task: e.task, screen: screens[i], history: e.result.instructions })));
    const parsed = texts.map((t) => parseInstruction(t));
    const asks = live.map((_, i) => i).filter((i) => parsed[i] !== null && needsPoint(parsed[i] as Instruction));
    const answers = asks.length ? await agent.ground(asks.map((i) => ({ screen: screens[i], instruction: texts[i] }))) : [];
    const points = new Map(asks.map((i, k) => [i, answers[k]]));
    const next: Episode[] = [];
    live.forEach((e, i) => {
      const instr = parsed[i];
      const point = points.get(i) ?? null;
      const action = instr ? actionOf(instr, point) : null;
      e.result.instructions = [...e.result.instructions, texts[i]];
      e.result.points.push(action && instr && needsPoint(instr) ? point : null);
      if (action) e.state = act(e.state, action);
      if (goalReached(e.task, e.state)) finish(e, 'goal', true);
      else if (action?.type === 'DONE') finish(e, 'done', false);
      else if (e.result.instructions.length >= e.result.limit) finish(e, 'limit', false);
      else next.push(e);
    });
    live = next;
  }
  return episodes.map((e) => e.result);
}
