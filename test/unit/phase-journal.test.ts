/**
 * PhaseJournal on a toy phase that has everything a real one has: host code
 * that draws from a random stream between batches, batches that draw from
 * another stream, a weight trained by Adam, and a copy of the weight taken
 * midway (as grounder GRPO copies its reference). Resumed from a save at
 * every batch, the phase ends with the uninterrupted phase's weights,
 * optimizer moments and record, computing none of the replayed batches.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import * as tf from '../../src/models/tf';
import '@tensorflow/tfjs-backend-cpu';
import { flatAdam } from '../../src/models/flatAdam';
import { Random } from '../../src/learn/random';
import { saveOptimizer } from '../../src/models/optimizerState';
import { PhaseJournal, trainedTensors, type JournalSnapshot } from '../../src/coevo/phaseJournal';
import type { BatchGate } from '../../src/coevo/machine';
import type { Params } from '../../src/models/params';

beforeAll(async () => {
  await tf.setBackend('cpu');
  await tf.ready();
});

const gate: BatchGate = { batch: async () => undefined };
const STEPS = 6;

interface ToyResult {
  record: number[];
  weights: number[];
  reference: number[];
  moments: number[];
  computed: number;
}

let names = 0;

/** Six Adam steps on w·x ≈ y with drawn x and noisy y; at step 3 the weights are copied into a frozen reference that later steps read. */
async function toyPhase(journal: PhaseJournal, seed: number): Promise<ToyResult> {
  const rng = new Random(seed);
  const host = rng.fork('host');
  const noise = journal.random(rng.fork('noise'));
  const w: Params = { w: tf.tidy(() => tf.variable(tf.tensor1d([0.5, -0.25, 1]), true, `toy-w-${++names}`)) };
  let reference: Params | null = null;
  const opt = flatAdam(0.05);
  const record: number[] = [];
  let computed = 0;
  try {
    for (let step = 0; step < STEPS; step++) {
      if (step === 3) reference = { w: tf.tidy(() => tf.variable(tf.add(w.w, 0), false, `toy-ref-${++names}`)) };
      journal.train({ tensors: trainedTensors({ model: w, reference }), optimizer: opt });
      const x = [host.normal(), host.normal(), host.normal()];
      const r = await journal.batch(async () => {
        computed++;
        const y = x[0] - 2 * x[1] + 0.1 * noise.normal();
        const loss = opt.minimize(() => {
          const pred = tf.sum(tf.mul(w.w, tf.tensor1d(x)));
          const fit = tf.square(tf.sub(pred, y));
          return (reference ? tf.add(fit, tf.mul(0.01, tf.sum(tf.square(tf.sub(w.w, reference.w))))) : fit) as tf.Scalar;
        }, true) as tf.Scalar;
        const value = (await loss.data())[0];
        loss.dispose();
        return { loss: value, y };
      });
      record.push(r.loss, r.y, host.next());
    }
    const moments = await saveOptimizer(opt, w);
    return {
      record,
      weights: Array.from(await w.w.data()),
      reference: reference ? Array.from(await reference.w.data()) : [],
      moments: moments ? [...moments.tensors.m.data, ...moments.tensors.v.data, moments.accBeta1, moments.accBeta2, moments.iterations] : [],
      computed,
    };
  } finally {
    journal.train(null);
    opt.dispose();
    w.w.dispose();
    reference?.w.dispose();
  }
}

describe('PhaseJournal', () => {
  it('resumed from a save at any batch, a phase ends exactly as the uninterrupted one, computing only the batches after the save', async () => {
    const tensors = tf.memory().numTensors;
    const saves: JournalSnapshot[] = [];
    const straight = await toyPhase(new PhaseJournal({ gate, saveCostRatio: 0, save: async (s) => void saves.push(structuredClone(s)) }), 7);
    expect(straight.computed).toBe(STEPS);
    // A save before every batch after the first.
    expect(saves.map((s) => s.batches)).toEqual([1, 2, 3, 4, 5]);
    for (const s of saves) {
      const resumed = await toyPhase(new PhaseJournal({ gate, resume: s, saveCostRatio: 0 }), 7);
      expect(resumed.computed, `resumed at ${s.batches}`).toBe(STEPS - s.batches);
      expect({ ...resumed, computed: 0 }, `resumed at ${s.batches}`).toEqual({ ...straight, computed: 0 });
    }
    // The save's weights are what carries the training: with an older save's weights the end differs.
    const stale = await toyPhase(new PhaseJournal({ gate, resume: { ...saves[3], tensors: saves[2].tensors }, saveCostRatio: 0 }), 7);
    expect(stale.weights).not.toEqual(straight.weights);
    expect(tf.memory().numTensors).toBe(tensors);
  });

  it('saves less often when saving is slow against the batches, and always before a pause', async () => {
    let t = 0;
    const saves: number[] = [];
    let pausing = false;
    const slowGate: BatchGate = { batch: async () => void (t += 10), willPause: () => pausing };
    const journal = new PhaseJournal({
      gate: slowGate,
      now: () => t,
      save: async (s) => {
        t += 5; // a save takes half a batch: with the default ratio, one save per five batches
        saves.push(s.batches);
      },
    });
    const saved: number[] = [];
    for (let i = 0; i < 12; i++) {
      pausing = i === 9;
      await journal.batch(async () => i);
      saved.push(journal.saved);
    }
    // Batches take 10, a save 5: after the first save, the next waits 10 × 5; the pause adds one at batch 9.
    expect(saves).toEqual([1, 6, 9]);
    // What a reload would take up: the last save made before each batch, behind the batches passed.
    expect(saved).toEqual([0, 1, 1, 1, 1, 1, 6, 6, 6, 9, 9, 9]);
    expect(journal.batches).toBe(12);
  });

  it('saves before a pause that the gate only sees inside batch()', async () => {
    let t = 0;
    const saves: number[] = [];
    // At batch 4 willPause() says no, then the pause arrives while the gate yields (as a worker's message does) and
    // the gate calls beforePause; at batch 5 willPause() already says yes, and the gate calls beforePause too.
    let pauseInside = false;
    let pauseBefore = false;
    const lateGate: BatchGate = {
      batch: async (beforePause) => {
        if (pauseInside) await beforePause?.();
        t += 10;
      },
      willPause: () => pauseBefore,
    };
    const journal = new PhaseJournal({
      gate: lateGate,
      now: () => t,
      save: async (s) => {
        t += 5; // as above: with the default ratio, a save is due every five batches
        saves.push(s.batches);
      },
    });
    for (let i = 0; i < 8; i++) {
      pauseInside = i === 4 || i === 5;
      pauseBefore = i === 5;
      await journal.batch(async () => i);
    }
    // Batch 1 is the first save; 4 and 5 are saved though not due, 5 once though asked twice.
    expect(saves).toEqual([1, 4, 5]);
    expect(journal.saved).toBe(5);
  });

  it('refuses a damaged save with a clear message', () => {
    expect(() => new PhaseJournal({ gate, resume: { batches: 2, results: [1], randoms: [[1], [2]], tensors: {}, optimizer: null } })).toThrow(/damaged/);
  });
});
