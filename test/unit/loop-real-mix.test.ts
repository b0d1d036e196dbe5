/**
 * Real-DOM training pages in the loop's grounder training (issue 30,
 * phases/realMix.ts): the share asked for is the share trained on and the
 * phase summary counts it; only training pages are asked for; a real
 * page's pixels are its own (the world's painter never sees its screen);
 * the same seed draws the same batches (so a phase that resumes replays
 * them); and without a page to draw them the grounder trains on the loop's
 * data alone and the summary says why. The pages' pixels and boxes are made
 * up here (Node has no DOM); the browser draws them in the app.
 */
import 'fake-indexeddb/auto';
import { beforeAll, describe, expect, it } from 'vitest';
import * as tf from '../../src/models/tf';
import '@tensorflow/tfjs-backend-wasm';
import { defaultConfig, type CoevoConfig } from '../../src/coevo/config';
import { CoevoRunner, type RunnerDeps } from '../../src/coevo/runner';
import { checkpointId } from '../../src/coevo/runState';
import { syntheticScreenImage } from '../../src/models/rasterize';
import { realInBatch } from '../../src/coevo/phases/realMix';
import { REAL_POOL_PAGES, type RealPageRenderer } from '../../src/pretrain/realPool';
import { TEST_SEED_BASE } from '../../src/realScreens/pages';
import type { Screen } from '../../src/world/types';
import { Store } from '../../src/store/store';
import { fakeRender } from './real-page-fixtures';

beforeAll(async () => {
  await tf.setBackend('wasm');
  await tf.ready();
});

/** The seed SFT of both models and one evaluation, a few steps each; grounder GRPO on, so its batches mix too. */
function config(share: number): CoevoConfig {
  return {
    ...defaultConfig('tiny', 5),
    start: 'scratch',
    iterations: 0,
    plannerSftSteps: 1,
    grounderSftSteps: 4,
    plannerBatch: 2,
    grounderBatch: 4,
    seedTasks: 3,
    evalSize: 1,
    grounderGrpo: true,
    grounderRealShare: share,
  };
}

let dbs = 0;

interface Ran {
  summary: Record<string, number | string>;
  grounder: Uint8Array;
  worldPaintedReal: number;
  asked: number[][];
}

async function run(share: number, realPages?: (asked: number[][]) => RealPageRenderer): Promise<Ran> {
  const store = await Store.open(`loop-real-mix-${++dbs}`);
  const asked: number[][] = [];
  let worldPaintedReal = 0;
  const paint = (screen: Screen) => {
    if (screen.appId === 'real-screen') worldPaintedReal++;
    return syntheticScreenImage(screen);
  };
  const deps: RunnerDeps = { store, paint, device: { backend: 'wasm', adapter: 'none (WASM in Node)' }, ...(realPages ? { realPages: realPages(asked) } : {}) };
  const r = await CoevoRunner.create(deps, config(share));
  expect(await r.run()).toBe('done');
  const phase = (await store.listPhases(r.runId)).find((p) => p.phase === 'sft-grounder');
  const c = await store.getCheckpoint(checkpointId(r.runId, 'grounder', 0));
  r.dispose();
  await r.whenDisposed();
  return { summary: phase!.summary, grounder: new Uint8Array(c!.weights), worldPaintedReal, asked };
}

const drawing = (asked: number[][]): RealPageRenderer => async (seeds) => {
  asked.push([...seeds]);
  return seeds.map(fakeRender);
};

describe("the loop's grounder training with real pages mixed in", () => {
  it('trains on the share asked for, from training pages, with their own pixels, the same batches for the same seed', async () => {
    const tensors = tf.memory().numTensors;
    const a = await run(0.5, drawing);
    // 4 SFT steps and 1 GRPO step (a quarter of them) of 4 examples, half of them real.
    expect(a.summary).toMatchObject({ sft_steps: 4, grpo_steps: 1, loop_examples: 10, real_examples: 10, real_pages: REAL_POOL_PAGES });
    expect(a.summary.real_skipped).toBeUndefined();
    expect(a.asked).toHaveLength(1);
    expect(a.asked[0]).toHaveLength(REAL_POOL_PAGES);
    expect(a.asked[0].every((s) => s >= 0 && s < TEST_SEED_BASE)).toBe(true);
    expect(a.worldPaintedReal).toBe(0);

    const again = await run(0.5, drawing);
    expect(again.grounder).toEqual(a.grounder);
    const without = await run(0, drawing);
    expect(without.grounder).not.toEqual(a.grounder);
    expect(without.asked).toHaveLength(0);
    expect(without.summary.real_examples).toBeUndefined();
    expect(tf.memory().numTensors).toBe(tensors);
  }, 600_000);

  it('without a page to draw them, or when drawing fails, trains on the loop data alone and says why', async () => {
    const none = await run(0.5);
    expect(String(none.summary.real_skipped)).toMatch(/no page gave this engine the real training pages/);
    expect(none.summary.real_examples).toBeUndefined();
    const failing = await run(0.5, () => async () => {
      throw new Error('canvas is tainted');
    });
    expect(String(failing.summary.real_skipped)).toMatch(/could not draw the real training pages: canvas is tainted/);
    // Both trained on the loop's data alone: the same weights as a run that asked for no pages.
    expect(failing.grounder).toEqual(none.grounder);
    expect((await run(0)).grounder).toEqual(none.grounder);
  }, 600_000);

  it('puts the share of real examples in each batch, within one of it over any run of steps', () => {
    const mix = { share: 0.25, pages: 1, draw: () => [], paint: syntheticScreenImage };
    const per = Array.from({ length: 40 }, (_, step) => realInBatch(mix, step, 8));
    expect(per.reduce((x, y) => x + y, 0)).toBe(80);
    expect(per.every((n) => n === 2)).toBe(true);
    expect(realInBatch(null, 3, 8)).toBe(0);
  });
});
