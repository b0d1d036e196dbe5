/**
 * Grounder batches from the real world: a training task's screen before an
 * oracle step, an instruction for that step's target written in a random
 * referring style, and the target's box. Images come from `paint`, which in
 * Node is syntheticScreenImage (rasterize.ts) and in the browser the Canvas
 * renderer converted with canvasFromRgba.
 */
import { Random } from '../learn/random';
import { printInstruction } from '../text/grammar';
import type { Tokenizer } from '../text/tokenizer';
import { screenOf } from '../world/env';
import { oracle } from '../world/tasks';
import { stateBefore, trainingTasks } from '../world/suites';
import type { Box, Platform, RefStyle, Screen } from '../world/types';
import { REF_STYLES } from '../world/types';
import { writeInstruction } from '../world/writers';
import { cellOfPoint, GRID_CELLS, IMAGE_FLOATS, validCells, CANVAS_HEIGHT, CANVAS_WIDTH } from './canvas';
import type { GrounderConfig, GrounderInputs } from './grounder';
import { instructionArrays, instructionTensors, setInstruction, type InstructionArrays } from './instructionBatch';
import { syntheticScreenImage } from './rasterize';
import * as tf from './tf';

/** Where an example's screen came from: the world's Canvas renderer, or a fixture page the browser laid out and drew (src/realScreens). */
export type ExampleSource = 'world' | 'real-dom';
export const EXAMPLE_SOURCES: readonly ExampleSource[] = ['world', 'real-dom'];

export interface GrounderExample {
  /** Absent on examples made before sources were recorded: those are the world's. */
  source?: ExampleSource;
  taskId: string;
  stepIndex: number;
  screen: Screen;
  platform: Platform;
  instruction: string;
  style: RefStyle;
  targetId: string;
  box: Box;
}

export interface GrounderBatch extends InstructionArrays {
  examples: GrounderExample[];
  images: Float32Array; // [B, CANVAS_HEIGHT, CANVAS_WIDTH, 3]
  valid: Float32Array; // [B, GRID_CELLS]
  targetCells: Int32Array; // [B]: the cell under the box centre
}

/** `size` grounding examples from training tasks, deterministic from `rng`. */
export function grounderExamples(rng: Random, size: number, styles: readonly RefStyle[] = REF_STYLES): GrounderExample[] {
  const out: GrounderExample[] = [];
  const tasks = rng.fork('tasks');
  for (let guard = 0; out.length < size && guard < size * 20; guard++) {
    const [task] = trainingTasks(tasks, 1);
    if (!task) continue;
    const steps = oracle(task);
    const targeted = steps.map((s, i) => ({ s, i })).filter(({ s }) => s.targetId !== undefined);
    if (targeted.length === 0) continue;
    const { s, i } = rng.pick(targeted);
    const screen = screenOf(stateBefore(task, i));
    const target = screen.elements.find((e) => e.id === s.targetId);
    if (!target) continue;
    const spec = { type: s.type, value: s.value };
    for (const style of rng.shuffle(styles)) {
      const w = writeInstruction(screen, target, spec, style, rng);
      if (!w) continue;
      out.push({ taskId: task.id, stepIndex: i, screen, platform: task.platform, instruction: printInstruction(w.instruction), style, targetId: target.id, box: target.box });
      break;
    }
  }
  return out;
}

export function grounderBatch(
  tok: Tokenizer,
  cfg: GrounderConfig,
  examples: readonly GrounderExample[],
  paint: (screen: Screen) => Float32Array = syntheticScreenImage,
): GrounderBatch {
  const n = examples.length;
  const b: GrounderBatch = {
    ...instructionArrays(n, cfg),
    examples: [...examples],
    images: new Float32Array(n * IMAGE_FLOATS),
    valid: new Float32Array(n * GRID_CELLS),
    targetCells: new Int32Array(n),
  };
  examples.forEach((e, i) => {
    b.images.set(paint(e.screen), i * IMAGE_FLOATS);
    setInstruction(b, i, tok, cfg, e.instruction);
    b.valid.set(validCells(e.platform), i * GRID_CELLS);
    b.targetCells[i] = cellOfPoint(e.box.x + e.box.w / 2, e.box.y + e.box.h / 2);
  });
  return b;
}

/** A tiny real-world batch for tests and examples, painted by the Node stand-in renderer. */
export function grounderExampleBatch(tok: Tokenizer, cfg: GrounderConfig, size: number, seed = 1): GrounderBatch {
  return grounderBatch(tok, cfg, grounderExamples(new Random(seed), size));
}

export function grounderTensors(b: GrounderBatch, cfg: GrounderConfig): GrounderInputs {
  const n = b.examples.length;
  return {
    images: tf.tensor4d(b.images, [n, CANVAS_HEIGHT, CANVAS_WIDTH, 3], 'float32'),
    ...instructionTensors(b, cfg),
    valid: tf.tensor2d(b.valid, [n, GRID_CELLS], 'float32'),
  };
}
