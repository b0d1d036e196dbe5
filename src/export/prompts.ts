/**
 * The words of the exported prompts. A stored sample names its task and step
 * instead of holding the screen, and the world is deterministic, so the
 * planner's view (the screen description and the earlier instructions) is
 * rebuilt by walking the task's oracle, as src/learn/plannerStates.ts does;
 * that module is not imported because it pulls tfjs in, and the export runs
 * where tfjs is not loaded (the CLI, the UI's export).
 */
import { printInstruction } from '../text/grammar';
import { describeScreen } from '../world/describe';
import { act, createWorld, screenOf } from '../world/env';
import { oracle } from '../world/tasks';
import type { ActionType, Box, Platform, Screen, Task } from '../world/types';

export interface PlannerView {
  /** describeScreen of the screen before the step: what the tiny planner reads. */
  screen: string;
  /** That screen itself: what the grounder saw, rendered into the exported screenshot. */
  shown: Screen;
  /** The oracle's instructions of the earlier steps, oldest first. */
  history: string[];
  /** The oracle's next step: what the plan reward compares against. */
  truth: { instruction: string; type: ActionType; value?: string; box?: Box };
}

/** Planner views of every step of a task, walked once per task and kept. */
export class PlannerViews {
  private readonly byTask = new Map<string, PlannerView[]>();

  get(task: Task, stepIndex: number): PlannerView | null {
    let views = this.byTask.get(task.id);
    if (!views) {
      views = walk(task);
      this.byTask.set(task.id, views);
    }
    return views[stepIndex] ?? null;
  }
}

function walk(task: Task): PlannerView[] {
  const steps = oracle(task);
  const said = steps.map((s) => printInstruction(s.instruction));
  const out: PlannerView[] = [];
  let world = createWorld(task);
  for (let i = 0; i < steps.length; i++) {
    const { type, value, box } = steps[i];
    const shown = screenOf(world);
    out.push({ screen: describeScreen(shown), shown, history: said.slice(0, i), truth: { instruction: said[i], type, value, box } });
    world = act(world, steps[i].action);
  }
  return out;
}

/** The grounder's question: the instruction, the screen size and the answer's form. */
export function grounderPrompt(instruction: string, platform: Platform, width: number, height: number): string {
  const kind = platform === 'web' ? 'web page' : 'mobile app screen';
  return `This is a screenshot of a ${kind}, ${width}x${height} pixels. Instruction: ${instruction}\nAnswer with the point to click, as (x, y) in pixels.`;
}

/** The planner's question: goal, what is on the screen, earlier steps, and the answer's form. */
export function plannerPrompt(goal: string, view: PlannerView): string {
  const history = view.history.length > 0 ? view.history.map((h, i) => `${i + 1}. ${h}`).join('\n') : '(none)';
  return `Goal: ${goal}\nOn the screen:\n${view.screen}\nSteps so far:\n${history}\nWrite the next step as one instruction, e.g. click the "Send" button, type "Lunch" into the "Subject" text field, scroll down, go back, or done.`;
}
