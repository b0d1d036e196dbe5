/**
 * Real-DOM training pages in the grounder's pretraining (issue 30): the
 * share asked for is the share trained on, every example says its source,
 * only training seeds are ever drawn (the held-out suite is refused), real
 * pages are never painted (their pixels are the page's), and the mix is
 * deterministic, so a run stopped and resumed writes the same weights. The
 * pages' pixels and boxes are made up here (Node has no DOM); the browser
 * draws them in the app.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import * as tf from '../../src/models/tf';
import '@tensorflow/tfjs-backend-wasm';
import { exportCheckpoint } from '../../src/models/checkpoint';
import { initGrounder, type GrounderConfig } from '../../src/models/grounder';
import { disposeParams } from '../../src/models/params';
import { grounderPreset } from '../../src/models/presets';
import { syntheticScreenImage } from '../../src/models/rasterize';
import { Random } from '../../src/learn/random';
import { defaultTokenizer } from '../../src/text/vocab';
import { pretrainGrounder, type GrounderLoopRecord, type GrounderPretrainOptions } from '../../src/pretrain/grounder';
import { drawRealExamples, realPool, realPoolScreen, realScreensInStep, realTrainingSeeds, type RealPageRenderer } from '../../src/pretrain/realPool';
import { checkTrainingSeed, TEST_SEED_BASE } from '../../src/realScreens/pages';
import type { LoopState } from '../../src/pretrain/loopState';
import { checkPretrainOptions } from '../../workers/pretrainHost';
import { parsePretrainArgs } from '../../scripts/lib/pretrain-args';
import type { Paint } from '../../src/learn/stepCheck';
import { realSuiteFigures } from '../../src/pretrain/realFigures';
import { realScreenFigures } from '../../src/realScreens/score';
import { fakeRender } from './real-page-fixtures';

beforeAll(async () => {
  await tf.setBackend('wasm');
  await tf.ready();
});

const tok = defaultTokenizer();

const asked: number[][] = [];
const render: RealPageRenderer = async (seeds) => {
  asked.push([...seeds]);
  return seeds.map(fakeRender);
};

describe('which real pages, and how many per step', () => {
  it('honours the share over any run of steps, with no random draw', () => {
    for (const share of [0, 0.1, 0.25, 0.3, 0.5, 2 / 3, 1]) {
      for (const screens of [1, 4, 8]) {
        const per = Array.from({ length: 200 }, (_, step) => realScreensInStep(step, screens, share));
        expect(per.every((n) => n >= 0 && n <= screens)).toBe(true);
        const total = per.reduce((a, b) => a + b, 0);
        expect(Math.abs(total - 200 * screens * share)).toBeLessThanOrEqual(1);
        // Any window of 10 steps is within one screen of its share too.
        const window = per.slice(37, 47).reduce((a, b) => a + b, 0);
        expect(Math.abs(window - 10 * screens * share)).toBeLessThanOrEqual(1);
      }
    }
  });

  it('draws training seeds only, the same ones for a seed, other ones for another seed', () => {
    const a = realTrainingSeeds(1, 140);
    expect(realTrainingSeeds(1, 140)).toEqual(a);
    expect(realTrainingSeeds(2, 140)).not.toEqual(a);
    for (const seed of [0, 1, 7, 123456]) expect(realTrainingSeeds(seed, 140).every((s) => s >= 0 && s < TEST_SEED_BASE)).toBe(true);
    expect(new Set(a).size).toBe(140);
  });

  it('refuses a held-out page wherever one could get in', async () => {
    expect(() => checkTrainingSeed(TEST_SEED_BASE)).toThrow(/held-out suite/);
    expect(() => checkTrainingSeed(-1)).toThrow(/real training pages/);
    expect(() => realPoolScreen(TEST_SEED_BASE + 3, fakeRender(TEST_SEED_BASE + 3))).toThrow(/held-out suite/);
    expect(() => realPoolScreen(5, fakeRender(6))).toThrow(/asked for rs-train-5/);
    await expect(realPool(1, 3, async (seeds) => seeds.slice(1).map(fakeRender))).rejects.toThrow(/asked for 3 pages, got 2/);
  });

  it('labels every example of a page real-dom, with the DOM box of its target', async () => {
    const pool = await realPool(3, 5, render);
    expect(pool).toHaveLength(5);
    for (const s of pool) {
      expect(s.examples.length).toBeGreaterThan(0);
      for (const e of s.examples) {
        expect(e.source).toBe('real-dom');
        expect(e.box).toEqual(s.screen.elements.find((x) => x.id === e.targetId)?.box);
      }
      const drawn = drawRealExamples(new Random(1), s, 4);
      expect(drawn).toHaveLength(4);
      // Without repeats while the page has enough instructions.
      if (s.examples.length >= 4) expect(new Set(drawn).size).toBe(4);
    }
  });
});

describe('grounder pretraining with real pages mixed in', () => {
  const cfg: GrounderConfig = { ...grounderPreset('tiny', tok.size), glyphs: 32 };
  // Real pages are never painted: their pixels are the page's.
  const paint: Paint = (screen, glyphs) => {
    if (screen.appId === 'real-screen') throw new Error(`painted the real page ${screen.screenId}`);
    return syntheticScreenImage(screen, glyphs);
  };

  async function run(opts: GrounderPretrainOptions, resume?: LoopState<GrounderLoopRecord>, stopAfter?: number) {
    const params = initGrounder(new Random(4), cfg);
    let kept: LoopState<GrounderLoopRecord> | undefined;
    class Stop extends Error {}
    try {
      const report = await pretrainGrounder(params, cfg, tok, opts, undefined, {
        resume,
        checkpoints: stopAfter === undefined ? undefined : { every: 1, save: (s) => { if (s.step === stopAfter) { kept = s; throw new Stop(); } } },
      });
      return { report, bytes: await exportCheckpoint(params, cfg), kept };
    } catch (e) {
      if (!(e instanceof Stop)) throw e;
      return { report: null, bytes: null, kept };
    } finally {
      disposeParams(params);
    }
  }

  it('trains on the share asked for, labelled by source, deterministically and resumably', async () => {
    const pages = await realPool(2, 4, render);
    const opts: GrounderPretrainOptions = { seed: 3, steps: 4, paint, batchSize: 4, perScreen: 2, screens: 20, real: { share: 0.5, pages } };
    const a = await run(opts);
    expect(a.report?.data).toEqual({ examples: { world: 8, 'real-dom': 8 }, realShare: 0.5, realPages: 4 });
    const b = await run(opts);
    expect(Buffer.from(b.bytes as Uint8Array).equals(Buffer.from(a.bytes as Uint8Array))).toBe(true);
    // Stopped after step 2 and resumed from its checkpoint: the same weights and the same counts.
    const stopped = await run(opts, undefined, 2);
    expect(stopped.kept?.record.examples).toEqual({ world: 4, 'real-dom': 4 });
    const resumed = await run(opts, stopped.kept);
    expect(resumed.report?.data).toEqual(a.report?.data);
    expect(Buffer.from(resumed.bytes as Uint8Array).equals(Buffer.from(a.bytes as Uint8Array))).toBe(true);
    // The mix changes what is learned: a world-only run ends elsewhere, and counts no real example.
    const world = await run({ ...opts, real: undefined });
    expect(world.report?.data).toEqual({ examples: { world: 16, 'real-dom': 0 }, realShare: 0, realPages: 0 });
    expect(Buffer.from(world.bytes as Uint8Array).equals(Buffer.from(a.bytes as Uint8Array))).toBe(false);
  }, 240_000);

  it('refuses a share out of range, or a share without pages', async () => {
    const params = initGrounder(new Random(4), cfg);
    try {
      const base: GrounderPretrainOptions = { seed: 3, steps: 1, paint, batchSize: 4, perScreen: 2, screens: 20 };
      await expect(pretrainGrounder(params, cfg, tok, { ...base, real: { share: 1.5, pages: [] } })).rejects.toThrow(/0 ≤ share ≤ 1/);
      await expect(pretrainGrounder(params, cfg, tok, { ...base, real: { share: 0.2, pages: [] } })).rejects.toThrow(/needs real pages/);
    } finally {
      disposeParams(params);
    }
  });
});

describe('the knob', () => {
  it('npm run pretrain -- --real-share X', () => {
    const p = parsePretrainArgs(['--real-share', '0.25']);
    if (!p.help) expect(p.args.realShare).toBe(0.25);
    for (const bad of ['-0.1', '1.5', 'half', 'Infinity']) expect(() => parsePretrainArgs(['--real-share', bad])).toThrow(/--real-share must be a number with 0 ≤ X ≤ 1/);
    expect(() => parsePretrainArgs(['--real-share', '0.3', '--only', 'planner'])).toThrow(/--only planner does not train it/);
    expect(() => parsePretrainArgs(['--real-share', '0.3', '--measure', 'public/base'])).toThrow(/nothing to mix/);
  });

  it('the job refuses a bad realShare with the field named', () => {
    const o = { preset: 'tiny' as const, seed: 1, models: ['grounder' as const], scale: 1 };
    expect(() => checkPretrainOptions({ ...o, realShare: 0.3 })).not.toThrow();
    expect(() => checkPretrainOptions({ ...o, realShare: -1 })).toThrow(/realShare must be a number with 0 ≤ realShare ≤ 1/);
    expect(() => checkPretrainOptions({ ...o, realShare: Number.NaN })).toThrow(/realShare must be/);
    expect(() => checkPretrainOptions({ ...o, models: ['planner'], realShare: 0.3 })).toThrow(/does not train the grounder/);
    expect(() => checkPretrainOptions({ ...o, measure: { grounder: 'AA==' }, realShare: 0.3 })).toThrow(/trains nothing/);
  });
});

describe("the manifest's real-screen rows", () => {
  it('a row per style, per look and over all pages, each with n, Wilson interval and chance', () => {
    const g = (style: 'text' | 'icon', hit: boolean) => ({
      pageId: 'rs-held-out-1000000', look: 'plain' as const, pattern: 'form' as const, style, instruction: 'x', box: { x: 10, y: 10, w: 10, h: 10 },
      point: hit ? { x: 15, y: 15 } : { x: 100, y: 100 }, chanceControls: 0.25, chanceArea: 0.01,
    });
    const rows = realSuiteFigures(realScreenFigures([g('text', true), g('text', false), g('icon', true)]));
    expect(rows.map((r) => r.name)).toEqual([
      'real screens: click-in-box, text style',
      'real screens: click-in-box, icon style',
      'real screens: click-in-box, plain look',
      'real screens: click-in-box, all (1 page)',
    ]);
    expect(rows[0]).toMatchObject({ model: 'grounder', value: 0.5, chance: 0.25, n: 2 });
    expect(rows[0].low).toBeGreaterThan(0);
    expect(rows[0].high).toBeLessThan(1);
    expect(rows[3]).toMatchObject({ value: 2 / 3, n: 3 });
  });
});
