/**
 * The spelled match's weight: 1 + its learned gate by default, the gate
 * alone when the base pretraining asks (models/grounder.ts GroundOptions).
 * The floor may only move text references: an instruction that names no
 * text spells nothing, and its cell distribution must not change.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import * as tf from '../../src/models/tf';
import '@tensorflow/tfjs-backend-wasm';
import { encodeScreens, groundOnScreens, initGrounder, type GroundOptions } from '../../src/models/grounder';
import { grounderBatch, grounderTensors } from '../../src/models/grounderData';
import { disposeParams, type Params } from '../../src/models/params';
import { grounderPreset } from '../../src/models/presets';
import { Random } from '../../src/learn/random';
import { trainingScreens, writeExample } from '../../src/pretrain/grounderScreens';
import { targetText } from '../../src/text/spelled';
import { defaultTokenizer } from '../../src/text/vocab';
import type { RefStyle } from '../../src/world/types';

beforeAll(async () => {
  await tf.setBackend('wasm');
  await tf.ready();
});

const tok = defaultTokenizer();
const cfg = grounderPreset('tiny');

/** One instruction of the given style about the first screen's targets. */
function example(style: RefStyle) {
  const s = trainingScreens(new Random(8), 1)[0];
  const rng = new Random(9);
  for (const t of s.targets) {
    const e = writeExample(rng, s, t, [style]);
    if (e) return e;
  }
  throw new Error(`no ${style} example on the screen`);
}

/** The spelled match's gate and the log-probabilities over valid cells. */
async function ground(params: Params, style: RefStyle, opts: GroundOptions) {
  const batch = grounderBatch(tok, cfg, [example(style)]);
  const [gates, logp] = tf.tidy(() => {
    const inputs = grounderTensors(batch, cfg);
    const out = groundOnScreens(params, cfg, encodeScreens(params, cfg, inputs.images, inputs.valid), 1, inputs, opts);
    const k = out.gates.shape[1];
    return [tf.slice(out.gates, [0, k - 1], [1, 1]), tf.logSoftmax(out.logits)];
  });
  const [g, l] = (await Promise.all([gates.data(), logp.data()])) as Float32Array[];
  tf.dispose([gates, logp]);
  return { gate: g[0], logp: l, valid: batch.valid };
}

function setSpellBias(params: Params, bias: number) {
  params['parse.spell.w'].assign(tf.zerosLike(params['parse.spell.w']));
  params['parse.spell.b'].assign(tf.fill(params['parse.spell.b'].shape, bias));
}

describe('the spelled match is floored at weight 1 (tiny, WASM)', () => {
  it('adds 1 to the learned gate unless asked not to, whatever the gate learned', async () => {
    const params = initGrounder(new Random(2), cfg);
    setSpellBias(params, -50); // clipped to e^-6: a gate that learned to switch spelling off
    expect((await ground(params, 'text', {})).gate).toBeCloseTo(1 + Math.exp(-6), 5);
    expect((await ground(params, 'text', { spellFloor: false })).gate).toBeCloseTo(Math.exp(-6), 5);
    setSpellBias(params, 1);
    expect((await ground(params, 'text', {})).gate).toBeCloseTo(1 + Math.E, 4);
    expect((await ground(params, 'text', { spellFloor: false })).gate).toBeCloseTo(Math.E, 4);
    disposeParams(params);
  });

  it('moves text references and leaves the rest where they were', async () => {
    const params = initGrounder(new Random(2), cfg);
    setSpellBias(params, -50);
    const gap = async (style: RefStyle) => {
      const on = await ground(params, style, {});
      const off = await ground(params, style, { spellFloor: false });
      let most = 0;
      for (let c = 0; c < on.logp.length; c++) if (on.valid[c]) most = Math.max(most, Math.abs(on.logp[c] - off.logp[c]));
      return most;
    };
    expect(targetText(example('text').instruction)).not.toBeNull();
    expect(await gap('text')).toBeGreaterThan(1e-2);
    for (const style of ['position', 'icon', 'color'] as const) {
      expect(targetText(example(style).instruction)).toBeNull();
      expect(await gap(style)).toBeLessThan(1e-4);
    }
    disposeParams(params);
  });
});
