/**
 * grownStart (pretrain/grownStart.ts), what `--tune DIR --grow-from tiny`
 * starts from: a narrower base model of the same kind is grown into the
 * preset's shape; one of the preset's own shape, or another kind, is left to
 * the caller's shape check (null); a narrower one that cannot grow is
 * refused with the reason.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import * as tf from '../../src/models/tf';
import '@tensorflow/tfjs-backend-wasm';
import { disposeParams } from '../../src/models/params';
import { grounderPreset, plannerPreset } from '../../src/models/presets';
import { grownStart } from '../../src/pretrain/grownStart';
import { checkPretrainOptions } from '../../workers/pretrainHost';
import { defaultTokenizer } from '../../src/text/vocab';

beforeAll(async () => {
  await tf.setBackend('wasm');
  await tf.ready();
});

const tok = defaultTokenizer();
const tinyGrounder = new Uint8Array(readFileSync(join(__dirname, '../../public/base/tiny-grounder.safetensors')));

describe('grownStart', () => {
  it('grows a tiny grounder into the demo shape', () => {
    const demo = grounderPreset('demo', tok.size);
    const grown = grownStart(tinyGrounder, demo, 1);
    expect(grown).not.toBeNull();
    expect(grown!['head.k.w'].shape).toEqual([demo.dim, demo.dim]);
    disposeParams(grown!);
  });

  it('with addedOnly, leaves only the blocks growth adds trainable', () => {
    const demo = grounderPreset('demo', tok.size);
    const grown = grownStart(tinyGrounder, demo, 1, true)!;
    const trainable = Object.entries(grown).filter(([, v]) => v.trainable).map(([k]) => k);
    expect(trainable.length).toBeGreaterThan(0);
    expect(trainable.every((k) => k.startsWith('blocks.1.'))).toBe(true);
    expect(Object.keys(grown).filter((k) => k.startsWith('blocks.1.')).sort()).toEqual([...trainable].sort());
    disposeParams(grown);
    const all = grownStart(tinyGrounder, demo, 1)!;
    expect(Object.values(all).every((v) => v.trainable)).toBe(true);
    disposeParams(all);
  });

  it('the job takes trainAdded with a tune only', () => {
    const o = { preset: 'demo' as const, seed: 1, models: ['grounder' as const], scale: 1 };
    expect(() => checkPretrainOptions({ ...o, tune: { grounder: 'AA==' }, trainAdded: true })).not.toThrow();
    expect(() => checkPretrainOptions({ ...o, trainAdded: true })).toThrow(/this job tunes nothing/);
  });

  it('leaves a same-size start, another kind or unreadable bytes to the caller', () => {
    expect(grownStart(tinyGrounder, grounderPreset('tiny', tok.size), 1)).toBeNull();
    expect(grownStart(tinyGrounder, plannerPreset('demo', tok.size), 1)).toBeNull();
    expect(grownStart(new Uint8Array([1, 2, 3]), grounderPreset('demo', tok.size), 1)).toBeNull();
  });

  it('refuses a narrower start that cannot grow, saying why', () => {
    const other = { ...grounderPreset('demo', tok.size), glyphs: 64 };
    expect(() => grownStart(tinyGrounder, other, 1)).toThrow(/32-wide base grounder to tune cannot grow into the preset's shape: their glyphs differ \(128 and 64\)/);
  });
});
