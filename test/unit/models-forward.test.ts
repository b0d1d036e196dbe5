import { beforeAll, describe, expect, it } from 'vitest';
import * as tf from '../../src/models/tf';
import '@tensorflow/tfjs-backend-wasm';
import { Random } from '../../src/learn/random';
import { defaultTokenizer } from '../../src/text/vocab';
import { grounderPreset, plannerPreset, describePresets } from '../../src/models/presets';
import { initGrounder, grounderForward, cellLogProbs, greedyPoints, samplePoints, heatmap } from '../../src/models/grounder';
import { initPlanner, plannerLogProbs, completionMask } from '../../src/models/planner';
import { plannerDecode } from '../../src/models/plannerDecode';
import { grounderExampleBatch, grounderTensors } from '../../src/models/grounderData';
import { plannerExampleBatch, plannerTensors, parseCompletion } from '../../src/models/plannerData';
import { countParams, disposeParams } from '../../src/models/params';
import { GRID_CELLS } from '../../src/models/canvas';

beforeAll(async () => {
  await tf.setBackend('wasm');
  await tf.ready();
});

const tok = defaultTokenizer();

describe('models: forward and backward on WASM', () => {
  it('prints parameter counts of every preset', () => {
    const text = describePresets();
    console.log(text);
    expect(text.split('\n')).toHaveLength(3);
  });

  it('grounder: one SFT-like step of the tiny preset, no tensor leak', async () => {
    const cfg = grounderPreset('tiny');
    const params = initGrounder(new Random(1), cfg);
    const batch = grounderExampleBatch(tok, cfg, 8, 3);
    expect(batch.examples).toHaveLength(8);
    const opt = tf.train.adam(1e-3);
    const before = tf.memory().numTensors;
    const times: number[] = [];
    for (let step = 0; step < 3; step++) {
      const t0 = performance.now();
      const loss = tf.tidy(() => {
        const inputs = grounderTensors(batch, cfg);
        return opt.minimize(() => {
          const out = grounderForward(params, cfg, inputs);
          return tf.neg(tf.mean(cellLogProbs(out.logits, tf.tensor1d(batch.targetCells, 'int32')))) as tf.Scalar;
        }, true, Object.values(params)) as tf.Scalar;
      });
      const v = (await loss.data())[0];
      loss.dispose();
      times.push(performance.now() - t0);
      expect(Number.isFinite(v)).toBe(true);
      if (step === 0) expect(v).toBeCloseTo(Math.log(390), -0.5); // near uniform over ~390-400 screen cells
    }
    // The optimizer's slots are created on the first step; count from after it.
    console.log(`grounder tiny (${countParams(params)} params) step ms at batch 8: ${times.map((t) => t.toFixed(0)).join(', ')}`);
    const mid = tf.memory().numTensors;
    const loss = tf.tidy(() => {
      const inputs = grounderTensors(batch, cfg);
      return opt.minimize(() => tf.neg(tf.mean(cellLogProbs(grounderForward(params, cfg, inputs).logits, tf.tensor1d(batch.targetCells, 'int32')))) as tf.Scalar, true, Object.values(params)) as tf.Scalar;
    });
    loss.dispose();
    expect(tf.memory().numTensors).toBe(mid);
    // Evaluation helpers read back without leaking.
    const inputs = grounderTensors(batch, cfg);
    const out = tf.tidy(() => grounderForward(params, cfg, inputs));
    const greedy = await greedyPoints(out);
    const sampled = await samplePoints(new Random(5), out, 4);
    const again = await samplePoints(new Random(5), out, 4);
    expect(sampled).toEqual(again);
    expect(greedy).toHaveLength(8);
    expect(sampled[0]).toHaveLength(4);
    const hm = heatmap(out.logits);
    const sums = tf.tidy(() => tf.sum(hm, 1));
    for (const s of await sums.data()) expect(s).toBeCloseTo(1, 4);
    tf.dispose([hm, sums, out.logits, out.offsets, out.embedding, ...Object.values(inputs)]);
    expect(out.embedding.shape).toEqual([8, 2 * cfg.dim]);
    expect(out.logits.shape).toEqual([8, GRID_CELLS]);
    opt.dispose();
    disposeParams(params);
    expect(tf.memory().numTensors).toBeLessThanOrEqual(before);
  });

  it('planner: one SFT-like step of the tiny preset, no tensor leak; decoding', async () => {
    const cfg = plannerPreset('tiny');
    const params = initPlanner(new Random(2), cfg);
    const batch = plannerExampleBatch(tok, cfg, 8, 4);
    const opt = tf.train.adam(1e-3);
    const step = () =>
      tf.tidy(() => {
        const { prompt, completion } = plannerTensors(batch, cfg);
        return opt.minimize(() => {
          const lp = plannerLogProbs(params, cfg, prompt, completion);
          const m = completionMask(completion);
          return tf.neg(tf.div(tf.sum(tf.mul(lp, m)), tf.sum(m))) as tf.Scalar;
        }, true, Object.values(params)) as tf.Scalar;
      });
    const times: number[] = [];
    let first = 0;
    for (let i = 0; i < 3; i++) {
      const t0 = performance.now();
      const l = step();
      const v = (await l.data())[0];
      l.dispose();
      if (i === 0) first = v;
      times.push(performance.now() - t0);
    }
    console.log(`planner tiny (${countParams(params)} params) step ms at batch 8: ${times.map((t) => t.toFixed(0)).join(', ')}; first loss ${first.toFixed(3)} (ln V = ${Math.log(cfg.vocabSize).toFixed(3)})`);
    expect(first).toBeGreaterThan(Math.log(cfg.vocabSize) - 2);
    const mid = tf.memory().numTensors;
    step().dispose();
    expect(tf.memory().numTensors).toBe(mid);

    const prompt = tf.tensor2d(batch.prompt.slice(0, 2 * cfg.promptLength), [2, cfg.promptLength], 'int32');
    const greedy = await plannerDecode(params, { ...cfg, completionLength: 6 }, prompt, { temperature: 0 });
    const s1 = await plannerDecode(params, { ...cfg, completionLength: 6 }, prompt, { temperature: 0.9, rng: new Random(9) });
    const s2 = await plannerDecode(params, { ...cfg, completionLength: 6 }, prompt, { temperature: 0.9, rng: new Random(9) });
    expect(s1).toEqual(s2);
    for (const row of greedy.tokens) expect(row[row.length - 1]).toBe(2);
    console.log('untrained greedy decode:', JSON.stringify(parseCompletion(tok, greedy.tokens[0])));
    prompt.dispose();
    expect(tf.memory().numTensors).toBe(mid);
    opt.dispose();
    disposeParams(params);
  });
});
