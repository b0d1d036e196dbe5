/**
 * The base models that ship in public/base/ (issue 8): every preset runs
 * start from by default has the files SHIPPED_BASES lists and its manifest, the checkpoints
 * have the preset's shape and every weight the model declares, and the
 * base planner, re-measured here in Node, still writes instructions that
 * parse on held-out states and matches the figure its manifest claims (the
 * same seed, the same WASM arithmetic).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import * as tf from '../../src/models/tf';
import '@tensorflow/tfjs-backend-wasm';
import { configJson, importCheckpoint } from '../../src/models/checkpoint';
import { disposeParams, shapesOf } from '../../src/models/params';
import { grounderPreset, plannerPreset } from '../../src/models/presets';
import { BASE_PLANNER_EVAL_STATES, evalBasePlanner } from '../../src/pretrain/planner';
import { SHIPPED_BASES, SHIPPED_BASE_PRESETS, baseFileName, baseShips, shippedBases, manifestFileName, type BaseManifest } from '../../src/pretrain/baseTypes';
import { defaultTokenizer } from '../../src/text/vocab';
import { grounderSpecs, type GrounderConfig } from '../../src/models/grounder';
import { plannerSpecs, type PlannerConfig } from '../../src/models/planner';

const BASE_DIR = join(__dirname, '../../public/base');
const read = (name: string) => new Uint8Array(readFileSync(join(BASE_DIR, name)));

beforeAll(async () => {
  await tf.setBackend('wasm');
  await tf.ready();
});

describe.each(SHIPPED_BASE_PRESETS.map((p) => [p]))('shipped base models, preset %s', (preset) => {
  const manifest = JSON.parse(readFileSync(join(BASE_DIR, manifestFileName(preset)), 'utf8')) as BaseManifest;
  const tok = defaultTokenizer();

  it('has the checkpoints it ships, in the preset shape, as the manifest lists them', () => {
    expect(manifest.preset).toBe(preset);
    expect(manifest.models.map((m) => m.model).sort()).toEqual([...SHIPPED_BASES[preset]].sort());
    for (const m of manifest.models) {
      expect(m.file).toBe(baseFileName(preset, m.model));
      const bytes = read(m.file);
      expect(bytes.length).toBe(m.bytes);
      const { config, params } = importCheckpoint(bytes);
      const want = m.model === 'grounder' ? grounderPreset(preset, tok.size) : plannerPreset(preset, tok.size);
      expect(configJson(config)).toBe(configJson(want));
      // Every weight the model now declares, in its shape: a file from before a change of the model fails here, not in the app.
      const specs = m.model === 'grounder' ? grounderSpecs(want as GrounderConfig) : plannerSpecs(want as PlannerConfig);
      expect(shapesOf(params)).toEqual(Object.fromEntries(Object.entries(specs).map(([k, v]) => [k, [...v.shape]])));
      disposeParams(params);
    }
  });

  it.runIf(SHIPPED_BASES[preset].includes('planner'))('the base planner writes instructions that parse on ≥ 95% of held-out states, as its manifest says', async () => {
    const claimed = manifest.figures.find((f) => f.model === 'planner' && f.name === 'instructions that parse');
    expect(claimed).toBeDefined();
    const { config, params } = importCheckpoint(read(baseFileName(preset, 'planner')));
    try {
      const e = await evalBasePlanner(params, config as PlannerConfig, tok, manifest.seed, BASE_PLANNER_EVAL_STATES);
      expect(e.states).toBe(BASE_PLANNER_EVAL_STATES);
      expect(e.parseRate).toBeGreaterThanOrEqual(0.95);
      expect(Math.abs(e.parseRate - claimed!.value)).toBeLessThanOrEqual(0.01);
    } finally {
      disposeParams(params);
    }
  }, 300_000);
});

describe('which base models ship', () => {
  it('per preset: both for tiny and demo, none for full', () => {
    expect(SHIPPED_BASE_PRESETS).toEqual(['tiny', 'demo']);
    expect(shippedBases('tiny')).toEqual({ shipped: ['planner', 'grounder'], missing: [] });
    expect(shippedBases('demo')).toEqual({ shipped: ['planner', 'grounder'], missing: [] });
    expect(shippedBases('full')).toEqual({ shipped: [], missing: ['planner', 'grounder'] });
    expect(baseShips('full', 'grounder')).toBe(false);
  });
});
