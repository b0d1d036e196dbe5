/**
 * The grounder pretraining recipe, end to end on the Node painter
 * (syntheticScreenImage): the tiny preset from seed 1, pretrainGrounder for
 * STEPS steps of 16 instructions (4 screens × 4), then the reading probe on
 * held-out screens (seeds ≥ TEST_SEED_BASE) of the held-out sites and
 * domains. Prints every style's accuracy with its chance level (clicking a
 * random visible interactive element) and the wall time.
 *
 * Asserts what this recipe honestly reached here (see TEXT_MIN), and that
 * every style beats its chance level by a clear margin (≥ 1.5× chance and
 * ≥ chance + 0.04). Set COEVO_GROUNDER_STEPS to run longer.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import * as tf from '../../src/models/tf';
import '@tensorflow/tfjs-backend-wasm';
import { formatReadingProbe, readingProbe } from '../../src/learn/readingProbe';
import { Random } from '../../src/learn/random';
import { initGrounder } from '../../src/models/grounder';
import { disposeParams } from '../../src/models/params';
import { grounderPreset } from '../../src/models/presets';
import { syntheticScreenImage } from '../../src/models/rasterize';
import { pretrainGrounder } from '../../src/pretrain/grounder';
import { defaultTokenizer } from '../../src/text/vocab';
import { REF_STYLES } from '../../src/world/types';

const STEPS = Number(process.env.COEVO_GROUNDER_STEPS ?? 500);
/**
 * Text-style accuracy asserted: below the 0.5, which this recipe has
 * not reached yet. Measured at 500 steps, seed 1 (2 shared cores, 32 min):
 * text 0.225 (chance 0.096), icon 0.600 (0.074), position 0.300 (0.093),
 * relation 0.175 (0.094), colour 0.225 (0.067), function 0.175 (0.074);
 * letter F1 0.435, so reading letters is what holds text back. (Measured
 * before the Node painter drew each element's shown text squeezed to fit,
 * 1 Dec; not re-run since.)
 */
const TEXT_MIN = Number(process.env.COEVO_GROUNDER_TEXT_MIN ?? 0.2);

beforeAll(async () => {
  await tf.setBackend('wasm');
  await tf.ready();
});

describe('grounder pretraining (tiny, synthetic painter, WASM)', () => {
  it(`reads and grounds held-out screens of held-out sites after ${STEPS} steps`, { timeout: 4 * 3600_000 }, async () => {
    const tok = defaultTokenizer();
    const cfg = grounderPreset('tiny');
    const params = initGrounder(new Random(1), cfg);
    const start = performance.now();
    const rep = await pretrainGrounder(params, cfg, tok, { seed: 1, steps: STEPS, paint: syntheticScreenImage }, (p) => {
      if (p.step % 50 === 0) console.log(`step ${p.step}/${p.steps} ${p.stage} loss ${p.loss.toFixed(3)} at ${((performance.now() - start) / 1000).toFixed(0)} s`);
    });
    const probe = await readingProbe(params, cfg, tok, { seed: 7, screens: 60, perStyle: 40 });
    const wall = (performance.now() - start) / 1000;
    console.log(`pretraining: ${rep.steps} steps on ${rep.screens} training screens in ${(rep.wallMs / 1000).toFixed(0)} s; with the probe ${wall.toFixed(0)} s`);
    for (const s of rep.stages) console.log(`  ${s.stage}: ${s.steps} steps, loss ${s.loss.toFixed(3)} (read ${s.read.toFixed(3)}, parse ${s.parse.toFixed(3)}, ground ${s.ground.toFixed(3)})`);
    console.log(formatReadingProbe(probe));
    expect(probe.grounding.text?.accuracy ?? 0).toBeGreaterThanOrEqual(TEXT_MIN);
    for (const style of REF_STYLES) {
      const g = probe.grounding[style];
      expect(g, style).toBeDefined();
      if (!g) continue;
      expect(g.n, style).toBeGreaterThanOrEqual(20);
      expect(g.accuracy, style).toBeGreaterThanOrEqual(Math.max(1.5 * g.chance, g.chance + 0.04));
    }
    disposeParams(params);
  });
});
