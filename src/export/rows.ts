/**
 * Rows in each trainer's own format, with the reward columns beside them.
 *
 * TRL (https://huggingface.co/docs/trl/dataset_formats#vision-datasets and
 * https://huggingface.co/docs/trl/grpo_trainer#vision-language-model-vlm-training):
 * conversational vision data, whose message `content` is a list of
 * {"type": "image"} / {"type": "text", "text": ...} parts, with the images in
 * an `images` column; GRPO reads a prompt-only `prompt`, SFT reads `messages`.
 * TRL hands every other column to the reward functions as a keyword.
 *
 * ms-swift (https://swift.readthedocs.io/en/latest/Customization/Custom-dataset.html,
 * "Multimodal" and "PPO/GRPO"): `messages` whose user text carries an
 * `<image>` tag where the image goes, and `images`, a list of paths; for
 * GRPO an assistant turn would be dropped, so the prompt ends with the user,
 * and extra columns pass through to the reward plugins.
 *
 * Image paths are relative to the export folder (`images/<hash>.png`); the
 * launch scripts run from there.
 */
import type { StepSample } from '../coevo/records';
import { boxCentreAnswer } from './answers';
import { grounderPrompt, plannerPrompt, type PlannerView } from './prompts';
import type { Json, RewardColumns, Row, TrainerFormat } from './types';

/** One kept sample with what its rows need: its screenshot in the export and the planner's view of its state. */
export interface StepContext {
  sample: StepSample;
  image: string;
  width: number;
  height: number;
  view: PlannerView;
}

function userTurn(format: TrainerFormat, text: string): Row {
  return format === 'trl' ? { role: 'user', content: [{ type: 'image' }, { type: 'text', text }] } : { role: 'user', content: `<image>${text}` };
}

function assistantTurn(format: TrainerFormat, text: string): Row {
  return format === 'trl' ? { role: 'assistant', content: [{ type: 'text', text }] } : { role: 'assistant', content: text };
}

function columns(c: RewardColumns): Row {
  return { ...c } as unknown as Row;
}

function grpoRow(format: TrainerFormat, prompt: string, image: string, reward: RewardColumns): Row {
  const turn = [userTurn(format, prompt)];
  return format === 'trl' ? { prompt: turn, images: [image], ...columns(reward) } : { messages: turn, images: [image], ...columns(reward) };
}

function sftRow(format: TrainerFormat, prompt: string, answer: string, image: string, id: string): Row {
  return { messages: [userTurn(format, prompt), assistantTurn(format, answer)], images: [image], coevo_id: id };
}

/** The grounder's columns: the sample's own instruction, its true box. */
export function grounderColumns(c: StepContext): RewardColumns | null {
  const { sample: s } = c;
  if (!s.box) return null;
  return {
    coevo_id: s.id,
    task_kind: 'grounding',
    action_type: s.actionType,
    action_value: s.value ?? null,
    target_box: [s.box.x, s.box.y, s.box.w, s.box.h],
    screen_width: c.width,
    screen_height: c.height,
    instruction: s.instruction,
  };
}

/** The planner's columns: the oracle's next step of the sample's state. */
export function plannerColumns(c: StepContext): RewardColumns {
  const t = c.view.truth;
  return {
    coevo_id: c.sample.id,
    task_kind: 'planning',
    action_type: t.type,
    action_value: t.value ?? null,
    target_box: t.box ? [t.box.x, t.box.y, t.box.w, t.box.h] : null,
    screen_width: c.width,
    screen_height: c.height,
    instruction: t.instruction,
  };
}

/** grounder_grpo, grounder_sft and planner_sft rows of a data set (D0, Ek, Dk). */
export function dataRows(format: TrainerFormat, steps: readonly StepContext[]): Record<string, Row[]> {
  const grpo: Row[] = [];
  const sft: Row[] = [];
  const planner: Row[] = [];
  for (const c of steps) {
    const g = grounderColumns(c);
    const gPrompt = grounderPrompt(c.sample.instruction, c.sample.platform, c.width, c.height);
    if (g && c.sample.box) {
      grpo.push(grpoRow(format, gPrompt, c.image, g));
      sft.push(sftRow(format, gPrompt, boxCentreAnswer(c.sample.box), c.image, c.sample.id));
    }
    planner.push(sftRow(format, plannerPrompt(c.sample.goal, c.view), c.sample.instruction, c.image, c.sample.id));
  }
  return { 'grounder_grpo.jsonl': grpo, 'grounder_sft.jsonl': sft, 'planner_sft.jsonl': planner };
}

/** planner_grpo rows: one prompt per training state. */
export function plannerGrpoRows(format: TrainerFormat, steps: readonly StepContext[]): Record<string, Row[]> {
  return { 'planner_grpo.jsonl': steps.map((c) => grpoRow(format, plannerPrompt(c.sample.goal, c.view), c.image, plannerColumns(c))) };
}

/** JSON Lines: one row per line, no trailing spaces, a final newline. */
export function jsonl(rows: readonly Json[]): string {
  return rows.map((r) => JSON.stringify(r)).join('\n') + (rows.length > 0 ? '\n' : '');
}
