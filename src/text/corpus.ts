/**
 * The world's language, walked deterministically: goals, screen descriptions
 * and instructions in every style and phrasing, from training tasks only
 * (held-out sites, domains, templates and seeds stay out, so their words
 * reach the models through the character fallback, as unseen words would).
 * scripts/build-vocab.ts turns this into src/text/vocab.json.
 */
import { Random, hashString } from '../learn/random';
import { describeScreenVerbose as describeScreen } from '../world/describe';
import { act, createWorld, screenOf } from '../world/env';
import { makeTask, oracle } from '../world/tasks';
import { TRAINING_TEMPLATES } from '../world/suites';
import { writeInstruction } from '../world/writers';
import { REF_STYLES, type Task } from '../world/types';
import { phrasingCount, printInstruction } from './grammar';
import {
  ACTION_FORMS,
  ALL_ROLE_WORDS,
  AREA_WORDS,
  COLOR_WORDS,
  DIRECTION_WORDS,
  EDGE_WORDS,
  ORDINAL_WORDS,
  REF_FORMS,
  RELATION_WORDS,
} from './phrasings';
import { ICON_WORDS } from '../world/icons';

/** Seeds walked per training template; enough to see each app's data in several variants. */
export const CORPUS_SEEDS_PER_TEMPLATE = 6;

/** Every literal word of the grammar's templates and vocabularies. */
export function grammarTexts(): string[] {
  const out: string[] = [];
  const strip = (t: string) => t.replace(/\{[^}]*\}/g, ' ');
  for (const forms of Object.values(ACTION_FORMS)) out.push(...forms.map(strip));
  for (const forms of Object.values(REF_FORMS)) out.push(...forms.map(strip));
  out.push(...ALL_ROLE_WORDS, ...Object.values(ICON_WORDS), ...Object.values(COLOR_WORDS));
  out.push(...Object.values(EDGE_WORDS), ...Object.values(AREA_WORDS), ...Object.values(DIRECTION_WORDS), ...ORDINAL_WORDS);
  for (const table of RELATION_WORDS) out.push(...Object.values(table));
  return out;
}

/** Goals, screen descriptions and printed instructions (all styles, all phrasings) of training tasks. */
export function worldTexts(seedsPerTemplate = CORPUS_SEEDS_PER_TEMPLATE): string[] {
  const out: string[] = [];
  for (const template of TRAINING_TEMPLATES) {
    for (let seed = 1; seed <= seedsPerTemplate; seed++) {
      let task: Task;
      try {
        task = makeTask(template, seed);
      } catch {
        continue;
      }
      out.push(task.goal);
      const steps = oracle(task);
      let state = createWorld(task);
      const rng = new Random(hashString(task.id));
      for (const step of steps) {
        const screen = screenOf(state);
        out.push(describeScreen(screen));
        const target = step.targetId ? screen.elements.find((e) => e.id === step.targetId) : undefined;
        const spec = { type: step.type, value: step.value, direction: step.action.type === 'SCROLL' ? step.action.direction : undefined, app: step.type === 'OPEN_APP' ? step.value : undefined };
        for (const style of REF_STYLES) {
          const w = writeInstruction(screen, target, spec, style, rng);
          if (!w) continue;
          // Every phrasing of the written instruction, so all surface forms are covered.
          const n = phrasingCount(w.instruction.action, w.instruction.ref);
          for (let p = 0; p < n; p++) out.push(printInstruction({ ...w.instruction, phrasing: p }));
        }
        state = act(state, step.action);
      }
    }
  }
  return out;
}
