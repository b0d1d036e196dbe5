/**
 * The planner-grpo phase of a real (very small) run stores its groups with
 * its commit, and what they say agrees with the phase's own numbers: every
 * group of every batch is recorded here (2 prompts per batch), so each
 * batch's mean group reward is that batch's point of the reward curve, and
 * each sample's reward follows from its hits and weights.
 *
 * A planner trained for 3 steps writes nothing that parses (measured: 0 of
 * 12 samples, also after 15 steps), so here the rewards are all 0 and the
 * per-grounder checks find nothing to check; grpo-groups.test.ts checks the
 * contents of grounded samples on real states with the real plan reward.
 */
import 'fake-indexeddb/auto';
import { beforeAll, describe, expect, it } from 'vitest';
import * as tf from '../../src/models/tf';
import '@tensorflow/tfjs-backend-wasm';
import { defaultConfig, type CoevoConfig } from '../../src/coevo/config';
import { syntheticScreenImage } from '../../src/models/rasterize';
import { PLANNER_GRPO_REWARD } from '../../src/coevo/phases/plannerGrpo';
import { CoevoRunner } from '../../src/coevo/runner';
import { Store } from '../../src/store/store';

beforeAll(async () => {
  await tf.setBackend('wasm');
  await tf.ready();
});

// As coevo-runner.test's LoRA run: a high SFT rate so the planner writes eos and decoding stays short.
const CONFIG: CoevoConfig = {
  ...defaultConfig('tiny', 5),
  start: 'scratch',
  iterations: 1,
  plannerSftSteps: 3,
  grounderSftSteps: 3,
  plannerGrpoSteps: 2,
  grounderTrainSteps: 3,
  plannerBatch: 4,
  grounderBatch: 4,
  grpoPrompts: 2,
  groupSize: 3,
  seedTasks: 3,
  distillStates: 3,
  evalSize: 2,
  grounderGrpo: false,
  lora: { enabled: true, rank: 2, alpha: 4 },
  plannerSftLr: 0.05,
};

describe('planner-grpo groups', () => {
  it('are committed with the phase and agree with its rewards', async () => {
    const store = await Store.open('grpo-groups-engine-test');
    const r = await CoevoRunner.create({ store, paint: syntheticScreenImage, device: { backend: 'wasm', adapter: 'none' } }, CONFIG);
    // Phases 0–3 are the seed phases and the first evaluation; the fifth is planner GRPO.
    for (let i = 0; i < 5; i++) expect(await r.stepPhase()).toBe('paused');
    const phases = await store.listPhases(r.runId);
    expect(phases.map((p) => p.phase)).toContain('planner-grpo');

    const groups = await store.getGroups(r.runId);
    expect(await store.listGroupBatches(r.runId)).toEqual([
      { iteration: 1, batch: 0, groups: 2 },
      { iteration: 1, batch: 1, groups: 2 },
    ]);
    const summary = phases.find((p) => p.phase === 'planner-grpo')!.summary;
    expect(groups[0].pool.map((m) => `${m.name}:${m.prior}`).join(',')).toBe(summary.pool);
    expect(groups.filter((g) => g.informative).length).toBe(summary.informative_groups);

    const curve = await store.getMetric(r.runId, PLANNER_GRPO_REWARD);
    for (const batch of [0, 1]) {
      const own = groups.filter((g) => g.batch === batch).flatMap((g) => g.samples.map((s) => s.reward.total));
      expect(own).toHaveLength(2 * CONFIG.groupSize);
      expect(own.reduce((a, b) => a + b, 0) / own.length).toBeCloseTo(curve!.values[batch], 6);
    }

    for (const g of groups) {
      expect(g.screen.elements.length).toBeGreaterThan(0);
      expect(g.samples).toHaveLength(CONFIG.groupSize);
      const box = g.truth.box;
      if (!box) {
        // A step without a target (a scroll, an app launch): nothing is grounded, and the reward is r_type · r_value.
        for (const s of g.samples) {
          expect(s.groundings).toEqual([]);
          expect(s.reward.total).toBe(s.parsed ? s.reward.type * s.reward.value : 0);
        }
        expect(g.informative).toBe(new Set(g.samples.map((s) => s.reward.total)).size > 1);
        continue;
      }
      for (const s of g.samples) {
        expect(s.groundings).toHaveLength(s.parsed ? g.pool.length : 0);
        s.groundings.forEach((gr, j) => {
          const inside = gr.point !== null && gr.point.x >= box.x && gr.point.x <= box.x + box.w && gr.point.y >= box.y && gr.point.y <= box.y + box.h;
          expect(gr.hit).toBe(inside);
          expect(s.reward.hits[j]).toBe(inside ? 1 : 0);
        });
        const plan = s.reward.weights.reduce((a, w, j) => a + w * s.reward.hits[j], 0);
        expect(s.reward.total).toBeCloseTo(s.reward.type * s.reward.value === 1 ? plan : 0, 9);
      }
      expect(g.informative).toBe(new Set(g.samples.map((s) => s.reward.total)).size > 1);
    }
    r.dispose();
    await r.whenDisposed();
    store.close();
  }, 600_000); // five phases of a tiny run, the evaluation sampling the planner too: over 120 s on a loaded 2-core machine (a guard against hangs)
});
