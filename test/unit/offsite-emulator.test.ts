/**
 * The emulator and the two owners' sides (src/offsite), on the shipped tiny
 * base planner: a mixed model decodes with its KV cache exactly as its
 * teacher-forced forward scores; an emulator at (α, β) replaces the right
 * number of units and ships none of their weights; the tuning entry takes
 * only an Emulator and returns only adapter tensors; adapters and emulators
 * round-trip through safetensors; plugging in untouched adapters gives the
 * full model back.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as tf from '../../src/models/tf';
import { decodeSafetensors, encodeSafetensors } from '../../src/models/safetensors';
import { plannerLogProbs, type PlannerConfig } from '../../src/models/planner';
import { plannerDecode } from '../../src/models/plannerDecode';
import type { RowConstraint } from '../../src/text/instructionConstraint';
import { disposeParams, type Params } from '../../src/models/params';
import { plannerExampleBatch } from '../../src/models/plannerData';
import { SPECIAL } from '../../src/text/tokenizer';
import { defaultTokenizer } from '../../src/text/vocab';
import { Random } from '../../src/learn/random';
import { plannerSftLoss } from '../../src/learn/plannerSft';
import { plannerUnits, sandwich } from '../../src/offsite/units';
import { initHarmonizers } from '../../src/offsite/harmonizers';
import { mixedParams } from '../../src/offsite/mixed';
import { buildEmulator, emulatorSize, readEmulator, tensorValues, writeEmulator, type Emulator } from '../../src/offsite/emulator';
import { tuneOnEmulator } from '../../src/offsite/tune';
import { allowedAdapterNames, readAdapters, writeAdapters } from '../../src/offsite/adapters';
import { plugIn } from '../../src/offsite/plugin';
import { shippedTinyPlanner } from './shipped-planner';

const tok = defaultTokenizer();
let full: Params;
let cfg: PlannerConfig;
let harm: Params;

beforeAll(async () => {
  ({ params: full, cfg } = await shippedTinyPlanner());
  harm = initHarmonizers(new Random(2), cfg.dim, sandwich(plannerUnits(cfg)).middle);
  // Trained harmonizers are not the identity; give these a non-zero output so the test sees them.
  const r = new Random(3);
  for (const [name, v] of Object.entries(harm)) {
    if (name.endsWith('.up.w')) v.assign(tf.tensor(Float32Array.from({ length: v.size }, () => 0.2 * r.normal()), v.shape));
  }
});

afterAll(() => {
  disposeParams(full);
  disposeParams(harm);
});

const units = () => plannerUnits(cfg);
const middle = () => sandwich(units()).middle;

async function emulatorAt(alpha: number, beta: number, replaced: number[]): Promise<Emulator> {
  return buildEmulator(full, cfg, { method: 'scaleot', alpha, beta, replaced: new Set(replaced), harmonizers: await tensorValues(harm), scores: [0.3, -0.3] });
}

describe('the mixed model', () => {
  it.each([[[2]], [[1]], [[1, 2]]])('decodes with its KV cache as its teacher-forced forward scores, units %j replaced', async (replaced) => {
    const p = mixedParams(full, units(), harm, new Set(replaced));
    for (const u of units()) if (replaced.includes(u.index)) for (const n of u.params) expect(p[n]).toBeUndefined();
    const batch = plannerExampleBatch(tok, cfg, 3, 5);
    const prompt = tf.tensor2d(batch.prompt, [3, batch.promptLength], 'int32');
    const dec = await plannerDecode(p, cfg, prompt, { temperature: 0 });
    const c = cfg.completionLength;
    const ids = new Int32Array(3 * c).fill(SPECIAL.pad);
    dec.tokens.forEach((t, r) => ids.set(t, r * c));
    // decode renormalises over the tokens it may produce: ban the same ones here.
    const ban = new Float32Array(3 * c * cfg.vocabSize);
    for (let i = 0; i < 3 * c; i++) for (const id of [SPECIAL.pad, SPECIAL.bos, SPECIAL.sep]) ban[i * cfg.vocabSize + id] = -1e9;
    const lp = tf.tidy(() => plannerLogProbs(p, cfg, prompt, tf.tensor2d(ids, [3, c], 'int32'), tf.tensor3d(ban, [3, c, cfg.vocabSize])));
    const values = await lp.data();
    tf.dispose([lp, prompt]);
    dec.logProbs.forEach((row, r) => row.forEach((x, t) => expect(Math.abs(x - values[r * c + t])).toBeLessThan(1e-4)));
  });

  it.each([[[2]], [[1, 2]]])('samples on the device as on the host, units %j replaced (the cache cut back past the harmonizers)', async (replaced) => {
    const p = mixedParams(full, units(), harm, new Set(replaced));
    const batch = plannerExampleBatch(tok, cfg, 3, 5);
    const prompt = tf.tensor2d(batch.prompt, [3, batch.promptLength], 'int32');
    // A constraint that refuses every other token by turns, so the device's proposals are often corrected and rounds cut back.
    const constraint: RowConstraint = { allowed: (gen) => Uint8Array.from({ length: cfg.vocabSize }, (_, i) => ((i + gen.length) % 2 === 0 || i === SPECIAL.eos ? 1 : 0)) };
    const opts = { temperature: 1, constraints: [constraint, constraint, null] };
    const host = await plannerDecode(p, cfg, prompt, { ...opts, rng: new Random(4) });
    const rounds = await plannerDecode(p, cfg, prompt, { ...opts, rng: new Random(4), deviceBlock: 6 });
    prompt.dispose();
    expect(rounds.tokens).toEqual(host.tokens);
    expect(rounds.logProbs).toEqual(host.logProbs);
    expect(rounds.corrections.constraint).toBeGreaterThan(0);
    expect(rounds.readBacks).toBeLessThan(host.readBacks);
  });

  it('a replaced unit changes the loss; the harmonizer is what the forward reads', async () => {
    const batch = plannerExampleBatch(tok, cfg, 4, 9);
    const prompt = tf.tensor2d(batch.prompt, [4, batch.promptLength], 'int32');
    const completion = tf.tensor2d(batch.completion, [4, cfg.completionLength], 'int32');
    const lossWith = async (replaced: number[]) => {
      const l = plannerSftLoss(mixedParams(full, units(), harm, new Set(replaced)), cfg, prompt, completion);
      const v = (await l.data())[0];
      l.dispose();
      return v;
    };
    const base = await lossWith([]);
    const one = await lossWith([2]);
    tf.dispose([prompt, completion]);
    expect(Number.isFinite(one)).toBe(true);
    expect(Math.abs(one - base)).toBeGreaterThan(1e-3);
  });
});

describe('emulators', () => {
  it('at α = 0.5, β = 0.5: one middle unit replaced, the other kept at half rank, no replaced weight shipped', async () => {
    const [a, b] = middle().map((u) => u.index);
    const e = await emulatorAt(0.5, 0.5, [b]);
    expect(e.units.map((u) => u.role)).toEqual(['adapter', 'kept', 'replaced', 'adapter']);
    expect(e.units.filter((u) => u.role === 'replaced')).toHaveLength(1);
    expect(e.units[a].score).toBeCloseTo(0.3);
    const names = Object.keys(e.tensors);
    for (const n of units()[b].params) expect(names).not.toContain(n);
    // Kept attention? No: unit 1 is layer 0's MLP, which rank compression leaves dense.
    expect(e.units[a].rank).toBeUndefined();
    expect(names).toContain('blocks.0.mlp.fc.w');
    expect(emulatorSize(e)).toBeLessThan(Object.values(full).reduce((n, v) => n + v.size, 0));
  });

  it('rank compression ships the kept attention projections as rank-r factors only', async () => {
    const [a, b] = middle().map((u) => u.index);
    const e = await emulatorAt(0.5, 0.25, [a]);
    expect(e.units[b].role).toBe('kept');
    expect(e.units[b].rank).toBe(12);
    expect(Object.keys(e.tensors)).not.toContain('blocks.1.attn.q.w');
    expect(e.tensors['blocks.1.attn.q.w.left'].shape).toEqual([cfg.dim, 12]);
    expect(e.tensors['blocks.1.attn.q.w.right'].shape).toEqual([12, cfg.dim]);
  });

  it('round-trips through safetensors; a file carrying a replaced unit\'s weight is refused', async () => {
    const b = middle()[1].index;
    const e = await emulatorAt(0.5, 1, [b]);
    const back = readEmulator(writeEmulator(e));
    expect(back.units).toEqual(e.units);
    expect(Object.keys(back.tensors).sort()).toEqual(Object.keys(e.tensors).sort());
    for (const [n, t] of Object.entries(e.tensors)) expect(Array.from(back.tensors[n].data)).toEqual(Array.from(t.data));
    const { tensors, metadata } = decodeSafetensors(writeEmulator(e));
    const leaked = await tensorValues(full, ['blocks.1.attn.q.w']);
    expect(() => readEmulator(encodeSafetensors({ ...tensors, ...leaked }, metadata))).toThrow(/replaced unit blocks.1.attn ships its own weights/);
  });
});

describe('the data owner\'s tuning entry', () => {
  it('takes only an Emulator and returns only the adapter units\' tensors, which round-trip and plug in', async () => {
    const b = middle()[1].index;
    const e = await emulatorAt(0.5, 1, [b]);
    // @ts-expect-error the entry takes an Emulator, not a model's parameters
    await expect(tuneOnEmulator(full, { steps: 1, lr: 1e-3, batch: () => plannerExampleBatch(tok, cfg, 2) })).rejects.toThrow(/never a model/);
    // A look-alike object with the same fields is no Emulator either.
    await expect(tuneOnEmulator({ ...e } as unknown as Emulator, { steps: 1, lr: 1e-3, batch: () => plannerExampleBatch(tok, cfg, 2) })).rejects.toThrow(/never a model/);

    const untouched = await tuneOnEmulator(e, { steps: 0, lr: 1e-3, batch: () => plannerExampleBatch(tok, cfg, 2) });
    const { adapters, losses } = await tuneOnEmulator(e, { steps: 3, lr: 1e-2, batch: (s) => plannerExampleBatch(tok, cfg, 4, 20 + s) });
    expect(losses).toHaveLength(3);
    const names = Object.keys(adapters.tensors).sort();
    expect(names).toEqual([...allowedAdapterNames(cfg)].sort());
    expect(names.every((n) => n.startsWith('blocks.0.ln1') || n.startsWith('blocks.0.attn.') || n.startsWith('blocks.1.ln2') || n.startsWith('blocks.1.mlp.'))).toBe(true);
    expect(adapters.units).toEqual(['blocks.0.attn', 'blocks.1.mlp']);
    // Tuning moved them.
    expect(Array.from(adapters.tensors['blocks.0.attn.q.w'].data)).not.toEqual(Array.from(untouched.adapters.tensors['blocks.0.attn.q.w'].data));

    const back = readAdapters(writeAdapters(adapters));
    expect(Object.keys(back.tensors).sort()).toEqual(names);
    for (const n of names) {
      expect(back.tensors[n].shape).toEqual(adapters.tensors[n].shape);
      expect(Array.from(back.tensors[n].data)).toEqual(Array.from(adapters.tensors[n].data));
    }

    // Plug-in of untouched adapters is the full model; of tuned ones, it differs only through the adapter units.
    const batch = plannerExampleBatch(tok, cfg, 2, 31);
    const prompt = tf.tensor2d(batch.prompt, [2, batch.promptLength], 'int32');
    const completion = tf.tensor2d(batch.completion, [2, cfg.completionLength], 'int32');
    const lossOf = async (p: Parameters<typeof plannerSftLoss>[0]) => {
      const l = plannerSftLoss(p, cfg, prompt, completion);
      const v = (await l.data())[0];
      l.dispose();
      return v;
    };
    const same = plugIn(full, untouched.adapters);
    expect(await lossOf(same.params)).toBeCloseTo(await lossOf(full), 6);
    same.dispose();
    const tuned = plugIn(full, back);
    expect(tuned.params['blocks.1.attn.q.w']).toBe(full['blocks.1.attn.q.w']);
    expect(tuned.params['blocks.0.attn.q.w']).not.toBe(full['blocks.0.attn.q.w']);
    expect(Math.abs((await lossOf(tuned.params)) - (await lossOf(full)))).toBeGreaterThan(1e-4);
    tuned.dispose();
    tf.dispose([prompt, completion]);
  });

  it('with LoRA: only factors of the units E kept, none on the replaced unit; round trip; untouched LoRA plugs in as M', async () => {
    const b = middle()[1].index; // blocks.1.attn, replaced
    const e = await emulatorAt(0.5, 1, [b]);
    const lora = { rank: 2, alpha: 4 };
    const untouched = await tuneOnEmulator(e, { steps: 0, lr: 1e-3, lora, batch: () => plannerExampleBatch(tok, cfg, 2) });
    const { adapters } = await tuneOnEmulator(e, { steps: 2, lr: 1e-2, lora, batch: (s) => plannerExampleBatch(tok, cfg, 4, 40 + s) });
    expect(adapters.kind).toBe('lora');
    expect(adapters.units).toEqual(['blocks.0.attn', 'blocks.0.mlp', 'blocks.1.mlp']);
    const names = Object.keys(adapters.tensors).sort();
    expect(names).toHaveLength(2 * (4 + 2 + 2));
    expect(names.every((n) => /\.lora_[ab]$/.test(n))).toBe(true);
    expect(names.some((n) => n.startsWith('blocks.1.attn.'))).toBe(false);
    expect(adapters.tensors['blocks.0.mlp.fc.w.lora_a'].shape).toEqual([cfg.dim, 2]);
    const back = readAdapters(writeAdapters(adapters));
    expect(back.lora).toEqual(lora);
    for (const n of names) expect(Array.from(back.tensors[n].data)).toEqual(Array.from(adapters.tensors[n].data));

    const batch = plannerExampleBatch(tok, cfg, 2, 33);
    const prompt = tf.tensor2d(batch.prompt, [2, batch.promptLength], 'int32');
    const completion = tf.tensor2d(batch.completion, [2, cfg.completionLength], 'int32');
    const lossOf = async (p: Parameters<typeof plannerSftLoss>[0]) => {
      const l = plannerSftLoss(p, cfg, prompt, completion);
      const v = (await l.data())[0];
      l.dispose();
      return v;
    };
    const same = plugIn(full, untouched.adapters); // B = 0 at the start: no change
    expect(await lossOf(same.params)).toBeCloseTo(await lossOf(full), 6);
    same.dispose();
    const tuned = plugIn(full, back);
    expect(tuned.params['blocks.1.attn.q.w']).toBe(full['blocks.1.attn.q.w']);
    expect(tuned.params['blocks.0.mlp.fc.w']).not.toBe(full['blocks.0.mlp.fc.w']);
    // Plugged in: W + (alpha / r)·A·B, with the two tuning steps' B away from zero.
    const name = 'blocks.0.mlp.fc.w';
    const [delta, plugged] = tf.tidy(() => {
      const ab = tf.mul(tf.matMul(tf.tensor(back.tensors[`${name}.lora_a`].data, back.tensors[`${name}.lora_a`].shape), tf.tensor(back.tensors[`${name}.lora_b`].data, back.tensors[`${name}.lora_b`].shape)), lora.alpha / lora.rank);
      return [tf.max(tf.abs(ab)).dataSync()[0], tf.max(tf.abs(tf.sub(tuned.params[name], tf.add(full[name], ab)))).dataSync()[0]];
    });
    expect(delta).toBeGreaterThan(1e-4);
    expect(plugged).toBeLessThan(1e-6);
    expect(await lossOf(tuned.params)).not.toBe(await lossOf(full));
    tuned.dispose();
    tf.dispose([prompt, completion]);
    // A LoRA file that adapts the replaced unit is refused.
    const forged = { ...adapters, units: [...adapters.units, 'blocks.1.attn'] };
    expect(() => writeAdapters(forged)).toThrow(/lack blocks.1.attn/);
  });

  it('with the token table: it is tuned, sent back whole beside the factors, round-trips and replaces M\'s; no unit\'s weight rides along whole', async () => {
    const e = await emulatorAt(0.5, 1, [middle()[1].index]);
    const lora = { rank: 2, alpha: 4 };
    const { adapters } = await tuneOnEmulator(e, { steps: 2, lr: 1e-2, lora, carry: 'table', batch: (s) => plannerExampleBatch(tok, cfg, 4, 50 + s) });
    expect(adapters.whole).toEqual(['tok']);
    const names = Object.keys(adapters.tensors);
    expect(names.filter((n) => !/\.lora_[ab]$/.test(n))).toEqual(['tok']);
    const before = await full['tok'].data();
    const after = adapters.tensors['tok'].data;
    expect(after.length).toBe(before.length);
    expect(after.some((v, i) => Math.abs(v - before[i]) > 1e-6)).toBe(true);
    const back = readAdapters(writeAdapters(adapters));
    expect(back.whole).toEqual(['tok']);
    // A file of 7 Dec names the carried table under `tables`: still read.
    const file = decodeSafetensors(writeAdapters(adapters));
    const { whole: named, ...meta } = file.metadata;
    expect(readAdapters(encodeSafetensors(file.tensors, { ...meta, tables: named })).whole).toEqual(['tok']);
    expect(Array.from(back.tensors['tok'].data)).toEqual(Array.from(after));
    const plugged = plugIn(full, back);
    expect(Array.from(await plugged.params['tok'].data())).toEqual(Array.from(after));
    plugged.dispose();
    // End units with the table: the same table rides beside the unit weights.
    const ends = await tuneOnEmulator(e, { steps: 1, lr: 1e-2, carry: 'table', batch: (s) => plannerExampleBatch(tok, cfg, 4, 60 + s) });
    expect(Object.keys(ends.adapters.tensors).sort()).toEqual([...allowedAdapterNames(cfg), 'tok'].sort());
    // A unit's own weight is never carried whole (here the replaced unit's, the emulator's secret), named or smuggled.
    const fc = { shape: [...full['blocks.1.mlp.fc.w'].shape], data: new Float32Array(await full['blocks.1.mlp.fc.w'].data()) };
    expect(() => writeAdapters({ ...adapters, whole: ['tok', 'blocks.1.mlp.fc.w'], tensors: { ...adapters.tensors, 'blocks.1.mlp.fc.w': fc } })).toThrow(/blocks.1.mlp.fc.w cannot be carried whole/);
    const pos = { shape: [...full['pos'].shape], data: new Float32Array(await full['pos'].data()) };
    expect(() => writeAdapters({ ...adapters, tensors: { ...adapters.tensors, pos } })).toThrow(/non-adapter tensors pos/);
    // Without the flag the table stays M's: nothing outside the factors is sent.
    const { adapters: plain } = await tuneOnEmulator(e, { steps: 1, lr: 1e-2, lora, batch: (s) => plannerExampleBatch(tok, cfg, 4, 70 + s) });
    expect(plain.whole).toBeUndefined();
    expect(Object.keys(plain.tensors).every((n) => /\.lora_[ab]$/.test(n))).toBe(true);
  });
});
