import { describe, expect, it } from 'vitest';
import { act, createWorld, screenOf } from '../../src/world/env';
import { makeTask, oracle, TEMPLATES } from '../../src/world/tasks';
import { resolveRef, verifyInstruction } from '../../src/world/verifier';
import { parseInstruction, printInstruction } from '../../src/text/grammar';

const SEEDS = Array.from({ length: 6 }, (_, i) => i + 1);

describe('oracle instructions against the verifier', () => {
  it('every oracle instruction resolves to its target on the screen before the step, and round-trips through the grammar', () => {
    const failures: string[] = [];
    let checked = 0;
    for (const template of TEMPLATES) {
      for (const seed of SEEDS) {
        let task;
        try {
          task = makeTask(template, seed);
        } catch {
          continue; // this seed's data admits no such task
        }
        let state = createWorld(task);
        for (const step of oracle(task)) {
          const screen = screenOf(state);
          const text = printInstruction(step.instruction);
          expect(parseInstruction(text)).toEqual(step.instruction);
          if (step.instruction.ref && step.targetId) {
            checked++;
            if (!verifyInstruction(screen, step.instruction, step.targetId)) {
              failures.push(`${task.id}: "${text}" -> ${JSON.stringify(resolveRef(screen, step.instruction.ref))}, want ${step.targetId}`);
            }
          }
          state = act(state, step.action);
        }
      }
    }
    console.log(`verified ${checked - failures.length}/${checked} oracle instructions`);
    expect(failures.slice(0, 10)).toEqual([]);
  });
});
