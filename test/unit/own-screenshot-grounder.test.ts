/**
 * groundImage (src/ownScreen) with the shipped tiny base grounder in Node
 * (WASM): a 1×1 and a blank image score no better than a blank screen and
 * are "nothing confident"; a screenshot's tiles are encoded once and reused
 * for the next instruction with the same answer; no tensor is left behind
 * but the kept encodings, which the cache frees.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import * as tf from '../../src/models/tf';
import '@tensorflow/tfjs-backend-wasm';
import { importCheckpoint } from '../../src/models/checkpoint';
import { disposeParams, type Params } from '../../src/models/params';
import type { GrounderConfig } from '../../src/models/grounder';
import { defaultTokenizer } from '../../src/text/vocab';
import { groundImage } from '../../src/ownScreen/groundImage';
import { FeatureCache } from '../../src/ownScreen/featureCache';

let params: Params;
let cfg: GrounderConfig;
const tok = defaultTokenizer();

beforeAll(async () => {
  await tf.setBackend('wasm');
  await tf.ready();
  const ck = importCheckpoint(new Uint8Array(readFileSync(join(__dirname, '../../public/base/tiny-grounder.safetensors'))));
  params = ck.params;
  cfg = ck.config as GrounderConfig;
});
afterAll(() => disposeParams(params));

const scale = { kind: 'text', textPx: 14 } as const;

it('a 1×1 and a blank image are not confident; the point stays inside the image', async () => {
  const before = tf.memory().numTensors;
  const one = await groundImage(params, cfg, tok, { image: { rgba: new Uint8Array([0, 0, 0, 255]), width: 1, height: 1 }, instruction: 'click the Save button', scale });
  expect(one.confident).toBe(false);
  expect(one.point.x).toBeGreaterThanOrEqual(0);
  expect(one.point.x).toBeLessThanOrEqual(1);
  const blank = await groundImage(params, cfg, tok, { image: { rgba: new Uint8Array(400 * 300 * 4).fill(255), width: 400, height: 300 }, instruction: 'click the Save button', scale });
  expect(blank.tiles.length).toBe(4);
  // The spelled match may move the chosen cell off the blank's best logit (its map on white is nearly, not exactly, flat): at most 0.
  expect(blank.confidence).toBeLessThanOrEqual(1e-4);
  expect(blank.confident).toBe(false);
  // Compared by the logit alone, a blank image is exactly the baseline.
  const byLogit = await groundImage(params, cfg, tok, { image: { rgba: new Uint8Array(400 * 300 * 4).fill(255), width: 400, height: 300 }, instruction: 'click the Save button', scale, spellWeight: 0 });
  expect(byLogit.confidence).toBeCloseTo(0, 3);
  expect(blank.point.x).toBeLessThanOrEqual(400);
  expect(blank.point.y).toBeLessThanOrEqual(300);
  expect(tf.memory().numTensors).toBe(before);
}, 120_000);

it('the next instruction on the same screenshot reuses its encoded tiles, with the same answer', async () => {
  const before = tf.memory().numTensors;
  // Stripes: something to look at.
  const rgba = new Uint8Array(400 * 300 * 4).map((_, i) => (i % 4 === 3 ? 255 : Math.floor(i / 4 / 400) % 12 < 3 ? 40 : 250));
  const image = { rgba, width: 400, height: 300 };
  const features = new FeatureCache();
  const cache = { features, model: 'base' };
  const first = await groundImage(params, cfg, tok, { image, instruction: 'click the Help button', scale }, cache);
  const kept = tf.memory().numTensors;
  expect(kept).toBeGreaterThan(before);
  const again = await groundImage(params, cfg, tok, { image, instruction: 'click the Help button', scale }, cache);
  expect(tf.memory().numTensors).toBe(kept);
  expect(again.point).toEqual(first.point);
  expect(again.confidence).toBeCloseTo(first.confidence, 5);
  const uncached = await groundImage(params, cfg, tok, { image, instruction: 'click the Help button', scale });
  expect(uncached.point).toEqual(first.point);
  features.clear();
  expect(tf.memory().numTensors).toBe(before);
}, 120_000);
