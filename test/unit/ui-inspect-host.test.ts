import 'fake-indexeddb/auto';
import '@tensorflow/tfjs-backend-wasm';
import { beforeAll, describe, expect, it } from 'vitest';
import * as tf from '../../src/models/tf';
import { Random } from '../../src/learn/random';
import { groundOnce } from '../../src/learn/groundOnce';
import { agentStep } from '../../src/coevo/agentStep';
import { needsPoint } from '../../src/coevo/evaluateOnline';
import { defaultConfig, validateConfig } from '../../src/coevo/config';
import { configRecord } from '../../src/coevo/runner';
import { checkpointRecord } from '../../src/coevo/runState';
import { syntheticScreenImage } from '../../src/models/rasterize';
import { grounderPreset, plannerPreset } from '../../src/models/presets';
import { initPlanner } from '../../src/models/planner';
import { initGrounder } from '../../src/models/grounder';
import { disposeParams } from '../../src/models/params';
import { Store } from '../../src/store/store';
import { defaultTokenizer } from '../../src/text/vocab';
import { parseInstruction, printInstruction } from '../../src/text/grammar';
import { screenOf, taskFor } from '../../src/world/play';
import { act, createWorld } from '../../src/world/env';
import { oracle } from '../../src/world/tasks';
import { SCREEN_SIZE } from '../../src/world/types';
import { createInspectHost } from '../../workers/inspectHost';
import { baseFileName } from '../../src/pretrain/baseTypes';
import { readFileSync } from 'node:fs';

beforeAll(async () => {
  await tf.setBackend('wasm');
  await tf.ready();
});

const tok = defaultTokenizer();
const cfg = grounderPreset('tiny', tok.size);
const task = taskFor('mail.delete', 3);

describe('groundOnce', () => {
  it('gives a heat map over the screen, greedy and sampled points with dense rewards, and the attention verdict, without leaking tensors', async () => {
    const params = initGrounder(new Random(5), cfg);
    const screen = screenOf(createWorld(task));
    const step = oracle(task).find((s) => s.box);
    expect(step).toBeDefined();
    const before = tf.memory().numTensors;
    const r = await groundOnce(params, cfg, tok, { image: syntheticScreenImage(screen), platform: screen.platform, instruction: printInstruction(step!.instruction) }, { samples: 5, rng: new Random(1), box: step!.box });
    expect(tf.memory().numTensors).toBe(before);
    expect([r.cols, r.rows]).toEqual([SCREEN_SIZE.web.width / 8, SCREEN_SIZE.web.height / 8]);
    expect(r.heat.length).toBe(r.cols * r.rows);
    const mass = r.heat.reduce((a, b) => a + b, 0);
    expect(mass).toBeGreaterThan(0.999);
    expect(mass).toBeLessThan(1.001);
    expect(r.greedy.x).toBeLessThanOrEqual(screen.width);
    expect(r.greedy.y).toBeLessThanOrEqual(screen.height);
    expect(r.greedy.prob).toBeCloseTo(Math.max(...r.heat), 5);
    expect(r.sampled).toHaveLength(5);
    for (const p of [r.greedy, ...r.sampled]) {
      expect(p.reward).toBeDefined();
      expect(p.reward!.total).toBeGreaterThanOrEqual(1);
      expect(p.reward!.total).toBeLessThanOrEqual(5);
    }
    expect(r.attention?.reason).toMatch(/^(kept|dropped)/);
    disposeParams(params);
  });

  it('refuses an image of the wrong size with a sentence that says what it needs', async () => {
    const params = initGrounder(new Random(5), cfg);
    await expect(groundOnce(params, cfg, tok, { image: new Float32Array(10), platform: 'web', instruction: 'click Send' })).rejects.toThrow(/canvasFromRgba/);
    disposeParams(params);
  });
});

describe('agentStep', () => {
  it('plays the oracle instruction with the grounder, shows the true box, and replays the steps taken', async () => {
    const params = initGrounder(new Random(5), cfg);
    const grounder = { params, cfg };
    const first = await agentStep({ task, taken: [], planner: 'oracle', grounder, tok, paint: syntheticScreenImage });
    expect(first.index).toBe(0);
    expect(first.instruction).toBe(printInstruction(oracle(task)[0].instruction));
    expect(first.truth?.instruction).toBe(first.instruction);
    expect(first.parsed).toBe(true);
    expect(first.next).toEqual(screenOf(act(createWorld(task), first.action!)));
    // Replaying the oracle's own first action puts the episode on its second step.
    const steps = oracle(task);
    const second = await agentStep({ task, taken: [{ instruction: first.instruction, action: steps[0].action }], planner: 'oracle', grounder, tok, paint: syntheticScreenImage });
    expect(second.index).toBe(1);
    expect(second.screen).toEqual(screenOf(act(createWorld(task), steps[0].action)));
    expect(second.instruction).toBe(printInstruction(steps[1].instruction));
    disposeParams(params);
  });
});

describe('agentStep with a planner model', () => {
  it('decodes an instruction greedily and frees every tensor', async () => {
    const grounder = { params: initGrounder(new Random(5), cfg), cfg };
    const pcfg = plannerPreset('tiny', tok.size);
    const planner = { params: initPlanner(new Random(6), pcfg), cfg: pcfg };
    const before = tf.memory().numTensors;
    const a = await agentStep({ task, taken: [], planner, grounder, tok, paint: syntheticScreenImage });
    const b = await agentStep({ task, taken: [], planner, grounder, tok, paint: syntheticScreenImage });
    expect(tf.memory().numTensors).toBe(before);
    expect(typeof a.instruction).toBe('string');
    expect(b.instruction).toBe(a.instruction); // greedy: the same every time
    const parsed = parseInstruction(a.instruction);
    expect(a.parsed).toBe(parsed !== null);
    // Only an instruction that names a target is grounded.
    expect(a.grounding !== null).toBe(parsed !== null && needsPoint(parsed));
    disposeParams(grounder.params);
    disposeParams(planner.params);
  });
});

describe('inspect host', () => {
  it("answers from a run's stored grounders: current and previous generations, and says when there is none", async () => {
    const store = await Store.open('inspect-host-test');
    const config = validateConfig({ ...defaultConfig('tiny', 1), iterations: 2 });
    await store.putRun({ id: 'r', kind: 'coevo', name: 'test run', createdAt: 1, status: 'running', backend: 'wasm', seed: 1, config: configRecord(config) });
    const g0 = initGrounder(new Random(10), cfg);
    const g1 = initGrounder(new Random(11), cfg);
    await store.putCheckpoint(await checkpointRecord('r', 'grounder', 0, g0, cfg));
    await store.putCheckpoint(await checkpointRecord('r', 'grounder', 1, g1, cfg));
    disposeParams(g0);
    disposeParams(g1);

    // The base models as the app ships them (public/base/), read from disk instead of fetched.
    const asked: string[] = [];
    const base = async (model: 'planner' | 'grounder', preset: string) => {
      asked.push(`${model}/${preset}`);
      return new Uint8Array(readFileSync(new URL(`../../public/base/${baseFileName(preset, model)}`, import.meta.url)));
    };
    const host = createInspectHost({ store: async () => store, paint: async () => syntheticScreenImage, device: () => ({ backend: 'wasm' }), base });
    const screen = screenOf(createWorld(task));
    const ask = { runId: 'r', preset: 'tiny' as const, screen, instruction: 'click the Send button', samples: 3 };
    const latest = await host.groundScreen({ ...ask, iteration: 'latest', which: 'current' });
    expect(latest.model).toMatchObject({ untrained: false, iteration: 1 });
    const previous = await host.groundScreen({ ...ask, iteration: 'latest', which: 'previous' });
    expect(previous.model.iteration).toBe(0);
    expect(Array.from(previous.heat)).not.toEqual(Array.from(latest.heat));
    await expect(host.groundScreen({ ...ask, iteration: 0, which: 'previous' })).rejects.toThrow(/no previous generation/);
    // Without a run: the base grounder where one ships (tiny, demo), an untrained one where none does (full).
    const shipped = await host.groundScreen({ ...ask, runId: null, iteration: 'latest', which: 'current' });
    expect(shipped.model).toMatchObject({ untrained: false, iteration: null });
    expect(shipped.model.label).toMatch(/^base grounder \(tiny preset, pretrained/);
    expect(asked).toEqual(['grounder/tiny']);
    expect(Array.from(shipped.heat)).not.toEqual(Array.from(latest.heat));
    await expect(host.groundScreen({ ...ask, runId: null, iteration: 'latest', which: 'previous' })).rejects.toThrow(/The base grounder has no previous generation/);
    const demo = await host.groundScreen({ ...ask, preset: 'demo', runId: null, iteration: 'latest', which: 'current' });
    expect(demo.model).toMatchObject({ untrained: false, iteration: null });
    expect(demo.model.label).toMatch(/^base grounder \(demo preset, pretrained/);
    const untrained = await host.groundScreen({ ...ask, preset: 'full', runId: null, iteration: 'latest', which: 'current' });
    expect(untrained.model.untrained).toBe(true);
    expect(untrained.model.label).toMatch(/untrained grounder \(full preset/);
    expect(asked).toEqual(['grounder/tiny', 'grounder/demo']);

    // A screenshot as pixels of a platform's screen size, and one of another size (refused).
    const { width, height } = SCREEN_SIZE.mobile;
    const rgba = new Uint8Array(width * height * 4).fill(200);
    const shot = await host.groundScreen({ ...ask, screen: { rgba, width, height }, iteration: 1, which: 'current' });
    expect([shot.cols, shot.rows]).toEqual([width / 8, height / 8]);
    await expect(host.groundScreen({ ...ask, screen: { rgba, width: 10, height: 10 }, iteration: 1, which: 'current' })).rejects.toThrow(/scaled to a screen of the world/);

    // A run without a planner yet cannot play; the oracle planner can.
    await expect(host.playStep({ model: { runId: 'r', iteration: 'latest', preset: 'tiny' }, task, taken: [], planner: 'model' })).rejects.toThrow(/no trained planner yet/);
    const played = await host.playStep({ model: { runId: 'r', iteration: 'latest', preset: 'tiny' }, task, taken: [], planner: 'oracle' });
    expect(played.grounder.iteration).toBe(1);
    expect(played.planner).toBeNull();

    const tensors = tf.memory().numTensors;
    host.models.clear();
    expect(host.models.size()).toBe(0);
    expect(tf.memory().numTensors).toBeLessThan(tensors);
    store.close();
  });
});
