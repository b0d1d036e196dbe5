/**
 * Finite-difference checks of both models' loss gradients on tiny
 * instances: the analytic gradient (tfjs autodiff through our custom
 * matMul/im2col gradients) must match central differences on a few
 * parameters of every kind.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import * as tf from '../../src/models/tf';
import '@tensorflow/tfjs-backend-wasm';
import { Random } from '../../src/learn/random';
import { grounderForward, initGrounder, cellLogProbs, type GrounderConfig } from '../../src/models/grounder';
import { embeddingGradient, initPlanner, plannerLogProbs, type PlannerConfig } from '../../src/models/planner';
import { CANVAS_HEIGHT, CANVAS_WIDTH, GRID_CELLS, IMAGE_FLOATS, validCells } from '../../src/models/canvas';
import { disposeParams, type Params } from '../../src/models/params';

beforeAll(async () => {
  await tf.setBackend('wasm');
  await tf.ready();
});

async function check(params: Params, loss: () => tf.Scalar, names: string[], rng: Random): Promise<void> {
  const { grads, value } = tf.variableGrads(loss, names.map((n) => params[n]));
  value.dispose();
  const rows: string[] = [];
  for (const name of names) {
    const v = params[name];
    const g = (await grads[v.name].data()) as Float32Array;
    const orig = new Float32Array((await v.data()) as Float32Array);
    // Entries that the loss uses (an embedding row of an absent token has gradient 0 either way).
    const used = Array.from(g.keys()).filter((k) => Math.abs(g[k]) > 1e-6);
    for (let trial = 0; trial < 2; trial++) {
      const i = used.length > 0 ? rng.pick(used) : rng.int(0, orig.length - 1);
      const eps = 3e-3;
      const at = async (delta: number) => {
        const changed = orig.slice();
        changed[i] += delta;
        tf.tidy(() => v.assign(tf.tensor(changed, v.shape)));
        const l = tf.tidy(loss);
        const out = (await l.data())[0];
        l.dispose();
        return out;
      };
      const numeric = ((await at(eps)) - (await at(-eps))) / (2 * eps);
      tf.tidy(() => v.assign(tf.tensor(orig, v.shape)));
      rows.push(`${name}[${i}]: analytic ${g[i].toExponential(3)} numeric ${numeric.toExponential(3)}`);
      if (Math.abs(numeric - g[i]) >= 3e-3 + 0.05 * Math.abs(g[i])) console.log(rows.join('\n'));
      expect(Math.abs(numeric - g[i])).toBeLessThan(3e-3 + 0.05 * Math.abs(g[i]));
    }
  }
  tf.dispose(Object.values(grads));
  console.log(rows.join('\n'));
}

describe('models: gradients match finite differences', () => {
  it('grounder loss (cell cross-entropy + offset error)', async () => {
    const cfg: GrounderConfig = { model: 'grounder', vocabSize: 40, maxTokens: 6, charLength: 4, stem: [4, 6], dim: 8, heads: 2, textLayers: 1, layers: 1 };
    const rng = new Random(11);
    const params = initGrounder(rng, cfg);
    const b = 2;
    const images = tf.tensor4d(Float32Array.from({ length: b * IMAGE_FLOATS }, () => rng.next()), [b, CANVAS_HEIGHT, CANVAS_WIDTH, 3]);
    const tokens = tf.tensor2d([1, 7, 9, 12, 0, 0, 1, 30, 5, 0, 0, 0], [b, 6], 'int32');
    const chars = tf.tensor3d(Int32Array.from({ length: b * 6 * 4 }, () => rng.int(0, 37)), [b, 6, 4], 'int32');
    const valid = tf.tensor2d([...validCells('web'), ...validCells('mobile')], [b, GRID_CELLS]);
    const cells = tf.tensor1d([40, 77], 'int32');
    const loss = () =>
      tf.tidy(() => {
        const out = grounderForward(params, cfg, { images, tokens, chars, valid });
        const ce = tf.neg(tf.mean(cellLogProbs(out.logits, cells)));
        const off = tf.mean(tf.square(tf.sub(tf.slice(out.offsets, [0, 40, 0], [b, 1, 2]), 0.3)));
        return tf.add(ce, off) as tf.Scalar;
      });
    const before = tf.memory().numTensors;
    await check(params, loss, ['stem.patch.w', 'stem.conv.w', 'film.w', 'text.tok', 'text.chars.w', 'text.blocks.0.attn.k.w', 'blocks.0.attn.q.w', 'blocks.0.cross.v.w', 'blocks.0.mlp.fc.w', 'fine.cross.k.w', 'head.k.w', 'head.offset.w', 'pos.row'], rng);
    expect(tf.memory().numTensors).toBe(before);
    tf.dispose([images, tokens, chars, valid, cells]);
    disposeParams(params);
  });

  it('planner loss (negative mean log-prob of a completion)', async () => {
    const cfg: PlannerConfig = { model: 'planner', vocabSize: 30, promptLength: 6, completionLength: 4, dim: 8, heads: 2, layers: 1 };
    const rng = new Random(12);
    const params = initPlanner(rng, cfg);
    const prompt = tf.tensor2d([0, 0, 1, 9, 12, 3, 1, 7, 8, 20, 21, 3], [2, 6], 'int32');
    const completion = tf.tensor2d([14, 15, 2, 0, 16, 17, 18, 2], [2, 4], 'int32');
    const loss = () => tf.tidy(() => tf.neg(tf.mean(plannerLogProbs(params, cfg, prompt, completion))) as tf.Scalar);
    await check(params, loss, ['tok', 'pos', 'blocks.0.attn.q.w', 'blocks.0.attn.v.w', 'blocks.0.attn.o.w', 'blocks.0.mlp.proj.w', 'blocks.0.ln1.g', 'ln_f.b'], rng);
    tf.dispose([prompt, completion]);
    disposeParams(params);
  });

  it('the embedding table gradient by scatter-add (WASM) is oneHotᵀ · dy, repeated ids summed', () => {
    const ids = tf.tensor2d([3, 7, 3, 0, 9, 3, 7, 1], [2, 4], 'int32');
    const dy = tf.randomNormal([8, 5], 0, 1, 'float32', 4) as tf.Tensor2D;
    const scattered = embeddingGradient(ids, dy, 12);
    const product = tf.matMul(tf.cast(tf.oneHot(tf.reshape(ids, [-1]) as tf.Tensor1D, 12), 'float32'), dy, true, false);
    expect(tf.getBackend()).toBe('wasm');
    expect(scattered.shape).toEqual([12, 5]);
    const [a, b] = [scattered.dataSync(), product.dataSync()];
    let worst = 0;
    for (let i = 0; i < a.length; i++) worst = Math.max(worst, Math.abs(a[i] - b[i]));
    expect(worst).toBeLessThan(1e-6);
    // Row 3 appears three times: the sum of its three rows of dy; row 2 never: zeros.
    const rows = dy.arraySync();
    expect(scattered.arraySync()[3][0]).toBeCloseTo(rows[0][0] + rows[2][0] + rows[5][0], 6);
    expect(scattered.arraySync()[2]).toEqual([0, 0, 0, 0, 0]);
    tf.dispose([ids, dy, scattered, product]);
  });
});
