/**
 * The shapes of a trainer export (METHOD.md §8): which trainer, which
 * dataset of the run, and the columns the reward functions read. Both
 * trainers get the same reward columns under the same names, so one
 * rewards.py serves both.
 */

/** TRL (Hugging Face) or ms-swift (ModelScope). */
export type TrainerFormat = 'trl' | 'swift';
export const TRAINER_FORMATS: readonly TrainerFormat[] = ['trl', 'swift'];

/**
 * The run's datasets, by the phase that made them: the seed data D0, each
 * distilled Ek, each curated Dk = D(k-1) ∪ Ek, and the prompts of planner
 * GRPO at iteration k (the training states of D(k-1)).
 */
export type DatasetKind = 'seed' | 'distilled' | 'curated' | 'planner-grpo';

/** The columns every reward function of rewards.py receives (TRL and ms-swift pass extra columns through). */
export interface RewardColumns {
  coevo_id: string;
  /** 'grounding': the answer is a point; 'planning': the answer is one instruction. */
  task_kind: 'grounding' | 'planning';
  /** The true step: CLICK, TYPE, SELECT, SCROLL, BACK, OPEN_APP or DONE. */
  action_type: string;
  /** Its value (typed text, option, scroll direction, app), or null. */
  action_value: string | null;
  /** The true element's box in screenshot pixels [x, y, w, h] (top-left corner first), or null for steps without a target. */
  target_box: [number, number, number, number] | null;
  screen_width: number;
  screen_height: number;
  /** The instruction the grounder is asked to follow (grounding), or the canonical next instruction (planning). */
  instruction: string;
}

/** A JSON value (what a row may hold). */
export type Json = string | number | boolean | null | Json[] | { [key: string]: Json };
export type Row = { [key: string]: Json };

/** One dataset of the export: its rows per use, in the trainer's format. */
export interface DatasetFiles {
  /** e.g. 'd0', 'e1', 'd1', 'planner-grpo-1'. */
  name: string;
  kind: DatasetKind;
  iteration: number;
  /** File name (e.g. 'grounder_grpo.jsonl') → rows. */
  files: Record<string, Row[]>;
}
