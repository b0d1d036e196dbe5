/**
 * The real-screen suite in the loop's evaluation (issue 30): with screens
 * given, the evaluate phase grounds them with the iteration's grounder and
 * records real/<style>/{accuracy, chance} and real/all/… with n beside the
 * world suites' keys, which stay as they were; without screens (an engine
 * in Node has no page to draw them), it records the same world keys and a
 * note saying why, and nothing fails. The pages' pixels and boxes are made
 * up here (Node has no DOM): every box covers the whole screen, so every
 * greedy point hits and accuracy is exactly 1 whatever the untrained
 * grounder does.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as tf from '../../src/models/tf';
import '@tensorflow/tfjs-backend-wasm';
import { defaultConfig } from '../../src/coevo/config';
import { PhaseJournal } from '../../src/coevo/phaseJournal';
import { phaseRandom, type PhaseContext, type RealScreenSource } from '../../src/coevo/phases/context';
import { evaluatePhase } from '../../src/coevo/phases/evaluate';
import { realSuite } from '../../src/coevo/phases/evaluateRealScreens';
import { REAL_SKIPPED, realScreenMetrics } from '../../src/coevo/realScreenMetrics';
import { countsFromSummary, metricsFromSummary } from '../../src/coevo/report';
import { RunState } from '../../src/coevo/runState';
import { Random } from '../../src/learn/random';
import { initGrounder } from '../../src/models/grounder';
import { initPlanner } from '../../src/models/planner';
import { syntheticScreenImage } from '../../src/models/rasterize';
import { realScreenSuite } from '../../src/realScreens/pages';
import { realScreenFigures, type RealGrounding } from '../../src/realScreens/score';
import { suiteInput, type RealScreenInput } from '../../src/realScreens/suiteInput';
import type { RealBox, RealPage } from '../../src/realScreens/types';

beforeAll(async () => {
  await tf.setBackend('wasm');
  await tf.ready();
});

/** A page as if the browser had drawn it: grey pixels, and every element's box the whole screen. */
function fakeScreen(page: RealPage): RealScreenInput {
  const whole: RealBox = { x: 0, y: 0, w: page.width, h: page.height };
  const boxes = Object.fromEntries(page.elements.map((e) => [e.id, whole]));
  return suiteInput(page, { pageId: page.id, width: page.width, height: page.height, rgba: new Uint8Array(page.width * page.height * 4).fill(128), boxes });
}

describe('real-screen metrics', () => {
  it('keys per style in REF_STYLES order, then all, each with its chance and n', () => {
    const g = (style: RealGrounding['style'], hit: boolean): RealGrounding => ({
      pageId: 'p', look: 'plain', pattern: 'form', style, instruction: 'click x', box: { x: 0, y: 0, w: 10, h: 10 },
      point: hit ? { x: 5, y: 5 } : { x: 50, y: 50 }, chanceControls: 0.25, chanceArea: 0.01,
    });
    const counts: Record<string, number> = {};
    const m = realScreenMetrics(realScreenFigures([g('icon', true), g('text', true), g('text', false)]), counts);
    expect(Object.keys(m)).toEqual(['real/text/accuracy', 'real/text/chance', 'real/icon/accuracy', 'real/icon/chance', 'real/all/accuracy', 'real/all/chance']);
    expect(m['real/text/accuracy']).toBe(0.5);
    expect(m['real/all/accuracy']).toBeCloseTo(2 / 3);
    expect(m['real/all/chance']).toBe(0.25);
    expect(counts).toEqual({ 'real/text/accuracy': 2, 'real/text/chance': 2, 'real/icon/accuracy': 1, 'real/icon/chance': 1, 'real/all/accuracy': 3, 'real/all/chance': 3 });
  });

  it('says why there is no suite rather than failing', async () => {
    expect(await realSuite(undefined)).toHaveProperty('skipped');
    expect(await realSuite(async () => null)).toHaveProperty('skipped');
    expect(await realSuite(async () => [])).toEqual({ skipped: 'the page gave an empty real-screen suite' });
    expect(await realSuite(async () => Promise.reject(new Error('no canvas')))).toEqual({ skipped: 'the page could not render the real-screen suite: no canvas' });
  });
});

describe('the evaluate phase with and without the real-screen suite (tiny preset, WASM)', () => {
  const config = { ...defaultConfig('tiny', 3), evalSize: 1 };
  const state = new RunState(config);
  const pages = realScreenSuite(2);
  const screens = pages.map(fakeScreen);
  const queries = screens.reduce((n, s) => n + s.queries.length, 0);

  beforeAll(() => {
    state.install(0, { planner: initPlanner(new Random(3).fork('planner'), state.plannerCfg), grounder: initGrounder(new Random(3).fork('grounder'), state.grounderCfg) });
  });
  afterAll(() => state.dispose());

  async function evaluate(realScreens?: RealScreenSource) {
    let batches = 0;
    const journal = new PhaseJournal({ gate: { batch: async () => void batches++ } });
    const ctx: PhaseContext = {
      runId: 'r', config, iteration: 0, phase: 'evaluate', state, paint: syntheticScreenImage, rng: phaseRandom(config.seed, 0, 'evaluate'),
      journal, signal: new AbortController().signal, report: () => {}, ...(realScreens ? { realScreens } : {}),
    };
    const { summary } = await evaluatePhase(ctx);
    return { summary, batches };
  }

  it('records real/<style>/… with n when screens are given, skips them with a note when not, and leaves the world keys alone', async () => {
    const before = tf.memory().numTensors;
    const without = await evaluate();
    const given = await evaluate(async () => screens);
    expect(tf.memory().numTensors).toBe(before);

    expect(typeof without.summary[REAL_SKIPPED]).toBe('string');
    expect(Object.keys(metricsFromSummary(without.summary)).filter((k) => k.startsWith('real/'))).toEqual([]);
    expect(given.summary[REAL_SKIPPED]).toBeUndefined();

    const m = metricsFromSummary(given.summary);
    const n = countsFromSummary(given.summary);
    const world = (x: Record<string, number>) => Object.fromEntries(Object.entries(x).filter(([k]) => !k.startsWith('real/')));
    // The real screens are grounded after every world batch, so the world figures are the same with or without them.
    expect(world(m)).toEqual(metricsFromSummary(without.summary));
    expect(world(n)).toEqual(countsFromSummary(without.summary));
    // One gated batch per 16 real-screen instructions.
    expect(given.batches - without.batches).toBe(Math.ceil(queries / 16));

    const styles = [...new Set(screens.flatMap((s) => s.queries.map((q) => q.style)))];
    const real = Object.keys(m).filter((k) => k.startsWith('real/')).sort();
    expect(real).toEqual([...styles, 'all'].flatMap((s) => [`real/${s}/accuracy`, `real/${s}/chance`]).sort());
    expect(m['real/all/accuracy']).toBe(1);
    expect(n['real/all/accuracy']).toBe(queries);
    for (const s of styles) {
      expect(m[`real/${s}/accuracy`]).toBe(1);
      expect(m[`real/${s}/chance`]).toBeGreaterThan(0);
      expect(n[`real/${s}/accuracy`]).toBe(screens.flatMap((x) => x.queries).filter((q) => q.style === s).length);
    }
  }, 300_000);
});
