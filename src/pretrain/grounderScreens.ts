/**
 * The grounder pretraining's material: screens from the world's tasks (every
 * state along an oracle run, so one replay gives several screens), and on
 * each screen instructions for several targets, each written in a referring
 * style by the world's own writers, with the labels the pretraining learns
 * the instruction from (which tokens name the target's text or the
 * anchor's, the target's role, icon and colour).
 *
 * Training screens come only from training tasks (isTrainingTask: training
 * templates, seeds below TEST_SEED_BASE); held-out screens from seeds at or
 * above TEST_SEED_BASE, of held-out sites and domains (or of any template).
 */
import { drawTask } from '../learn/grounderCurriculum';
import { Random } from '../learn/random';
import { parseInstruction, printInstruction } from '../text/grammar';
import type { Tokenizer } from '../text/tokenizer';
import { colorClass, iconClass, roleClass } from '../world/cellLabels';
import { act, createWorld, screenOf } from '../world/env';
import { HELD_OUT_DOMAINS, HELD_OUT_SITES, TEST_SEED_BASE, TRAINING_TEMPLATES } from '../world/suites';
import { oracle, TEMPLATES } from '../world/tasks';
import type { AnyTemplate } from '../world/tasks/template';
import type { Ref, RefStyle, Screen, Task, UIElement } from '../world/types';
import { REF_STYLES } from '../world/types';
import { visibleElements } from '../world/verifier';
import { writeInstruction, type StepSpec } from '../world/writers';
import type { GrounderExample } from '../models/grounderData';
import type { StyleWeights } from './styleWeights';

/** A screen with the targets an agent may be asked to act on. */
export interface PoolScreen {
  taskId: string;
  screen: Screen;
  /** Visible interactive elements, each with the action a step on it would take. */
  targets: { element: UIElement; step: StepSpec }[];
}

function stepFor(el: UIElement): StepSpec {
  if (el.role === 'text-field' || el.role === 'search-box') return { type: 'TYPE', value: 'hello' };
  return { type: 'CLICK' };
}

/** Every screen along the task's oracle run (the state before each step), with its targets. */
function screensOfTask(task: Task): PoolScreen[] {
  const out: PoolScreen[] = [];
  const steps = oracle(task);
  let state = createWorld(task);
  for (let i = 0; i < steps.length; i++) {
    const screen = screenOf(state);
    const oracleStep = steps[i];
    const targets = visibleElements(screen)
      .filter((e) => e.interactive && e.box.w > 0 && e.box.h > 0)
      .map((element) => ({ element, step: element.id === oracleStep.targetId ? { type: oracleStep.type, value: oracleStep.value } : stepFor(element) }));
    if (targets.length > 0 && !out.some((s) => s.screen.screenId === screen.screenId && s.screen.elements.length === screen.elements.length)) {
      out.push({ taskId: task.id, screen, targets });
    }
    state = act(state, oracleStep.action);
  }
  return out;
}

function drawScreens(rng: Random, count: number, templates: readonly AnyTemplate[], seedLo: number, seedHi: number, training: boolean): PoolScreen[] {
  const out: PoolScreen[] = [];
  for (let guard = 0; out.length < count && guard < count * 10; guard++) {
    const task = drawTask(rng, templates, seedLo, seedHi, training, 'grounder pretraining');
    if (!task) continue;
    for (const s of screensOfTask(task)) if (out.length < count) out.push(s);
  }
  return out;
}

/** `count` training screens, deterministic from `rng`. */
export function trainingScreens(rng: Random, count: number): PoolScreen[] {
  return drawScreens(rng, count, TRAINING_TEMPLATES, 1, TEST_SEED_BASE - 100, true);
}

/**
 * `count` held-out screens: seeds at or above TEST_SEED_BASE, of the held-out
 * sites and domains ('sites', the acceptance measure) or of every template.
 */
export function heldOutScreens(seed: number, count: number, which: 'sites' | 'all' = 'sites'): PoolScreen[] {
  const held = (t: AnyTemplate) => HELD_OUT_SITES.includes(t.appId) || HELD_OUT_DOMAINS.includes(t.domain);
  const pool = which === 'sites' ? TEMPLATES.filter(held) : TEMPLATES;
  return drawScreens(new Random(seed).fork('held-out screens'), count, pool, TEST_SEED_BASE, 2 * TEST_SEED_BASE - 100, false);
}

/** How many interactive targets a screen offers: the curriculum's measure of how busy it is. */
export function busyness(s: PoolScreen): number {
  return s.targets.length;
}

/**
 * An instruction for `target` on the screen in the first style of `styles`
 * (tried in order) that can single it out; null when none can.
 */
export function writeExample(rng: Random, s: PoolScreen, target: PoolScreen['targets'][number], styles: readonly RefStyle[]): GrounderExample | null {
  for (const style of styles) {
    const w = writeInstruction(s.screen, target.element, target.step, style, rng);
    if (!w) continue;
    return {
      taskId: s.taskId,
      stepIndex: -1,
      screen: s.screen,
      platform: s.screen.platform,
      instruction: printInstruction(w.instruction),
      style,
      targetId: target.element.id,
      box: target.element.box,
    };
  }
  return null;
}

/** Styles in a random order drawn with the given weights (missing styles weigh 1). */
export function styleOrder(rng: Random, weights: StyleWeights = {}): RefStyle[] {
  return REF_STYLES.map((s) => ({ s, key: Math.pow(rng.next(), 1 / Math.max(1e-6, weights[s] ?? 1)) }))
    .sort((a, b) => b.key - a.key)
    .map((x) => x.s);
}

/** What the pretraining teaches the instruction encoder to pick out. */
export interface InstructionLabels {
  /** [T, 2]: token belongs to the target's text (text style) / the anchor's text (relation style). */
  content: Float32Array;
  role: number;
  icon: number;
  color: number;
}

const words = (s: string) => new Set(s.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean));

/** Labels of one example's instruction, aligned with tok.encodeWithChars(instruction, maxTokens, ·). */
export function instructionLabels(tok: Tokenizer, e: GrounderExample, maxTokens: number): InstructionLabels {
  const ref: Ref | undefined = parseInstruction(e.instruction)?.ref;
  const target = e.screen.elements.find((x) => x.id === e.targetId);
  const content = new Float32Array(maxTokens * 2);
  const textWords = ref?.style === 'text' ? words(ref.text) : new Set<string>();
  const anchorWords = ref?.style === 'relation' ? words(ref.anchor) : new Set<string>();
  const enc = tok.encodeDetailed(e.instruction);
  const n = Math.min(enc.ids.length, maxTokens - 1);
  for (let t = 0; t < n; t++) {
    const piece = enc.pieces[enc.pieceOf[t]].trim().toLowerCase();
    content[(t + 1) * 2] = textWords.has(piece) ? 1 : 0;
    content[(t + 1) * 2 + 1] = anchorWords.has(piece) ? 1 : 0;
  }
  return { content, role: roleClass(target?.role), icon: iconClass(target?.icon), color: colorClass(target?.color) };
}
