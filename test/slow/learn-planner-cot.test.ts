/**
 * CoT-SFT trains the planner to write `<think> trace </think> instruction`
 * (trace: the target element as the screen lists it, and its purpose; see
 * plannerStates.cotReasoning), and what it writes on held-out states parses.
 * Tiny preset network, P = 96, C = 32 (CoT completions: median 18 tokens,
 * 95th percentile 28); mobile training tasks, held-out mobile suite states.
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
import { plannerSftBatch, plannerStatesOf, trainingPlannerStates, type PlannerState } from '../../src/learn/plannerStates';
import { evalPlanner, type PlannerEval } from '../../src/learn/evalPlanner';
import { buildSuites } from '../../src/world/suites';

beforeAll(async () => {
  await tf.setBackend('wasm');
  await tf.ready();
});

const tok = defaultTokenizer();
const STEPS = 250;
const BATCH = 8;

const show = (e: PlannerEval) => `exact ${e.exactMatch.toFixed(3)} type ${e.typeAccuracy.toFixed(3)} parse ${e.parseRate.toFixed(3)}`;
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

describe('planner CoT-SFT', () => {
  it('trains, and its held-out outputs carry a closed reasoning and parse', async () => {
    const cfg: PlannerConfig = { ...plannerPreset('tiny'), promptLength: 96, completionLength: 32 };
    const train = trainingPlannerStates(new Random(7), 1500, 'mobile');
    const heldOut = new Random(5).shuffle(plannerStatesOf(buildSuites(1, { webPerSplit: 1, mobile: 30, groundingPerSplit: 1 }).mobile)).slice(0, 32);
    const params = initPlanner(new Random(3), cfg);
    const before = await evalPlanner(params, cfg, tok, heldOut, { batchSize: heldOut.length });
    const trainer = makePlannerSft(params, cfg, { lr: 3e-3, clipNorm: 1 });
    const rng = new Random(11);
    let order: PlannerState[] = rng.shuffle(train);
    let pos = 0;
    const losses: number[] = [];
    for (let s = 0; s < STEPS; s++) {
      if (pos + BATCH > order.length) [order, pos] = [rng.shuffle(train), 0];
      losses.push((await trainer.step(plannerSftBatch(tok, cfg, order.slice(pos, (pos += BATCH)), true))).loss);
    }
    trainer.dispose();
    const after = await evalPlanner(params, cfg, tok, heldOut, { batchSize: heldOut.length });
    disposeParams(params);
    const closed = (e: PlannerEval) => e.rows.filter((r) => r.reasoning !== undefined && r.output.length > 0).length / e.states;
    console.log(`planner CoT-SFT ${STEPS} steps × ${BATCH}: before ${show(before)}, closed ${closed(before).toFixed(2)} | after ${show(after)}, closed ${closed(after).toFixed(2)}`);
    console.log(`  loss first 10 steps ${mean(losses.slice(0, 10)).toFixed(3)} → last 10 ${mean(losses.slice(-10)).toFixed(3)}`);
    for (const r of after.rows.slice(0, 4)) console.log(`  <think> ${r.reasoning} </think> ${r.output}   (truth: ${r.truth})`);
    expect(mean(losses.slice(-10))).toBeLessThan(0.5 * mean(losses.slice(0, 10)));
    expect(closed(after)).toBeGreaterThanOrEqual(0.8);
    expect(after.parseRate).toBeGreaterThanOrEqual(0.8);
    expect(before.parseRate).toBe(0);
  }, 240_000);
});
