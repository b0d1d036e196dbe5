/**
 * Resumable pretraining (`npm run pretrain -- --resume`): a run stopped at a
 * checkpoint and continued from it ends with the same weights, byte for
 * byte, as a run never stopped (and never checkpointed): the base planner
 * stopped in its pretraining stage and in its SFT stage, the grounder inside
 * a stage and at a stage's first step. Every checkpoint goes through the
 * resume file the command keeps on disk, and the resumed model starts from
 * other weights, so nothing but the file carries the state over. Also: a
 * resumed run leaks no tensor, and a checkpoint of another run is refused.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import * as tf from '../../src/models/tf';
import '@tensorflow/tfjs-backend-wasm';
import { exportCheckpoint } from '../../src/models/checkpoint';
import { initGrounder, type GrounderConfig } from '../../src/models/grounder';
import { initPlanner, type PlannerConfig } from '../../src/models/planner';
import { disposeParams, type Params } from '../../src/models/params';
import { grounderPreset } from '../../src/models/presets';
import { syntheticScreenImage } from '../../src/models/rasterize';
import { Random } from '../../src/learn/random';
import { defaultTokenizer } from '../../src/text/vocab';
import { pretrainGrounder, type GrounderLoopRecord, type GrounderPretrainOptions } from '../../src/pretrain/grounder';
import { trainBasePlanner, type BasePlannerOptions, type BasePlannerRecord } from '../../src/pretrain/planner';
import type { LoopCheckpoints } from '../../src/pretrain/loopState';
import { decodeResumeFile, encodeResumeFile, resumedState } from '../../src/pretrain/resumeFile';
import { RESUME_FORMAT, type ResumeKey } from '../../src/pretrain/resumeKey';

beforeAll(async () => {
  await tf.setBackend('wasm');
  await tf.ready();
});

const tok = defaultTokenizer();

/** Thrown by a checkpoint hook to stop a run the way a kill would: after the checkpoint is kept, before the next step. */
class Stop extends Error {}

const key = (model: 'planner' | 'grounder'): ResumeKey => ({ format: RESUME_FORMAT, preset: 'tiny', model, seed: 1, scale: 1, backend: 'wasm', recipe: 'test' });

/**
 * A checkpoint hook that keeps every checkpoint as a resume file (by `at`,
 * e.g. "sft 2") and stops the run after the one named `stopAt`.
 */
function keeper<R>(model: 'planner' | 'grounder', every: number, at: (step: number, record: R) => string, stopAt?: string) {
  const files = new Map<string, Uint8Array>();
  const hook: LoopCheckpoints<R> = {
    every,
    save(s) {
      const name = at(s.step, s.record);
      files.set(name, encodeResumeFile({ key: key(model), stage: name, step: s.step, steps: 0 }, s));
      if (name === stopAt) throw new Stop(name);
    },
  };
  return { hook, files };
}

async function stopped(run: () => Promise<unknown>): Promise<void> {
  await expect(run()).rejects.toBeInstanceOf(Stop);
}

/** Where two files first differ, or -1: a failure says so at once (a diff of two large arrays takes vitest minutes). */
function firstDifference(a: Uint8Array, b: Uint8Array): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) if (a[i] !== b[i]) return i;
  return -1;
}

async function bytesOf(params: Params, cfg: PlannerConfig | GrounderConfig): Promise<Uint8Array> {
  const bytes = await exportCheckpoint(params, cfg);
  disposeParams(params);
  return bytes;
}

describe('resumable base planner', () => {
  const cfg: PlannerConfig = { model: 'planner', vocabSize: tok.size, promptLength: 64, completionLength: 16, dim: 16, heads: 2, layers: 1 };
  const opts: BasePlannerOptions = { seed: 5, pretrainSteps: 5, sftSteps: 5, batchSize: 4, lr: 1e-2, sftLr: 1e-2, relabelShare: 0.5 };
  const at = (step: number, r: BasePlannerRecord) => `${r.stage} ${step}`;

  it('stopped in pretraining or in SFT and resumed, it ends with the uninterrupted weights and losses', async () => {
    const plain = initPlanner(new Random(8), cfg);
    const reference = await trainBasePlanner(plain, cfg, tok, opts);
    const want = await bytesOf(plain, cfg);

    for (const stopAt of ['pretrain 2', 'sft 4']) {
      const first = keeper<BasePlannerRecord>('planner', 2, at, stopAt);
      const interrupted = initPlanner(new Random(8), cfg);
      await stopped(() => trainBasePlanner(interrupted, cfg, tok, opts, undefined, { checkpoints: first.hook }));
      disposeParams(interrupted);
      const file = first.files.get(stopAt);
      expect(file, stopAt).toBeDefined();
      // Other initial weights: only the resume file can make the end come out the same.
      const before = tf.memory().numTensors;
      const resumed = initPlanner(new Random(99), cfg);
      const then = keeper<BasePlannerRecord>('planner', 2, at);
      const report = await trainBasePlanner(resumed, cfg, tok, opts, undefined, { resume: decodeResumeFile<BasePlannerRecord>(file as Uint8Array).state, checkpoints: then.hook });
      expect(firstDifference(await bytesOf(resumed, cfg), want), `resumed after ${stopAt}`).toBe(-1);
      expect(tf.memory().numTensors, 'tensors left behind by the resumed run').toBe(before);
      expect(report.pretrain.losses).toEqual(reference.pretrain.losses);
      expect(report.sft.losses).toEqual(reference.sft.losses);
      // The resumed run goes on handing out checkpoints after the one it started from, up to the last step.
      expect([...then.files.keys()].at(-1)).toBe('sft 5');
    }
  });
});

describe('resumable grounder pretraining', () => {
  // The tiny preset with a narrower glyph reader, for speed; 5 steps run three stages (read 1, easy 2–3, full 4–5).
  const cfg: GrounderConfig = { ...grounderPreset('tiny', tok.size), glyphs: 32 };
  const opts: GrounderPretrainOptions = { seed: 3, steps: 5, paint: syntheticScreenImage, batchSize: 4, perScreen: 2, screens: 20 };
  const at = (step: number) => `step ${step}`;

  it('stopped inside a stage or before a stage’s first step and resumed, it ends with the uninterrupted weights', async () => {
    const plain = initGrounder(new Random(4), cfg);
    const reference = await pretrainGrounder(plain, cfg, tok, opts);
    const want = await bytesOf(plain, cfg);

    // One run stopped after step 3; the checkpoint after step 2 stands for a kill during step 3 (the latest one kept is then 2's).
    const first = keeper<GrounderLoopRecord>('grounder', 1, at, 'step 3');
    const interrupted = initGrounder(new Random(4), cfg);
    await stopped(() => pretrainGrounder(interrupted, cfg, tok, opts, undefined, { checkpoints: first.hook }));
    disposeParams(interrupted);
    // After 2 steps the next is the easy stage's second (its Adam state continues); after 3, the full stage's first (a fresh Adam).
    for (const from of ['step 2', 'step 3']) {
      const resumed = initGrounder(new Random(77), cfg);
      const report = await pretrainGrounder(resumed, cfg, tok, opts, undefined, { resume: decodeResumeFile<GrounderLoopRecord>(first.files.get(from) as Uint8Array).state });
      expect(firstDifference(await bytesOf(resumed, cfg), want), `resumed after ${from}`).toBe(-1);
      expect(report.stages).toEqual(reference.stages);
      expect(report.finalLoss).toBe(reference.finalLoss);
    }
  }, 120_000);
});

describe('resume files', () => {
  it('refuse another run’s checkpoint, saying what differs', async () => {
    const file = encodeResumeFile({ key: key('planner'), stage: 'sft', step: 2, steps: 4 }, { step: 2, weights: {}, optimizer: null, record: { losses: [1, 0.5] } });
    expect(resumedState(file, key('planner'))).toMatchObject({ step: 2, record: { losses: [1, 0.5] } });
    expect(() => resumedState(file, { ...key('planner'), seed: 2 })).toThrow(/belongs to another run.*seed: the checkpoint has 1, this run 2/);
    expect(() => resumedState(file, { ...key('planner'), recipe: 'other' })).toThrow(/recipe: the checkpoint has another recipe/);
    expect(() => resumedState(file, { ...key('grounder') })).toThrow(/model: the checkpoint has "planner", this run "grounder"/);
    expect(() => resumedState(new Uint8Array([1, 2, 3]), key('planner'))).toThrow(/not a pretraining checkpoint/);
  });
});
