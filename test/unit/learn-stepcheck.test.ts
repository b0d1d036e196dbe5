import { beforeAll, describe, expect, it } from 'vitest';
import * as tf from '../../src/models/tf';
import '@tensorflow/tfjs-backend-wasm';
import { runStepCheck, STEP_KINDS } from '../../src/learn/stepCheck';

beforeAll(async () => {
  await tf.setBackend('wasm');
  await tf.ready();
});

describe('step check (what the engine runs for backend parity and leak checks)', () => {
  for (const kind of STEP_KINDS) {
    it(`${kind}: finite losses, a flat tensor count, nothing left after dispose, same seed same losses`, async () => {
      const o = { kind, steps: 3, batch: kind === 'planner-grpo' ? 1 : 2, seed: 3, preset: 'tiny' as const };
      const a = await runStepCheck(o);
      const b = await runStepCheck(o);
      console.log(`${kind} on ${a.backend}: losses ${a.losses.map((l) => l.toPrecision(5)).join(', ')}; tensors ${a.tensorsAfterStep.join(', ')}`);
      expect(a.losses.every(Number.isFinite)).toBe(true);
      expect(new Set(a.tensorsAfterStep).size).toBe(1);
      expect(a.tensorsAfterDispose).toBe(a.tensorsBefore);
      expect(b.losses).toEqual(a.losses);
    });
  }
});
