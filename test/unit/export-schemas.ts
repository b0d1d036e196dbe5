/**
 * Row schemas written from the trainers' documentation, as plain checks
 * (each returns what is wrong with a row, or nothing):
 *
 * TRL, https://huggingface.co/docs/trl/dataset_formats ("Conversational",
 * "Prompt-only", "Vision datasets": an `images` column and message content
 * as a list of {"type": "image"} / {"type": "text", "text"} parts) and
 * https://huggingface.co/docs/trl/grpo_trainer ("Vision-Language Model (VLM)
 * Training": `prompt` plus `image`/`images`; custom reward functions get every
 * column but `prompt` as a keyword).
 *
 * ms-swift, https://swift.readthedocs.io/en/latest/Customization/Custom-dataset.html
 * ("Multimodal": `messages` with string content, an `<image>` tag per image,
 * `images` a list of paths; "PPO/GRPO": no final assistant turn, extra
 * columns reach the reward functions).
 */
type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

const REWARD_COLUMNS: Record<string, (v: unknown) => boolean> = {
  coevo_id: (v) => typeof v === 'string',
  task_kind: (v) => v === 'grounding' || v === 'planning',
  action_type: (v) => typeof v === 'string' && ['CLICK', 'TYPE', 'SELECT', 'SCROLL', 'BACK', 'OPEN_APP', 'DONE'].includes(v),
  action_value: (v) => v === null || typeof v === 'string',
  target_box: (v) => v === null || (Array.isArray(v) && v.length === 4 && v.every((x) => typeof x === 'number' && Number.isFinite(x)) && (v[2] as number) >= 0 && (v[3] as number) >= 0),
  screen_width: (v) => Number.isInteger(v) && (v as number) > 0,
  screen_height: (v) => Number.isInteger(v) && (v as number) > 0,
  instruction: (v) => typeof v === 'string' && v.length > 0,
};

function rewardColumnErrors(row: Obj, kind: 'grounding' | 'planning'): string[] {
  const errs = Object.entries(REWARD_COLUMNS).filter(([k, ok]) => !ok(row[k])).map(([k]) => `reward column ${k} is ${JSON.stringify(row[k])}`);
  if (row.task_kind !== kind) errs.push(`task_kind ${String(row.task_kind)}, want ${kind}`);
  if (kind === 'grounding' && row.target_box === null) errs.push('a grounding row needs a target_box');
  return errs;
}

function imagesErrors(row: Obj): string[] {
  const im = row.images;
  return Array.isArray(im) && im.length === 1 && im.every((p) => typeof p === 'string' && /^images\/[^/]+\.png$/.test(p)) ? [] : [`images ${JSON.stringify(im)}`];
}

function trlMessage(m: unknown, role: string, image: boolean): string[] {
  if (!isObj(m) || m.role !== role || !Array.isArray(m.content)) return [`not a TRL ${role} message with a content list: ${JSON.stringify(m)}`];
  const parts = m.content as unknown[];
  const errs: string[] = [];
  for (const p of parts) {
    if (!isObj(p)) errs.push('content part is not an object');
    else if (p.type === 'image') {
      if (Object.keys(p).length !== 1) errs.push('an image part has only its type');
    } else if (p.type !== 'text' || typeof p.text !== 'string' || p.text.length === 0) errs.push(`bad content part ${JSON.stringify(p)}`);
  }
  const images = parts.filter((p) => isObj(p) && p.type === 'image').length;
  if (images !== (image ? 1 : 0)) errs.push(`${images} image parts in a ${role} message`);
  return errs;
}

function swiftMessage(m: unknown, role: string, image: boolean): string[] {
  if (!isObj(m) || m.role !== role || typeof m.content !== 'string' || m.content.length === 0) return [`not an ms-swift ${role} message with string content: ${JSON.stringify(m)}`];
  const tags = (m.content.match(/<image>/g) ?? []).length;
  return tags === (image ? 1 : 0) ? [] : [`${tags} <image> tags in a ${role} message`];
}

export type Use = 'grpo-grounding' | 'grpo-planning' | 'sft';

export function trlRowErrors(row: unknown, use: Use): string[] {
  if (!isObj(row)) return ['row is not an object'];
  const errs = imagesErrors(row);
  if (use === 'sft') {
    const ms = row.messages;
    if (!Array.isArray(ms) || ms.length !== 2) return [...errs, 'SFT messages must be [user, assistant]'];
    errs.push(...trlMessage(ms[0], 'user', true), ...trlMessage(ms[1], 'assistant', false));
    if ('prompt' in row) errs.push('an SFT row has messages, not prompt');
    return errs;
  }
  const p = row.prompt;
  if (!Array.isArray(p) || p.length !== 1) return [...errs, 'a prompt-only row has prompt = [user message]'];
  errs.push(...trlMessage(p[0], 'user', true));
  if ('messages' in row || 'completion' in row) errs.push('a GRPO row is prompt-only');
  errs.push(...rewardColumnErrors(row, use === 'grpo-grounding' ? 'grounding' : 'planning'));
  return errs;
}

export function swiftRowErrors(row: unknown, use: Use): string[] {
  if (!isObj(row)) return ['row is not an object'];
  const errs = imagesErrors(row);
  const ms = row.messages;
  if (!Array.isArray(ms)) return [...errs, 'messages is required'];
  if (use === 'sft') {
    if (ms.length !== 2) return [...errs, 'SFT messages must be [user, assistant]'];
    errs.push(...swiftMessage(ms[0], 'user', true), ...swiftMessage(ms[1], 'assistant', false));
    return errs;
  }
  if (ms.length !== 1) return [...errs, 'GRPO messages end with the user (an assistant turn would be dropped)'];
  errs.push(...swiftMessage(ms[0], 'user', true));
  // Keys ms-swift gives a meaning of its own must not be reused as reward columns.
  for (const reserved of ['rejected_response', 'label', 'videos', 'audios', 'tools', 'objects', 'system']) if (reserved in row) errs.push(`reserved key ${reserved}`);
  errs.push(...rewardColumnErrors(row, use === 'grpo-grounding' ? 'grounding' : 'planning'));
  return errs;
}

/** Which schema a file of a data set follows. */
export function useOf(file: string): Use {
  if (file === 'grounder_grpo.jsonl') return 'grpo-grounding';
  if (file === 'planner_grpo.jsonl') return 'grpo-planning';
  if (file === 'grounder_sft.jsonl' || file === 'planner_sft.jsonl') return 'sft';
  throw new Error(`unknown data set file ${file}`);
}
