/**
 * `--tune-styles`: a grounder tune draws its referring styles by the
 * weights given (the tiny grounder's reading stages favoured text, icon and
 * colour; the demo tunes drew all six alike), and a bad weight is refused
 * at the command line and by the job.
 */
import { describe, expect, it } from 'vitest';
import * as tf from '../../src/models/tf';
import '@tensorflow/tfjs-backend-wasm';
import { exportCheckpoint } from '../../src/models/checkpoint';
import { initGrounder, type GrounderConfig } from '../../src/models/grounder';
import { disposeParams } from '../../src/models/params';
import { grounderPreset } from '../../src/models/presets';
import { syntheticScreenImage } from '../../src/models/rasterize';
import { Random } from '../../src/learn/random';
import { defaultTokenizer } from '../../src/text/vocab';
import { pretrainGrounder, type GrounderPretrainOptions } from '../../src/pretrain/grounder';
import { styleOrder } from '../../src/pretrain/grounderScreens';
import { parseStyleWeights, styleWeightsProblem } from '../../src/pretrain/styleWeights';
import { checkPretrainOptions } from '../../workers/pretrainHost';
import { parsePretrainArgs } from '../../scripts/lib/pretrain-args';
import { dataMixLines } from '../../scripts/lib/pretrain-run';
import type { BaseManifest } from '../../src/pretrain/baseTypes';

describe('style weights', () => {
  it('parse from S=W pairs, and say what is wrong otherwise', () => {
    expect(parseStyleWeights('text=2, icon=1.5,color=1.5')).toEqual({ text: 2, icon: 1.5, color: 1.5 });
    expect(() => parseStyleWeights('txt=2')).toThrow(/"txt", which is not a referring style/);
    expect(() => parseStyleWeights('text=0')).toThrow(/weight 0; a weight is a number with 0 < w ≤ 10/);
    expect(() => parseStyleWeights('text=lots')).toThrow(/weight NaN/);
    expect(() => parseStyleWeights('text')).toThrow(/"text" is not STYLE=WEIGHT/);
    expect(() => parseStyleWeights('text=2,text=3')).toThrow(/text is given twice/);
    expect(styleWeightsProblem({})).toMatch(/names no style/);
    expect(styleWeightsProblem([2])).toMatch(/must be an object/);
  });

  it('put a weighted style first as often as its share of the weights', () => {
    const rng = new Random(5);
    const draws = 6000;
    let first = 0;
    for (let i = 0; i < draws; i++) if (styleOrder(rng, { text: 3 })[0] === 'text') first++;
    // Weight 3 against five styles of weight 1: first 3/8 of the time (1/6 unweighted).
    expect(first / draws).toBeGreaterThan(0.35);
    expect(first / draws).toBeLessThan(0.4);
  });
});

describe('the command and the job', () => {
  it('npm run pretrain -- --tune-styles goes with a grounder tune only', () => {
    const p = parsePretrainArgs(['--only', 'grounder', '--tune', 'public/base', '--tune-styles', 'text=2,color=1.5']);
    if (!p.help) expect(p.args.tuneStyles).toEqual({ text: 2, color: 1.5 });
    const plain = parsePretrainArgs(['--only', 'grounder', '--tune', 'public/base']);
    if (!plain.help) expect(plain.args.tuneStyles).toBeNull();
    expect(() => parsePretrainArgs(['--only', 'planner', '--tune', 'public/base', '--tune-styles', 'text=2'])).toThrow(/give --only grounder and --tune DIR/);
    expect(() => parsePretrainArgs(['--only', 'grounder', '--tune-styles', 'text=2'])).toThrow(/give --only grounder and --tune DIR/);
    expect(() => parsePretrainArgs(['--only', 'grounder', '--tune', 'public/base', '--tune-styles', 'colour=2'])).toThrow(/--tune-styles names "colour", which is not a referring style/);
  });

  it('the job refuses style weights without a grounder tune, or with a bad weight', () => {
    const o = { preset: 'tiny' as const, seed: 1, models: ['grounder' as const], scale: 1 };
    expect(() => checkPretrainOptions({ ...o, tune: { grounder: 'AA==' }, tuneStyles: { text: 2 } })).not.toThrow();
    expect(() => checkPretrainOptions({ ...o, tuneStyles: { text: 2 } })).toThrow(/tunes no grounder/);
    expect(() => checkPretrainOptions({ ...o, tune: { grounder: 'AA==' }, tuneStyles: { text: -1 } })).toThrow(/tuneStyles gives text the weight -1/);
  });

  it('the manifest line says how the styles were drawn', () => {
    const entry = { model: 'grounder' as const, file: 'demo-grounder.safetensors', bytes: 1, parameters: 1, steps: 600, wallSeconds: 1 };
    const manifest = (data: NonNullable<BaseManifest['models'][number]['data']>): BaseManifest => ({ preset: 'demo', seed: 1, backend: 'wasm', scale: 1, createdAt: '', figures: [], models: [{ ...entry, data }] });
    const mix = { examples: { world: 6, 'real-dom': 2 }, realShare: 0.25, realPages: 140 };
    expect(dataMixLines(manifest({ ...mix, tuneStyles: { text: 2, color: 1.5 } }))).toEqual(['grounder data: 6 world examples, 2 real-dom examples (25.0%; asked 0.25) from 140 real training pages; styles drawn by text=2, color=1.5 (others 1)']);
    expect(dataMixLines(manifest(mix))[0]).not.toMatch(/styles/);
  });
});

describe('a grounder tune with style weights', () => {
  it('trains on another mix than the plain tune, the same for the same weights', async () => {
    await tf.setBackend('wasm');
    await tf.ready();
    const tok = defaultTokenizer();
    const cfg: GrounderConfig = { ...grounderPreset('tiny', tok.size), glyphs: 32 };
    const run = async (opts: GrounderPretrainOptions) => {
      const params = initGrounder(new Random(4), cfg);
      try {
        await pretrainGrounder(params, cfg, tok, opts);
        return Buffer.from(await exportCheckpoint(params, cfg));
      } finally {
        disposeParams(params);
      }
    };
    const base: GrounderPretrainOptions = { seed: 3, steps: 2, paint: syntheticScreenImage, batchSize: 4, perScreen: 2, screens: 20, plan: 'tune', lr: 5e-4 };
    const plain = await run(base);
    const weighted = await run({ ...base, tuneStyles: { text: 10 } });
    expect(weighted.equals(plain)).toBe(false);
    expect((await run({ ...base, tuneStyles: { text: 10 } })).equals(weighted)).toBe(true);
  }, 120_000);
});
