import { beforeAll, describe, expect, it } from 'vitest';
import * as tf from '../../src/models/tf';
import '@tensorflow/tfjs-backend-wasm';
import { Random } from '../../src/learn/random';
import { defaultTokenizer } from '../../src/text/vocab';
import { grounderPreset, plannerPreset } from '../../src/models/presets';
import { grounderForward, initGrounder } from '../../src/models/grounder';
import { initPlanner, plannerLogProbs } from '../../src/models/planner';
import { grounderExampleBatch, grounderTensors } from '../../src/models/grounderData';
import { plannerExampleBatch, plannerTensors } from '../../src/models/plannerData';
import { createLora, DEFAULT_LORA, loraParamCounts, loraParams, loraTrainables, mergeLora, unmergeLora, disposeLora } from '../../src/models/lora';
import { countTrainable, disposeParams, snapshot } from '../../src/models/params';
import { exportCheckpoint, importCheckpoint } from '../../src/models/checkpoint';
import { decodeSafetensors, encodeSafetensors } from '../../src/models/safetensors';
import { loadCheckpoint, memoryCheckpointStore, saveCheckpoint } from '../../src/models/checkpointStore';

beforeAll(async () => {
  await tf.setBackend('wasm');
  await tf.ready();
});

const tok = defaultTokenizer();

async function values(t: tf.Tensor): Promise<Float32Array> {
  const v = (await t.data()) as Float32Array;
  t.dispose();
  return v;
}

function maxAbsDiff(a: Float32Array, b: Float32Array): number {
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i] - b[i]));
  return m;
}

describe('models: LoRA', () => {
  it('planner: training changes only adapters; merged and unmerged outputs agree within 1e-5', async () => {
    const cfg = plannerPreset('tiny');
    const base = initPlanner(new Random(3), cfg);
    const lora = createLora(new Random(4), base, { ...DEFAULT_LORA, rank: 2 });
    const counts = loraParamCounts(base, lora);
    console.log(`planner LoRA r=2 on ${lora.targets.length} weights: ${counts.trainable} trainable of ${counts.base} (${(100 * counts.fraction).toFixed(1)}%)`);
    expect(countTrainable(base)).toBe(0);
    expect(counts.trainable).toBeGreaterThan(0);
    const batch = plannerExampleBatch(tok, cfg, 4, 5);
    const { prompt, completion } = plannerTensors(batch, cfg);
    const baseBefore = await snapshot(base);
    const adaptersBefore = await snapshot(lora.adapters);
    const opt = tf.train.adam(1e-2);
    for (let i = 0; i < 2; i++) {
      tf.tidy(() => {
        opt.minimize(() => tf.neg(tf.mean(plannerLogProbs(loraParams(base, lora), cfg, prompt, completion))) as tf.Scalar, false, loraTrainables(lora));
      });
    }
    const baseAfter = await snapshot(base);
    const adaptersAfter = await snapshot(lora.adapters);
    for (const k of Object.keys(baseBefore)) expect(baseAfter[k]).toEqual(baseBefore[k]);
    const changed = Object.keys(adaptersBefore).filter((k) => maxAbsDiff(adaptersBefore[k], adaptersAfter[k]) > 0);
    expect(changed.length).toBe(Object.keys(adaptersBefore).length);

    const unmerged = await values(tf.tidy(() => plannerLogProbs(loraParams(base, lora), cfg, prompt, completion)));
    const plain = await values(tf.tidy(() => plannerLogProbs(base, cfg, prompt, completion)));
    expect(maxAbsDiff(unmerged, plain)).toBeGreaterThan(1e-4); // the adapters do something
    mergeLora(base, lora);
    const merged = await values(tf.tidy(() => plannerLogProbs(loraParams(base, lora), cfg, prompt, completion)));
    const diff = maxAbsDiff(merged, unmerged);
    console.log(`planner merged vs unmerged max |Δ log-prob| = ${diff.toExponential(2)}`);
    expect(diff).toBeLessThan(1e-5);
    unmergeLora(base, lora);
    const back = await snapshot(base);
    for (const k of Object.keys(baseBefore)) expect(maxAbsDiff(back[k], baseBefore[k])).toBeLessThan(1e-6);
    opt.dispose();
    tf.dispose([prompt, completion]);
    disposeLora(lora);
    disposeParams(base);
  });

  it('grounder: merged and unmerged heat maps agree within 1e-5', async () => {
    const cfg = grounderPreset('tiny');
    const base = initGrounder(new Random(6), cfg);
    const lora = createLora(new Random(7), base, DEFAULT_LORA);
    // Move B off zero so the adapters change the output.
    for (const name of Object.keys(lora.adapters).filter((k) => k.endsWith('lora_b'))) tf.tidy(() => lora.adapters[name].assign(tf.fill(lora.adapters[name].shape, 0.05)));
    const inputs = grounderTensors(grounderExampleBatch(tok, cfg, 2, 8), cfg);
    const run = () => values(tf.tidy(() => tf.softmax(grounderForward(loraParams(base, lora), cfg, inputs).logits)));
    const unmerged = await run();
    mergeLora(base, lora);
    const merged = await run();
    const diff = maxAbsDiff(merged, unmerged);
    console.log(`grounder merged vs unmerged max |Δ heat| = ${diff.toExponential(2)}; trainable ${loraParamCounts(base, lora).trainable}`);
    expect(diff).toBeLessThan(1e-5);
    tf.dispose(Object.values(inputs));
    disposeLora(lora);
    disposeParams(base);
  });
});

describe('models: checkpoints', () => {
  it('safetensors layout: 8-byte LE header length, JSON header with offsets, raw LE float32', () => {
    const bytes = encodeSafetensors({ b: { shape: [2], data: new Float32Array([1.5, -2]) }, a: { shape: [1, 1], data: new Float32Array([0.25]) } }, { config: '{}' });
    const n = new DataView(bytes.buffer).getUint32(0, true);
    expect(n % 8).toBe(0);
    const header = JSON.parse(new TextDecoder().decode(bytes.subarray(8, 8 + n)));
    expect(header.a).toEqual({ dtype: 'F32', shape: [1, 1], data_offsets: [0, 4] });
    expect(header.b).toEqual({ dtype: 'F32', shape: [2], data_offsets: [4, 12] });
    expect(header.__metadata__).toEqual({ config: '{}' });
    expect(new DataView(bytes.buffer).getFloat32(8 + n + 4, true)).toBe(1.5);
    expect(bytes.length).toBe(8 + n + 12);
    const back = decodeSafetensors(bytes);
    expect(Array.from(back.tensors.b.data)).toEqual([1.5, -2]);
  });

  it('export → import is bit-exact and gives identical outputs; store round trip', async () => {
    const cfg = grounderPreset('tiny');
    const params = initGrounder(new Random(9), cfg);
    const bytes = await exportCheckpoint(params, cfg);
    const { config, params: loaded } = importCheckpoint(bytes);
    expect(config).toEqual(cfg);
    const a = await snapshot(params);
    const b = await snapshot(loaded);
    for (const k of Object.keys(a)) expect(Buffer.from(b[k].buffer).equals(Buffer.from(a[k].buffer))).toBe(true);
    const inputs = grounderTensors(grounderExampleBatch(tok, cfg, 2, 10), cfg);
    const out1 = await values(tf.tidy(() => grounderForward(params, cfg, inputs).logits));
    const out2 = await values(tf.tidy(() => grounderForward(loaded, cfg, inputs).logits));
    expect(Array.from(out2)).toEqual(Array.from(out1));
    console.log(`grounder tiny checkpoint: ${bytes.length} bytes`);

    const pcfg = plannerPreset('tiny');
    const planner = initPlanner(new Random(10), pcfg);
    const store = memoryCheckpointStore();
    const rec = await saveCheckpoint(store, planner, pcfg, { id: 'run1/planner/0', runId: 'run1', iteration: 0 });
    expect(rec.model).toBe('planner');
    const got = await loadCheckpoint(store, 'run1/planner/0');
    expect(got.config).toEqual(pcfg);
    const pa = await snapshot(planner);
    const pb = await snapshot(got.params);
    for (const k of Object.keys(pa)) expect(Array.from(pb[k])).toEqual(Array.from(pa[k]));
    tf.dispose(Object.values(inputs));
    for (const p of [params, loaded, planner, got.params]) disposeParams(p);
  });
});
