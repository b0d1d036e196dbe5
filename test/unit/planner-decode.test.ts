/**
 * plannerDecode with its key/value cache gives what decoding by rerunning
 * the whole sequence gives (the decoder it replaced, written out here as the
 * reference): the same tokens and the same log-probs to 1e-5, greedy and
 * sampled by Gumbel-max with the same seeded Random, on real prompts (left padding
 * included), including rows that finish early; and it leaks no tensor.
 * Twice: with the tensor ops (WebGPU's path), then with the app's WASM
 * kernels, where a layer's decoding attention is one kernel.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import * as tf from '../../src/models/tf';
import '@tensorflow/tfjs-backend-wasm';
import { Random } from '../../src/learn/random';
import { gumbelAt } from '../../src/models/gumbelNoise';
import { initPlanner, plannerForward, type PlannerConfig } from '../../src/models/planner';
import { plannerDecode, type Decoded, type DecodeOptions } from '../../src/models/plannerDecode';
import { plannerExampleBatch } from '../../src/models/plannerData';
import { disposeParams, type ParamMap } from '../../src/models/params';
import { plannerPreset } from '../../src/models/presets';
import { SPECIAL } from '../../src/text/tokenizer';
import { DECODE_ATTENTION } from '../../src/models/kernelNames';
import { registerWasmKernels } from '../../workers/wasmKernels';
import { defaultTokenizer } from '../../src/text/vocab';

beforeAll(async () => {
  await tf.setBackend('wasm');
  await tf.ready();
});

function logSoftmax(v: number[]): number[] {
  const max = Math.max(...v);
  const lz = max + Math.log(v.reduce((a, x) => a + Math.exp(x - max), 0));
  return v.map((x) => x - lz);
}

/** The uncached decoder: one full forward of [B, P + C] per generated token. */
async function referenceDecode(p: ParamMap, cfg: PlannerConfig, prompt: tf.Tensor2D, opts: DecodeOptions): Promise<Decoded> {
  const [b, pl] = prompt.shape;
  const c = cfg.completionLength;
  const promptIds = Array.from(await prompt.data());
  const gen: number[][] = Array.from({ length: b }, () => []);
  const lps: number[][] = Array.from({ length: b }, () => []);
  const done = new Array<boolean>(b).fill(false);
  const banned = new Set([SPECIAL.pad, SPECIAL.bos, SPECIAL.sep, ...(opts.banned ?? [])]);
  const seed = opts.temperature > 0 ? Math.floor((opts.rng as Random).next() * 4294967296) >>> 0 : 0;
  let readBacks = 0;
  for (let t = 0; t < c && !done.every(Boolean); t++) {
    const seq = new Int32Array(b * (pl + c));
    for (let r = 0; r < b; r++) {
      seq.set(promptIds.slice(r * pl, (r + 1) * pl), r * (pl + c));
      seq.set(gen[r], r * (pl + c) + pl);
    }
    const row = tf.tidy(() => {
      const logits = plannerForward(p, cfg, tf.tensor2d(seq, [b, pl + c], 'int32'));
      return tf.reshape(tf.slice(logits, [0, pl + t - 1, 0], [b, 1, cfg.vocabSize]), [b, cfg.vocabSize]);
    });
    const values = (await row.data()) as Float32Array;
    readBacks++;
    row.dispose();
    for (let r = 0; r < b; r++) {
      if (done[r]) continue;
      const logits = Array.from(values.subarray(r * cfg.vocabSize, (r + 1) * cfg.vocabSize), (v, i) => (banned.has(i) ? -Infinity : v));
      const lp = logSoftmax(logits);
      const score = opts.temperature <= 0 ? lp : logits.map((v, i) => v / opts.temperature + gumbelAt(seed, r, t, i));
      let id = score.indexOf(Math.max(...score));
      if (t === c - 1) id = SPECIAL.eos;
      gen[r].push(id);
      lps[r].push(lp[id]);
      if (id === SPECIAL.eos) done[r] = true;
    }
  }
  return { tokens: gen, logProbs: lps, readBacks, corrections: { constraint: 0, other: 0 } };
}

function expectSame(a: Decoded, b: Decoded): void {
  expect(a.tokens).toEqual(b.tokens);
  a.logProbs.forEach((row, r) => row.forEach((v, t) => expect(Math.abs(v - b.logProbs[r][t])).toBeLessThan(1e-5)));
}

describe('plannerDecode with a key/value cache', () => {
  const tok = defaultTokenizer();
  // The tiny network with a shorter prompt and completion so the uncached reference stays quick.
  const cfg: PlannerConfig = { ...plannerPreset('tiny'), promptLength: 96, completionLength: 10 };

  it.each([
    ['the tensor ops', false],
    ['the WASM kernels', true],
  ])('equals the uncached decoder, greedy and sampled, and leaks no tensor, with %s', async (_, kernels) => {
    // Registered once for the rest of the file: the tensor-ops case runs first.
    if (kernels) registerWasmKernels();
    expect(Boolean(tf.getKernel(DECODE_ATTENTION, 'wasm'))).toBe(kernels);
    const params = initPlanner(new Random(3), cfg);
    const batch = plannerExampleBatch(tok, cfg, 5, 4);
    const prompt = tf.tensor2d(batch.prompt, [5, cfg.promptLength], 'int32');
    // Real prompts are longer than 96 tokens; make two rows short so left padding is exercised.
    const short = tf.tidy(() => tf.concat([tf.slice(prompt, [0, 0], [3, cfg.promptLength]), tf.pad(tf.slice(prompt, [3, 60], [2, cfg.promptLength - 60]), [[0, 0], [60, 0]])], 0) as tf.Tensor2D);
    const before = tf.memory().numTensors;

    const greedy = await plannerDecode(params, cfg, short, { temperature: 0 });
    expectSame(greedy, await referenceDecode(params, cfg, short, { temperature: 0 }));
    expect(greedy.tokens.every((r) => r.length === cfg.completionLength && r[r.length - 1] === SPECIAL.eos)).toBe(true);

    const sampled = await plannerDecode(params, cfg, short, { temperature: 0.9, rng: new Random(9) });
    expectSame(sampled, await referenceDecode(params, cfg, short, { temperature: 0.9, rng: new Random(9) }));
    expect(tf.memory().numTensors).toBe(before);

    // Rows that end early: eos gets a scaled copy of the embedding of a token the model likes, so samples often stop.
    const liked = greedy.tokens[0][0];
    const tokTable = tf.tidy(() => {
      const t = params.tok;
      const rows = tf.split(t, [SPECIAL.eos, 1, cfg.vocabSize - SPECIAL.eos - 1], 0);
      return tf.concat([rows[0], tf.mul(tf.slice(t, [liked, 0], [1, cfg.dim]), 4), rows[2]], 0);
    });
    const eosLiked: ParamMap = { ...params, tok: tokTable };
    const mid = tf.memory().numTensors;
    const early = await plannerDecode(eosLiked, cfg, short, { temperature: 1, rng: new Random(21) });
    expectSame(early, await referenceDecode(eosLiked, cfg, short, { temperature: 1, rng: new Random(21) }));
    const lengths = early.tokens.map((r) => r.length);
    console.log('sampled lengths with a likeable eos:', lengths.join(' '));
    expect(Math.min(...lengths)).toBeLessThan(cfg.completionLength);
    expect(Math.max(...lengths)).toBe(cfg.completionLength);
    expect(tf.memory().numTensors).toBe(mid);

    tf.dispose([tokTable, prompt, short]);
    disposeParams(params);
  });

  it('refuses to sample without an rng', async () => {
    const params = initPlanner(new Random(3), cfg);
    const prompt = tf.zeros([1, cfg.promptLength], 'int32') as tf.Tensor2D;
    await expect(plannerDecode(params, cfg, prompt, { temperature: 1 })).rejects.toThrow(/rng/);
    prompt.dispose();
    disposeParams(params);
  });
});
