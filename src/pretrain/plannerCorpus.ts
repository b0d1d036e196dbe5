/**
 * What planner pretraining reads: the world's language in the planner's own
 * layout, `<bos> goal <sep> screen description <sep> history <sep> │
 * instruction <eos>`, from training tasks only. The instruction after the
 * bar is the true next step said the way the world's writers say it: any
 * referring style that singles out the target on that screen, in any
 * phrasing (a share of them in the oracle's canonical form, which SFT later
 * trains on). Pretraining predicts every token, the prompt's too, so goals,
 * screen descriptions and earlier instructions are read and written as well.
 */
import { printInstruction } from '../text/grammar';
import type { Tokenizer } from '../text/tokenizer';
import { plannerBatch, type PlannerBatch, type PlannerExample } from '../models/plannerData';
import { relabel } from './relabel';
import type { PlannerConfig } from '../models/planner';
import { plannerStatesOfTask, toExample, type PlannerState } from '../learn/plannerStates';
import type { Random } from '../learn/random';
import { trainingTasks } from '../world/suites';
import { writeInstruction, type StepSpec } from '../world/writers';
import { REF_STYLES, type Platform } from '../world/types';

/** An endless supply of training states: fresh training tasks, every step of each (a SELECT step `selectCopies` times), served in a shuffled order. */
export function plannerStateStream(rng: Random, platform?: Platform, selectCopies = 1): () => PlannerState {
  const tasks = rng.fork('tasks');
  const order = rng.fork('order');
  const buffer: PlannerState[] = [];
  // A buffer of several tasks' steps so that one batch mixes tasks and step positions.
  const fill = 96;
  return () => {
    for (let guard = 0; buffer.length < fill && guard < 1000; guard++) {
      const [task] = trainingTasks(tasks, 1, platform);
      if (task) for (const s of plannerStatesOfTask(task)) for (let k = 0; k < (s.step.type === 'SELECT' ? selectCopies : 1); k++) buffer.push(s);
    }
    if (buffer.length === 0) throw new Error('plannerStateStream: no training task could be made');
    const i = order.int(0, buffer.length - 1);
    const s = buffer[i];
    buffer[i] = buffer[buffer.length - 1];
    buffer.pop();
    return s;
  };
}

/**
 * The state's next step as a writer would say it: a random referring style
 * (the next one that works when a style cannot single out the target) and a
 * random phrasing; with probability `canonicalShare`, or when no style
 * works, the oracle's canonical instruction.
 */
export function writtenInstruction(s: PlannerState, rng: Random, canonicalShare = 0.25): string {
  if (rng.chance(canonicalShare)) return s.instruction;
  const step = s.step;
  const target = step.targetId === undefined ? undefined : s.screen.elements.find((e) => e.id === step.targetId);
  const spec: StepSpec = {
    type: step.type,
    value: step.value,
    direction: step.action.type === 'SCROLL' ? step.action.direction : undefined,
    app: step.type === 'OPEN_APP' ? step.value : undefined,
  };
  for (const style of rng.shuffle(REF_STYLES)) {
    const w = writeInstruction(s.screen, target, spec, style, rng);
    if (w) return printInstruction(w.instruction);
  }
  return s.instruction;
}

/**
 * Examples of `states` with `instruction(s)` as the step to write, a share
 * `relabelShare` of them relabelled (relabel.ts) after the instruction is
 * written, so screen, goal, history and instruction change together.
 */
export function relabelledExamples(states: readonly PlannerState[], instruction: (s: PlannerState) => string, rng: Random, relabelShare = 0): PlannerExample[] {
  return states.map((s) => {
    const ex = { ...toExample(s), instruction: instruction(s) };
    if (relabelShare <= 0 || !rng.chance(relabelShare)) return ex;
    return { ...ex, ...relabel(ex.parts, ex.instruction, rng) };
  });
}

/** A pretraining batch: prompts as SFT has them, completions written by writeInstruction (a share relabelled). */
export function plannerPretrainBatch(tok: Tokenizer, cfg: PlannerConfig, states: readonly PlannerState[], rng: Random, canonicalShare = 0.25, relabelShare = 0): PlannerBatch {
  return plannerBatch(tok, cfg, relabelledExamples(states, (s) => writtenInstruction(s, rng, canonicalShare), rng, relabelShare));
}
