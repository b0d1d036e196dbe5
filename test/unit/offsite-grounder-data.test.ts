/**
 * The grounder's offsite data and loss: the private set comes only from the
 * held-out sites and domain (suites.ts cross-site, cross-domain), at test
 * seeds, and no test task gives a tuning item; the public set comes only
 * from training tasks; the loss the harmonizers learn on and the comparison
 * reports is the loss the grounder's SFT (adapter tuning) lowers.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import * as tf from '../../src/models/tf';
import '@tensorflow/tfjs-backend-wasm';
import { grounderBatch } from '../../src/models/grounderData';
import { initGrounder } from '../../src/models/grounder';
import { disposeParams } from '../../src/models/params';
import { grounderPreset } from '../../src/models/presets';
import { defaultTokenizer } from '../../src/text/vocab';
import { Random } from '../../src/learn/random';
import { makeGrounderSft } from '../../src/learn/grounderSft';
import { buildSuites, TEST_SEED_BASE } from '../../src/world/suites';
import { grounderPrivateSet, grounderPublicExamples } from '../../src/offsite/grounderPrivateSet';
import { grounderBatchLoss } from '../../src/offsite/grounderLoss';

beforeAll(async () => {
  await tf.setBackend('wasm');
  await tf.ready();
});

const seedOf = (taskId: string) => Number(/\|s(\d+)\|/.exec(taskId)?.[1]);

describe('the grounder\'s private and public sets', () => {
  it('private: held-out sites and domain only, test seeds, split by task', () => {
    const priv = grounderPrivateSet(77, 6);
    const web = buildSuites(77, { webPerSplit: 6, mobile: 0, groundingPerSplit: 0 }).web;
    const heldOut = new Set([...web['cross-site'], ...web['cross-domain']].map((t) => t.id));
    expect(priv.trainTasks + priv.testTasks).toBe(heldOut.size);
    expect(priv.test.length).toBeGreaterThan(0);
    expect(priv.train.length).toBeGreaterThan(priv.test.length);
    for (const item of [...priv.train, ...priv.test]) {
      expect(heldOut.has(item.taskId)).toBe(true);
      expect(['cross-site', 'cross-domain']).toContain(item.split);
      expect(seedOf(item.taskId)).toBeGreaterThanOrEqual(TEST_SEED_BASE);
    }
    const trainIds = new Set(priv.train.map((x) => x.taskId));
    expect(priv.test.filter((x) => trainIds.has(x.taskId))).toHaveLength(0);
    // Deterministic from the seed.
    expect(grounderPrivateSet(77, 6).test.map((x) => x.instruction)).toEqual(priv.test.map((x) => x.instruction));
  });

  it('public: training tasks only (seeds below the test base)', () => {
    const pub = grounderPublicExamples(77, 12);
    expect(pub).toHaveLength(12);
    for (const e of pub) expect(seedOf(e.taskId)).toBeLessThan(TEST_SEED_BASE);
  });
});

describe('the grounder\'s offsite loss', () => {
  it('equals the SFT loss the tuning step reports before its update', async () => {
    const cfg = grounderPreset('tiny');
    const params = initGrounder(new Random(1), cfg);
    const batch = grounderBatch(defaultTokenizer(), cfg, grounderPublicExamples(3, 4));
    const l = grounderBatchLoss(cfg)(params, batch);
    const ours = (await l.data())[0];
    l.dispose();
    const sft = makeGrounderSft(params, cfg, { lr: 1e-3 });
    const step = await sft.step(batch);
    sft.dispose();
    disposeParams(params);
    expect(Number.isFinite(ours)).toBe(true);
    expect(ours).toBeCloseTo(step.loss, 4);
  }, 300_000); // 10–20 s alone; over 120 s with four jobs on two cores
});
