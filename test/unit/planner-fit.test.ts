/**
 * Inputs and outputs that fit (issue: prompts cut on most held-out
 * screens): on n ≥ 400 states of every split, training and held out, the
 * whole prompt (goal, the full screen description, the kept history) fits
 * each preset's promptLength, and the oracle's own completion fits its
 * completionLength with eos and parses back to the oracle's instruction.
 * Prints each split's prompt-length distribution.
 */
import { describe, expect, it } from 'vitest';
import { Random } from '../../src/learn/random';
import { plannerStatesOf, trainingPlannerStates, type PlannerState } from '../../src/learn/plannerStates';
import { completionIds, parseCompletion, promptCut, promptTokenCount } from '../../src/models/plannerData';
import { plannerPreset, PRESET_NAMES } from '../../src/models/presets';
import { parseInstruction, sameInstruction } from '../../src/text/grammar';
import { defaultTokenizer } from '../../src/text/vocab';
import { buildSuites } from '../../src/world/suites';

const tok = defaultTokenizer();
const suites = buildSuites(31337, { webPerSplit: 160, mobile: 160, groundingPerSplit: 0 });
const splits: Record<string, PlannerState[]> = {
  'training templates': trainingPlannerStates(new Random(8), 400),
  'cross-task': plannerStatesOf(suites.web['cross-task'], 400),
  'cross-site': plannerStatesOf(suites.web['cross-site'], 400),
  'cross-domain': plannerStatesOf(suites.web['cross-domain'], 400),
  'mobile': plannerStatesOf(suites.mobile, 400),
};
const q = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))];

describe('planner inputs and outputs fit', () => {
  for (const [split, states] of Object.entries(splits)) {
    it(`${split}: every prompt whole and every oracle completion parsing, in every preset`, () => {
      expect(states.length).toBeGreaterThanOrEqual(400);
      const lengths = states.map((s) => promptTokenCount(tok, s.parts, true));
      const completions = states.map((s) => tok.encode(s.instruction).length + 1);
      console.log(`${split}: ${states.length} states; prompt tokens p50 ${q(lengths, 0.5)}, p95 ${q(lengths, 0.95)}, max ${Math.max(...lengths)}; completion max ${Math.max(...completions)}`);
      for (const preset of PRESET_NAMES) {
        const cfg = plannerPreset(preset, tok.size);
        expect(states.filter((s) => promptCut(tok, s.parts, cfg.promptLength, cfg.goalMarks)).length, preset).toBe(0);
        for (const s of states) {
          const back = parseInstruction(parseCompletion(tok, completionIds(tok, s.instruction, cfg.completionLength)).instruction);
          expect(back !== null && sameInstruction(back, s.step.instruction), `${preset}: ${s.instruction}`).toBe(true);
        }
      }
    });
  }
});
