/**
 * The planner's token layout, and a real-world example batch.
 *
 * Prompt: <bos> goal <sep> screen description (describeScreen) <sep>
 * history (earlier instructions, one per line) <sep>, left-padded to P. When
 * it is too long, the screen description is cut from its end (the goal and
 * history are what the step depends on most).
 *
 * Completion: instruction <eos>, or for CoT-SFT
 * <think> reasoning </think> instruction <eos>, right-padded to C.
 */
import { Random } from '../learn/random';
import { printInstruction } from '../text/grammar';
import { actedOnTexts, goalNamedTexts, markScreen } from '../text/goalMarks';
import { copyIndices } from '../text/copyMarks';
import { padLeft, padRight, SPECIAL, type Tokenizer } from '../text/tokenizer';
import { describeScreen } from '../world/describe';
import { screenOf } from '../world/env';
import { oracle } from '../world/tasks';
import { stateBefore, trainingTasks } from '../world/suites';
import * as tf from './tf';
import { copyTensor, type PlannerConfig } from './planner';

export interface PlannerPromptParts {
  goal: string;
  screen: string; // describeScreen(screen)
  history: readonly string[]; // earlier instructions, oldest first
}

/**
 * Earlier instructions the prompt keeps, newest last: the screen shows what
 * older steps did (typed values, checked boxes, the page reached), and a
 * ten-step history cost up to 105 tokens.
 */
export const HISTORY_WINDOW = 4;

interface PromptPieces {
  goal: number[];
  screen: number[];
  history: number[];
}

/** The prompt's pieces as token ids, before any cut or padding. */
function promptPieces(tok: Tokenizer, parts: PlannerPromptParts, marks: boolean): PromptPieces {
  const screen = marks ? markScreen(parts.goal, parts.screen) : parts.screen;
  return { goal: tok.encode(parts.goal), screen: tok.encode(screen), history: tok.encode(parts.history.slice(-HISTORY_WINDOW).join('\n')) };
}

/** Tokens the pieces take with bos and three seps, uncut. */
const piecesLength = ({ goal, screen, history }: PromptPieces): number => 4 + goal.length + screen.length + history.length;

/** Tokens the whole prompt takes (bos, three seps, goal, screen, history), uncut. */
export function promptTokenCount(tok: Tokenizer, parts: PlannerPromptParts, marks = false): number {
  return piecesLength(promptPieces(tok, parts, marks));
}

/** True when promptIds would cut the screen description to fit `length`. */
export function promptCut(tok: Tokenizer, parts: PlannerPromptParts, length: number, marks = false): boolean {
  return promptTokenCount(tok, parts, marks) > length;
}

export function promptIds(tok: Tokenizer, parts: PlannerPromptParts, length: number, marks = false): number[] {
  return idsOfPieces(promptPieces(tok, parts, marks), length);
}

/** The pieces as one prompt of `length` ids, the screen cut if it must be, left-padded. */
function idsOfPieces(pieces: PromptPieces, length: number): number[] {
  const { goal, history } = pieces;
  let { screen } = pieces;
  const fixed = 4 + goal.length + history.length;
  if (fixed + screen.length > length) screen = screen.slice(0, Math.max(0, length - fixed));
  const ids = [SPECIAL.bos, ...goal, SPECIAL.sep, ...screen, SPECIAL.sep, ...history, SPECIAL.sep];
  return padLeft(ids, length);
}

/**
 * Lengths a batch's prompts are padded to: the smallest that holds every
 * prompt of the batch (at most the preset's promptLength). Positions are
 * counted back from the end of the prompt (planner.ts), so a prompt means
 * the same padded to any bucket, and short screens do not pay for the
 * longest one.
 */
export const PROMPT_BUCKETS: readonly number[] = [64, 96, 128, 192, 256, 320, 384, 448, 512];

export function promptBucket(cfg: PlannerConfig, tokens: number): number {
  return PROMPT_BUCKETS.find((b) => b >= tokens && b <= cfg.promptLength) ?? cfg.promptLength;
}

/** Prompts of `parts` as [B, L] row-major, L the bucket that holds the longest (cut to promptLength beyond it). */
export function promptMatrix(tok: Tokenizer, cfg: PlannerConfig, parts: readonly PlannerPromptParts[]): { ids: Int32Array; length: number } {
  // Each prompt is marked and tokenised once: the bucket and the ids both come from these pieces.
  const pieces = parts.map((x) => promptPieces(tok, x, cfg.goalMarks === true));
  const length = promptBucket(cfg, Math.max(0, ...pieces.map(piecesLength)));
  const ids = new Int32Array(parts.length * length);
  pieces.forEach((x, i) => ids.set(idsOfPieces(x, length), i * length));
  return { ids, length };
}

/** The texts a prompt's copy marks favour: the description's texts the goal names whole, less those earlier steps clicked or chose. */
export function copyTargets(parts: PlannerPromptParts): string[] {
  const used = actedOnTexts(parts.history);
  return goalNamedTexts(parts.goal, parts.screen).filter((t) => !used.has(t));
}

export function completionIds(tok: Tokenizer, instruction: string, length: number, reasoning?: string): number[] {
  const think = reasoning === undefined ? [] : [SPECIAL.think, ...tok.encode(reasoning), SPECIAL.endThink];
  const body = [...think, ...tok.encode(instruction)].slice(0, length - 1);
  return padRight([...body, SPECIAL.eos], length);
}

/** A decoded completion split into its reasoning (if any) and instruction text. */
export function parseCompletion(tok: Tokenizer, ids: readonly number[]): { reasoning?: string; instruction: string } {
  const end = ids.indexOf(SPECIAL.eos);
  const body = end < 0 ? ids.slice() : ids.slice(0, end);
  if (body[0] === SPECIAL.think) {
    const close = body.indexOf(SPECIAL.endThink);
    if (close >= 0) return { reasoning: tok.decode(body.slice(1, close)), instruction: tok.decode(body.slice(close + 1)) };
    return { reasoning: tok.decode(body.slice(1)), instruction: '' };
  }
  return { instruction: tok.decode(body) };
}

export interface PlannerExample {
  taskId: string;
  stepIndex: number;
  parts: PlannerPromptParts;
  instruction: string; // the oracle's canonical instruction, printed
}

export interface PlannerBatch {
  examples: PlannerExample[];
  /** L: the prompts' padded length (promptBucket), at most cfg.promptLength. */
  promptLength: number;
  prompt: Int32Array; // [B, L]
  completion: Int32Array; // [B, C]
  /** With a copy gate: the teacher-forced copy marks, flat indices into [B, C, V] (copyIndices). */
  copy?: Int32Array;
}

/** `size` oracle steps of training tasks (random task, random step), deterministic from `rng`. */
export function plannerExamples(rng: Random, size: number): PlannerExample[] {
  const out: PlannerExample[] = [];
  for (const task of trainingTasks(rng.fork('tasks'), size)) {
    const steps = oracle(task);
    const stepIndex = rng.int(0, steps.length - 1);
    const screen = screenOf(stateBefore(task, stepIndex));
    out.push({
      taskId: task.id,
      stepIndex,
      parts: { goal: task.goal, screen: describeScreen(screen), history: steps.slice(0, stepIndex).map((s) => printInstruction(s.instruction)) },
      instruction: printInstruction(steps[stepIndex].instruction),
    });
  }
  return out;
}

export function plannerBatch(tok: Tokenizer, cfg: PlannerConfig, examples: readonly PlannerExample[]): PlannerBatch {
  const c = cfg.completionLength;
  const { ids: prompt, length } = promptMatrix(tok, cfg, examples.map((e) => e.parts));
  const completion = new Int32Array(examples.length * c);
  examples.forEach((e, i) => completion.set(completionIds(tok, e.instruction, c), i * c));
  return withCopyMarks(tok, cfg, { examples: [...examples], promptLength: length, prompt, completion });
}

/** The batch with its teacher-forced copy marks when the planner has a copy gate. */
export function withCopyMarks(tok: Tokenizer, cfg: PlannerConfig, batch: PlannerBatch): PlannerBatch {
  if (!cfg.copyGate) return batch;
  return { ...batch, copy: copyIndices(tok, batch.examples.map((e) => copyTargets(e.parts)), batch.completion, cfg.completionLength) };
}

/** A tiny real-world batch for tests and examples: `size` steps of training tasks. */
export function plannerExampleBatch(tok: Tokenizer, cfg: PlannerConfig, size: number, seed = 1): PlannerBatch {
  return plannerBatch(tok, cfg, plannerExamples(new Random(seed), size));
}

export function plannerTensors(b: PlannerBatch, cfg: PlannerConfig): { prompt: tf.Tensor2D; completion: tf.Tensor2D; copy?: tf.Tensor3D } {
  const n = b.examples.length;
  return {
    prompt: tf.tensor2d(b.prompt, [n, b.promptLength], 'int32'),
    completion: tf.tensor2d(b.completion, [n, cfg.completionLength], 'int32'),
    ...(b.copy ? { copy: copyTensor(b.copy, n, cfg.completionLength, cfg.vocabSize) } : {}),
  };
}
