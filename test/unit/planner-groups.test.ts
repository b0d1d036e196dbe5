/**
 * Groups of completions that share a prompt (GRPO's G samples of a state)
 * run the prompt once: plannerGroupLogProbs gives plannerLogProbs' values
 * and gradients on the prompt rows repeated, and plannerDecode with
 * `repeat` gives the same tokens and log-probs as decoding the repeated
 * rows, with left padding, a constraint mask and rows that end early; no
 * tensor leaks.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import * as tf from '../../src/models/tf';
import '@tensorflow/tfjs-backend-wasm';
import { Random } from '../../src/learn/random';
import { initPlanner, plannerLogProbs, type PlannerConfig } from '../../src/models/planner';
import { plannerDecode, type Decoded } from '../../src/models/plannerDecode';
import { plannerGroupLogProbs } from '../../src/models/plannerGroups';
import { repeatGroups } from '../../src/models/readLayers';
import { plannerExampleBatch } from '../../src/models/plannerData';
import { disposeParams } from '../../src/models/params';
import { plannerPreset } from '../../src/models/presets';
import { SPECIAL } from '../../src/text/tokenizer';
import { defaultTokenizer } from '../../src/text/vocab';

beforeAll(async () => {
  await tf.setBackend('wasm');
  await tf.ready();
});

const tok = defaultTokenizer();
const cfg: PlannerConfig = { ...plannerPreset('tiny'), promptLength: 96, completionLength: 10 };
const G = 3;

/** Three real prompts, one left-padded short, and G completions of each (random tokens, eos at different places, pads after). */
function groupBatch(): { prompt: tf.Tensor2D; completion: tf.Tensor2D; mask: tf.Tensor3D } {
  const batch = plannerExampleBatch(tok, cfg, 3, 4);
  const rng = new Random(5);
  const c = cfg.completionLength;
  const completion = new Int32Array(3 * G * c).fill(SPECIAL.pad);
  for (let r = 0; r < 3 * G; r++) {
    const len = 2 + (r % (c - 1));
    for (let t = 0; t < len - 1; t++) completion[r * c + t] = 10 + Math.floor(rng.next() * (cfg.vocabSize - 10));
    completion[r * c + len - 1] = SPECIAL.eos;
  }
  // A constraint mask that rules out a different third of the vocabulary per position (never the token taken).
  const mask = new Float32Array(3 * G * c * cfg.vocabSize);
  for (let r = 0; r < 3 * G; r++) {
    for (let t = 0; t < c; t++) {
      for (let v = 0; v < cfg.vocabSize; v++) if ((v + r + t) % 3 === 0 && v !== completion[r * c + t]) mask[(r * c + t) * cfg.vocabSize + v] = -1e9;
    }
  }
  return tf.tidy(() => {
    const full = tf.tensor2d(batch.prompt, [3, cfg.promptLength], 'int32');
    const prompt = tf.concat([tf.slice(full, [0, 0], [2, cfg.promptLength]), tf.pad(tf.slice(full, [2, 50], [1, cfg.promptLength - 50]), [[0, 0], [50, 0]])], 0) as tf.Tensor2D;
    return { prompt, completion: tf.tensor2d(completion, [3 * G, c], 'int32'), mask: tf.tensor3d(mask, [3 * G, c, cfg.vocabSize]) };
  });
}

const maxRelative = (a: Float32Array, b: Float32Array) => a.reduce((m, x, i) => Math.max(m, Math.abs(x - b[i]) / Math.max(1, Math.abs(b[i]))), 0);

describe('planner groups that share a prompt', () => {
  it('log-probs and their gradients equal the repeated rows, and nothing leaks', async () => {
    const params = initPlanner(new Random(3), cfg);
    const { prompt, completion, mask } = groupBatch();
    const repeated = tf.tidy(() => repeatGroups(prompt, 3, G) as tf.Tensor2D);
    const before = tf.memory().numTensors;
    for (const m of [undefined, mask]) {
      const grouped = tf.tidy(() => plannerGroupLogProbs(params, cfg, prompt, completion, G, m));
      const full = tf.tidy(() => plannerLogProbs(params, cfg, repeated, completion, m));
      const [a, b] = [(await grouped.data()) as Float32Array, (await full.data()) as Float32Array];
      expect(a.length).toBe(3 * G * cfg.completionLength);
      expect(maxRelative(a, b)).toBeLessThan(1e-5);
      tf.dispose([grouped, full]);
    }
    // Gradients of a weighted sum (weights differ per row and position, as advantages would).
    const weights = tf.tensor2d(Array.from({ length: 3 * G * cfg.completionLength }, (_, i) => (i % 7) - 3), [3 * G, cfg.completionLength]);
    const vars = Object.values(params);
    const grads = (f: () => tf.Tensor2D) => tf.variableGrads(() => tf.sum(tf.mul(f(), weights)) as tf.Scalar, vars);
    const g1 = grads(() => plannerGroupLogProbs(params, cfg, prompt, completion, G, mask));
    const g2 = grads(() => plannerLogProbs(params, cfg, repeated, completion, mask));
    expect(Math.abs(g1.value.dataSync()[0] - g2.value.dataSync()[0])).toBeLessThan(1e-3);
    for (const name of Object.keys(g2.grads)) {
      const rel = maxRelative(g1.grads[name].dataSync() as Float32Array, g2.grads[name].dataSync() as Float32Array);
      expect(rel, name).toBeLessThan(1e-5);
    }
    tf.dispose([g1.value, g2.value, ...Object.values(g1.grads), ...Object.values(g2.grads), weights]);
    expect(tf.memory().numTensors).toBe(before);
    expect(() => plannerGroupLogProbs(params, cfg, prompt, completion, 2)).toThrow(/not 3 prompts × 2/);
    tf.dispose([prompt, completion, mask, repeated]);
    disposeParams(params);
  });

  it('decoding with repeat draws the tokens decoding the repeated rows draws', async () => {
    const params = initPlanner(new Random(4), cfg);
    const { prompt, completion, mask } = groupBatch();
    tf.dispose([completion, mask]);
    const repeated = tf.tidy(() => repeatGroups(prompt, 3, G) as tf.Tensor2D);
    const before = tf.memory().numTensors;
    const same = (a: Decoded, b: Decoded) => {
      expect(a.tokens).toEqual(b.tokens);
      a.logProbs.forEach((row, r) => row.forEach((v, t) => expect(Math.abs(v - b.logProbs[r][t])).toBeLessThan(1e-5)));
    };
    for (const temperature of [0, 0.9]) {
      const grouped = await plannerDecode(params, cfg, prompt, { temperature, rng: new Random(9), repeat: G });
      const full = await plannerDecode(params, cfg, repeated, { temperature, rng: new Random(9) });
      expect(grouped.tokens).toHaveLength(3 * G);
      same(grouped, full);
      if (temperature > 0) expect(new Set(grouped.tokens.slice(0, G).map((t) => t.join(' '))).size).toBeGreaterThan(1);
    }
    expect(tf.memory().numTensors).toBe(before);
    await expect(plannerDecode(params, cfg, prompt, { temperature: 0, repeat: 0 })).rejects.toThrow(/repeat/);
    tf.dispose([prompt, repeated]);
    disposeParams(params);
  });
});
