/**
 * The reward pool's neural grounder encodes each distinct screen of a batch
 * once and grounds every instruction about it from those features (a GRPO
 * group's G instructions share a screen): the answers equal grounding each
 * query on its own screen with grounderForward, across chunk boundaries and
 * with uneven counts per screen and a batch about one screen, and nothing
 * leaks.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import * as tf from '../../src/models/tf';
import '@tensorflow/tfjs-backend-wasm';
import { Random } from '../../src/learn/random';
import { CANVAS_HEIGHT, CANVAS_WIDTH, GRID_CELLS, validCells } from '../../src/models/canvas';
import { greedyPoints, grounderForward, initGrounder, type GroundedPoint } from '../../src/models/grounder';
import { instructionArrays, instructionTensors, setInstruction } from '../../src/models/instructionBatch';
import { disposeParams } from '../../src/models/params';
import { grounderPreset } from '../../src/models/presets';
import { syntheticScreenImage } from '../../src/models/rasterize';
import { neuralPoolGrounder, type GroundingQuery } from '../../src/learn/plannerGrounderPool';
import { trainingPlannerStates } from '../../src/learn/plannerStates';
import { defaultTokenizer } from '../../src/text/vocab';

beforeAll(async () => {
  await tf.setBackend('wasm');
  await tf.ready();
});

describe('neural pool grounder', () => {
  it('answers what grounding each query alone answers, encoding each screen once', async () => {
    const tok = defaultTokenizer();
    const cfg = grounderPreset('tiny');
    const params = initGrounder(new Random(6), cfg);
    const states = trainingPlannerStates(new Random(8), 3);
    // Screen 0 asked 4 times, screen 1 once, screen 2 three times, interleaved so chunks of 3 mix them;
    // the last chunk asks about one screen only.
    const order = [0, 0, 1, 2, 0, 2, 2, 0, 1, 1, 1];
    const queries: GroundingQuery[] = order.map((s, i) => ({ screen: states[s].screen, instruction: i % 2 ? states[s].instruction : `click the "${states[s].parts.goal.split(' ')[0]}" button` }));
    const before = tf.memory().numTensors;
    const pooled = await neuralPoolGrounder(params, cfg, tok, { batchSize: 3 }).ground(queries);
    expect(tf.memory().numTensors).toBe(before);

    const alone: GroundedPoint[] = [];
    for (const q of queries) {
      const text = instructionArrays(1, cfg);
      setInstruction(text, 0, tok, cfg, q.instruction);
      const out = tf.tidy(() => {
        const o = grounderForward(params, cfg, {
          images: tf.tensor4d(syntheticScreenImage(q.screen), [1, CANVAS_HEIGHT, CANVAS_WIDTH, 3]),
          ...instructionTensors(text, cfg),
          valid: tf.tensor2d(validCells(q.screen.platform), [1, GRID_CELLS]),
        });
        return { logits: o.logits, offsets: o.offsets };
      });
      alone.push((await greedyPoints(out))[0]);
      tf.dispose([out.logits, out.offsets]);
    }
    expect(pooled).toHaveLength(queries.length);
    pooled.forEach((a, i) => {
      expect(a.point, `query ${i}`).toEqual({ x: alone[i].x, y: alone[i].y });
      expect(Math.abs(a.confidence - alone[i].prob), `query ${i}`).toBeLessThan(1e-5);
    });
    disposeParams(params);
  });
});
