/**
 * Offsite tuning for the grounder (src/offsite), on the shipped tiny base
 * grounder: its units are the text encoder's and the region blocks'
 * sub-blocks (cross-attention in none); replacing one changes the grounder's
 * loss through its harmonizer; an emulator at (α, β) ships no replaced
 * unit's weights and round-trips through safetensors; the tuning entry takes
 * only an Emulator, refuses the planner's batches, and returns only adapter
 * tensors (end units or LoRA on carried units), which round-trip bit-exact
 * and plug into M (untouched: M itself).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as tf from '../../src/models/tf';
import '@tensorflow/tfjs-backend-wasm';
import { importCheckpoint } from '../../src/models/checkpoint';
import { decodeSafetensors, encodeSafetensors } from '../../src/models/safetensors';
import { grounderSpecs, type GrounderConfig } from '../../src/models/grounder';
import { grounderBatch, grounderExamples, type GrounderBatch } from '../../src/models/grounderData';
import { disposeParams, type ParamMap, type Params } from '../../src/models/params';
import { plannerExampleBatch } from '../../src/models/plannerData';
import { grounderPreset, plannerPreset } from '../../src/models/presets';
import { defaultTokenizer } from '../../src/text/vocab';
import { Random } from '../../src/learn/random';
import { grounderUnits, modelUnits, sandwich } from '../../src/offsite/units';
import { initHarmonizers } from '../../src/offsite/harmonizers';
import { mixedParams } from '../../src/offsite/mixed';
import { grounderBatchLoss } from '../../src/offsite/grounderLoss';
import { grounderDistillLoss } from '../../src/offsite/distill';
import { buildEmulator, emulatorSize, readEmulator, tensorValues, writeEmulator, type Emulator } from '../../src/offsite/emulator';
import { tuneOnEmulator } from '../../src/offsite/tune';
import { allowedAdapterNames, readAdapters, writeAdapters } from '../../src/offsite/adapters';
import { plugIn } from '../../src/offsite/plugin';

const tok = defaultTokenizer();
let full: Params;
let cfg: GrounderConfig;
let harm: Params;
let batch: GrounderBatch;

beforeAll(async () => {
  await tf.setBackend('wasm');
  await tf.ready();
  const loaded = importCheckpoint(new Uint8Array(readFileSync(join(__dirname, '../../public/base/tiny-grounder.safetensors'))));
  full = loaded.params;
  cfg = loaded.config as GrounderConfig;
  harm = initHarmonizers(new Random(2), cfg.dim, sandwich(grounderUnits(cfg)).middle);
  // Trained harmonizers are not the identity; give these a non-zero output so the test sees them.
  const r = new Random(3);
  for (const [name, v] of Object.entries(harm)) {
    if (name.endsWith('.up.w')) v.assign(tf.tensor(Float32Array.from({ length: v.size }, () => 0.2 * r.normal()), v.shape));
  }
  batch = grounderBatch(tok, cfg, grounderExamples(new Random(5), 4));
});

afterAll(() => {
  disposeParams(full);
  disposeParams(harm);
});

const units = () => grounderUnits(cfg);
const middle = () => sandwich(units()).middle;
const batchAt = (seed: number) => grounderBatch(tok, cfg, grounderExamples(new Random(seed), 4));

async function lossOf(p: ParamMap, b: GrounderBatch = batch): Promise<number> {
  const l = grounderBatchLoss(cfg)(p, b);
  const v = (await l.data())[0];
  l.dispose();
  return v;
}

async function emulatorAt(alpha: number, beta: number, replaced: number[]): Promise<Emulator> {
  return buildEmulator(full, cfg, { method: 'scaleot', alpha, beta, replaced: new Set(replaced), harmonizers: await tensorValues(harm), scores: [0.3, -0.3] });
}

describe('grounder units', () => {
  it('tiny: text block then region block, attention and MLP each; every unit weight is the model\'s; cross-attention in no unit', () => {
    expect(cfg.textLayers).toBe(1);
    expect(cfg.layers).toBe(1);
    expect(units().map((u) => u.id)).toEqual(['text.blocks.0.attn', 'text.blocks.0.mlp', 'blocks.0.attn', 'blocks.0.mlp']);
    expect(units().map((u) => u.index)).toEqual([0, 1, 2, 3]);
    expect(middle().map((u) => u.id)).toEqual(['text.blocks.0.mlp', 'blocks.0.attn']);
    const owned = units().flatMap((u) => u.params);
    for (const n of owned) expect(full[n]).toBeDefined();
    expect(new Set(owned).size).toBe(owned.length);
    expect(owned.some((n) => n.includes('.cross.') || n.includes('.lnx.') || n.startsWith('read.'))).toBe(false);
    expect(full['blocks.0.cross.q.w']).toBeDefined();
  });

  it('deeper presets: 2·(textLayers + layers) units, all names in the model\'s specs; the planner keeps its own', () => {
    const demo = grounderPreset('demo');
    const names = new Set(Object.keys(grounderSpecs(demo)));
    const us = modelUnits(demo);
    expect(us).toHaveLength(2 * (demo.textLayers + demo.layers));
    for (const u of us) for (const n of u.params) expect(names.has(n)).toBe(true);
    expect(modelUnits(plannerPreset('tiny')).map((u) => u.id)).toEqual(['blocks.0.attn', 'blocks.0.mlp', 'blocks.1.attn', 'blocks.1.mlp']);
  });
});

describe('the grounder\'s mixed model', () => {
  it.each([[[1]], [[2]], [[1, 2]]])('units %j replaced: their weights gone, the loss finite and changed', async (replaced) => {
    const p = mixedParams(full, units(), harm, new Set(replaced));
    for (const u of units()) if (replaced.includes(u.index)) for (const n of u.params) expect(p[n]).toBeUndefined();
    const base = await lossOf(full);
    const mixed = await lossOf(p);
    expect(Number.isFinite(mixed)).toBe(true);
    expect(Math.abs(mixed - base)).toBeGreaterThan(1e-4);
  });

  it('the distance to M for distilled harmonizers: zero for M itself, above zero with units replaced', async () => {
    const distance = async (p: ParamMap) => {
      const d = grounderDistillLoss(cfg)(p, full, batch);
      const v = (await d.data())[0];
      d.dispose();
      return v;
    };
    expect(await distance(full)).toBeCloseTo(0, 5);
    expect(await distance(mixedParams(full, units(), harm, new Set([1, 2])))).toBeGreaterThan(1e-3);
  });
});

describe('grounder emulators', () => {
  it('α 0.5, β 0.25: one middle unit replaced and absent, the kept region attention as rank-8 factors', async () => {
    const [a, b] = middle().map((u) => u.index);
    const e = await emulatorAt(0.5, 0.25, [a]);
    expect(e.config.model).toBe('grounder');
    expect(e.units.map((u) => u.role)).toEqual(['adapter', 'replaced', 'kept', 'adapter']);
    expect(e.units[b].rank).toBe(8);
    const names = Object.keys(e.tensors);
    for (const n of units()[a].params) expect(names).not.toContain(n);
    expect(names).not.toContain('blocks.0.attn.q.w');
    expect(e.tensors['blocks.0.attn.q.w.left'].shape).toEqual([cfg.dim, 8]);
    // What belongs to no unit ships as it is: the screen encoder, the cross-attention.
    expect(names).toContain('blocks.0.cross.q.w');
    expect(names).toContain('stem.patch.w');
    expect(emulatorSize(e)).toBeLessThan(Object.values(full).reduce((n, v) => n + v.size, 0));
  });

  it('round-trips through safetensors; a file carrying a replaced unit\'s weight is refused', async () => {
    const b = middle()[1].index;
    const e = await emulatorAt(0.5, 1, [b]);
    const back = readEmulator(writeEmulator(e));
    expect(back.config).toEqual(e.config);
    expect(back.units).toEqual(e.units);
    expect(Object.keys(back.tensors).sort()).toEqual(Object.keys(e.tensors).sort());
    for (const [n, t] of Object.entries(e.tensors)) expect(Array.from(back.tensors[n].data)).toEqual(Array.from(t.data));
    const { tensors, metadata } = decodeSafetensors(writeEmulator(e));
    const leaked = await tensorValues(full, ['blocks.0.attn.q.w']);
    expect(() => readEmulator(encodeSafetensors({ ...tensors, ...leaked }, metadata))).toThrow(/replaced unit blocks.0.attn ships its own weights/);
  });
});

describe('the data owner\'s tuning entry, grounder', () => {
  it('takes only an Emulator and grounder batches; returns only the end units\' tensors, which round-trip and plug in', async () => {
    const b = middle()[1].index;
    const e = await emulatorAt(0.5, 1, [b]);
    // @ts-expect-error the entry takes an Emulator, not a model's parameters
    await expect(tuneOnEmulator(full, { steps: 1, lr: 1e-3, batch: () => batch })).rejects.toThrow(/never a model/);
    await expect(tuneOnEmulator({ ...e } as unknown as Emulator, { steps: 1, lr: 1e-3, batch: () => batch })).rejects.toThrow(/never a model/);
    await expect(tuneOnEmulator(e, { steps: 1, lr: 1e-3, batch: () => plannerExampleBatch(tok, plannerPreset('tiny'), 2) })).rejects.toThrow(/planner batch for the grounder/);

    const untouched = await tuneOnEmulator(e, { steps: 0, lr: 1e-3, batch: () => batch });
    const { adapters, losses } = await tuneOnEmulator(e, { steps: 3, lr: 1e-2, batch: (s) => batchAt(20 + s) });
    expect(losses).toHaveLength(3);
    expect(losses.every(Number.isFinite)).toBe(true);
    const names = Object.keys(adapters.tensors).sort();
    expect(names).toEqual([...allowedAdapterNames(cfg)].sort());
    expect(names.every((n) => /^text\.blocks\.0\.(ln1|attn)\./.test(n) || /^blocks\.0\.(ln2|mlp)\./.test(n))).toBe(true);
    expect(adapters.units).toEqual(['text.blocks.0.attn', 'blocks.0.mlp']);
    expect(Array.from(adapters.tensors['text.blocks.0.attn.q.w'].data)).not.toEqual(Array.from(untouched.adapters.tensors['text.blocks.0.attn.q.w'].data));

    const back = readAdapters(writeAdapters(adapters));
    expect(back.config).toEqual(cfg);
    expect(Object.keys(back.tensors).sort()).toEqual(names);
    for (const n of names) {
      expect(back.tensors[n].shape).toEqual(adapters.tensors[n].shape);
      expect(Array.from(back.tensors[n].data)).toEqual(Array.from(adapters.tensors[n].data));
    }

    const same = plugIn(full, untouched.adapters);
    expect(await lossOf(same.params)).toBeCloseTo(await lossOf(full), 5);
    same.dispose();
    const tuned = plugIn(full, back);
    expect(tuned.params['blocks.0.attn.q.w']).toBe(full['blocks.0.attn.q.w']);
    expect(tuned.params['blocks.0.cross.q.w']).toBe(full['blocks.0.cross.q.w']);
    expect(tuned.params['text.blocks.0.attn.q.w']).not.toBe(full['text.blocks.0.attn.q.w']);
    expect(Math.abs((await lossOf(tuned.params)) - (await lossOf(full)))).toBeGreaterThan(1e-5);
    tuned.dispose();
  }, 300_000); // 10–20 s alone; over 120 s with four jobs on two cores

  it('with LoRA: factors only on the units E carries, none on the replaced unit or outside any unit', async () => {
    const b = middle()[1].index; // blocks.0.attn, replaced
    const e = await emulatorAt(0.5, 1, [b]);
    const lora = { rank: 2, alpha: 4 };
    const { adapters } = await tuneOnEmulator(e, { steps: 1, lr: 1e-2, lora, batch: (s) => batchAt(40 + s) });
    expect(adapters.kind).toBe('lora');
    expect(adapters.units).toEqual(['text.blocks.0.attn', 'text.blocks.0.mlp', 'blocks.0.mlp']);
    const names = Object.keys(adapters.tensors).sort();
    expect(names).toHaveLength(2 * (4 + 2 + 2));
    expect(names.some((n) => n.startsWith('blocks.0.attn.') || n.includes('.cross.') || n.startsWith('read.'))).toBe(false);
    const back = readAdapters(writeAdapters(adapters));
    for (const n of names) expect(Array.from(back.tensors[n].data)).toEqual(Array.from(adapters.tensors[n].data));
  });

  it('with the token table: the instruction encoder\'s table rides beside the factors, tuned, and nothing else outside a unit', async () => {
    const e = await emulatorAt(0.5, 1, [middle()[1].index]);
    const { adapters } = await tuneOnEmulator(e, { steps: 1, lr: 1e-2, lora: { rank: 2, alpha: 4 }, carry: 'table', batch: (s) => batchAt(50 + s) });
    expect(adapters.whole).toEqual(['text.tok']);
    expect(Object.keys(adapters.tensors).filter((n) => !/\.lora_[ab]$/.test(n))).toEqual(['text.tok']);
    const before = await full['text.tok'].data();
    expect(adapters.tensors['text.tok'].data.some((v, i) => Math.abs(v - before[i]) > 1e-7)).toBe(true);
    expect(readAdapters(writeAdapters(adapters)).whole).toEqual(['text.tok']);
  });

  it('with every weight outside the units: the screen encoder, cross-attentions and heads ride beside the factors at their own rate, no unit\'s weight among them, and plug in', async () => {
    const e = await emulatorAt(0.5, 1, [middle()[1].index]);
    const { adapters } = await tuneOnEmulator(e, { steps: 1, lr: 1e-2, wholeLr: 1e-4, lora: { rank: 2, alpha: 4 }, carry: 'outside', batch: (s) => batchAt(80 + s) });
    const whole = adapters.whole ?? [];
    const owned = new Set(grounderUnits(cfg).flatMap((u) => u.params));
    expect(whole.length).toBe(Object.keys(grounderSpecs(cfg)).filter((n) => !owned.has(n)).length);
    expect(whole.some((n) => owned.has(n))).toBe(false);
    for (const n of ['text.tok', 'blocks.0.cross.q.w', 'head.q.w', 'fine.cross.q.w']) expect(whole).toContain(n);
    expect(whole.some((n) => n.startsWith('read.'))).toBe(true);
    // Adam's first step moves a weight by about its rate: the head at 1e-4, the factors at 1e-2.
    const before = await full['head.q.w'].data();
    const moved = Math.max(...adapters.tensors['head.q.w'].data.map((v, i) => Math.abs(v - before[i])));
    expect(moved).toBeGreaterThan(5e-5);
    expect(moved).toBeLessThan(2e-4);
    const back = readAdapters(writeAdapters(adapters));
    expect(back.whole).toEqual(whole);
    const plugged = plugIn(full, back);
    expect(Array.from(await plugged.params['head.q.w'].data())).toEqual(Array.from(adapters.tensors['head.q.w'].data));
    plugged.dispose();
  });
});
