/**
 * GRPO on the planner against a fixed grounder pool raises the mean C-DREM
 * reward on held-out states (issue 4, acceptance 3). Node, tfjs WASM, the
 * tiny preset's network, fixed seeds; runs from scratch: SFT, then GRPO.
 *
 * SFT phase: as in learn-planner-learning.test.ts (300 steps × 16 mobile
 * training states, lr 3e-3, P = 128), so GRPO starts from a policy whose
 * samples sometimes earn reward.
 * GRPO phase: prompts are training states in their natural mix (targeted
 * clicks and typing, first steps that open an app, scrolls …), G = 7,
 * temperature 1, β = 0.01, ε = 0.2, Adam lr 5e-4, global-norm clip 1.
 * Held-out: 120 states of buildSuites' mobile suite (test seeds), never
 * trained on; greedy decoding, the same states before and after.
 *
 * Grounder pool (fixed): two honest rule-based members on the verifier, one
 * that understands every referring style (σ = 2) and one that only reads
 * text references (σ = 1).
 *
 * What was measured (see the report of the session that wrote this): GRPO
 * from these SFT weights mostly teaches which app a goal needs (the SFT
 * planner opens People or Tempo for every goal), which the reward checks
 * exactly; target accuracy moves little either way. GRPO on targeted states
 * only lowered the held-out reward (their sampled rewards are near 0: one
 * informative group in eight), and so did lr 1e-3.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import * as tf from '../../src/models/tf';
import '@tensorflow/tfjs-backend-wasm';
import { Random } from '../../src/learn/random';
import { defaultTokenizer } from '../../src/text/vocab';
import { plannerPreset } from '../../src/models/presets';
import { initPlanner, type PlannerConfig } from '../../src/models/planner';
import { disposeParams } from '../../src/models/params';
import { makePlannerSft } from '../../src/learn/plannerSft';
import { makePlannerGrpo } from '../../src/learn/plannerGrpo';
import { verifierGrounder } from '../../src/learn/plannerGrounderPool';
import { plannerSftBatch, plannerStatesOf, trainingPlannerStates, type PlannerState } from '../../src/learn/plannerStates';
import { evalPlanner, type PlannerEval } from '../../src/learn/evalPlanner';
import { buildSuites } from '../../src/world/suites';

beforeAll(async () => {
  await tf.setBackend('wasm');
  await tf.ready();
});

const tok = defaultTokenizer();
const cfg: PlannerConfig = { ...plannerPreset('tiny'), promptLength: 128 };
const train = trainingPlannerStates(new Random(7), 2000, 'mobile');
const heldOut = new Random(5).shuffle(plannerStatesOf(buildSuites(1, { webPerSplit: 1, mobile: 60, groundingPerSplit: 1 }).mobile)).slice(0, 120);
const pool = [verifierGrounder({ name: 'verifier', prior: 2 }), verifierGrounder({ name: 'text reader', prior: 1, styles: ['text'] })];

const SFT_STEPS = 300;
const SFT_BATCH = 16;
const GRPO_STEPS = 24;
const GRPO_PROMPTS = 8;
const GRPO = { lr: 5e-4, groupSize: 7, temperature: 1, clipNorm: 1 };
/** Held-out mean reward must rise by at least this much (measured gains: see the report). */
const MARGIN = 0.04;

/** Which part of the held-out reward a state belongs to: a target element, opening an app, or another target-less step. */
const kindOf = (s: PlannerState) => (s.step.box ? 'target' : s.step.type === 'OPEN_APP' ? 'open-app' : 'other');

function show(e: PlannerEval): string {
  const parts = ['target', 'open-app', 'other'].map((k) => {
    const rows = e.rows.filter((_, i) => kindOf(heldOut[i]) === k);
    return `${k} ${rows.reduce((a, r) => a + (r.reward?.total ?? 0), 0).toFixed(1)}/${rows.length}`;
  });
  return `reward ${e.meanReward.toFixed(3)} (${parts.join(', ')}) exact ${e.exactMatch.toFixed(3)} type ${e.typeAccuracy.toFixed(3)} parse ${e.parseRate.toFixed(3)}`;
}

describe('planner GRPO on held-out states', () => {
  it('raises the held-out mean plan reward over the SFT policy it starts from, against a fixed grounder pool', async () => {
    const params = initPlanner(new Random(3), cfg);
    const sft = makePlannerSft(params, cfg, { lr: 3e-3, clipNorm: 1 });
    const rng = new Random(11);
    let order: PlannerState[] = rng.shuffle(train);
    let pos = 0;
    for (let s = 0; s < SFT_STEPS; s++) {
      if (pos + SFT_BATCH > order.length) [order, pos] = [rng.shuffle(train), 0];
      await sft.step(plannerSftBatch(tok, cfg, order.slice(pos, (pos += SFT_BATCH))));
    }
    sft.dispose();

    const before = await evalPlanner(params, cfg, tok, heldOut, { pool, batchSize: 40 });
    const tensors = tf.memory().numTensors;
    const grpo = makePlannerGrpo(params, cfg, tok, { ...GRPO, pool, rng: new Random(13) });
    const prompts = new Random(17).shuffle(train);
    let informative = 0;
    let groups = 0;
    const t0 = performance.now();
    console.log(`planner GRPO ${GRPO_STEPS} steps × ${GRPO_PROMPTS} prompts × G ${GRPO.groupSize}, lr ${GRPO.lr}, T ${GRPO.temperature}; pool ${pool.map((g) => `${g.name} σ=${g.prior}`).join(', ')}`);
    for (let s = 0; s < GRPO_STEPS; s++) {
      const r = await grpo.step(prompts.slice(s * GRPO_PROMPTS, (s + 1) * GRPO_PROMPTS));
      informative += r.informativeGroups;
      groups += r.groups;
      const styles = new Map<string, number>();
      for (const x of r.samples) {
        const k = x.reward.parsed ? (x.reward.parsed.ref?.style ?? 'no target') : 'unparsed';
        styles.set(k, (styles.get(k) ?? 0) + 1);
      }
      console.log(
        `  step ${String(s + 1).padStart(2)} reward ${r.meanReward.toFixed(3)} informative ${r.informativeGroups}/${r.groups} kl ${r.kl.toFixed(4)} ` +
          [...styles].map(([k, n]) => `${k} ${n}`).join(', '),
      );
    }
    const sPerStep = (performance.now() - t0) / 1000 / GRPO_STEPS;
    grpo.dispose();
    expect(tf.memory().numTensors).toBe(tensors);
    const after = await evalPlanner(params, cfg, tok, heldOut, { pool, batchSize: 40 });
    console.log(`  ${sPerStep.toFixed(1)} s/step; informative groups ${informative}/${groups}`);
    console.log(`  held-out (${heldOut.length} mobile states) before ${show(before)}`);
    console.log(`  held-out (${heldOut.length} mobile states) after  ${show(after)}`);
    disposeParams(params);

    expect(informative / groups).toBeGreaterThanOrEqual(0.2);
    expect(after.meanReward).toBeGreaterThanOrEqual(before.meanReward + MARGIN);
  }, 1_200_000);
});
