/**
 * The shipped tiny base planner's recipe, run from a seed (Node, tfjs WASM):
 * pretraining on the world's language, then SFT on training states
 * (src/pretrain/planner.ts BASE_PLANNER_RECIPES.tiny), measured greedily on
 * held-out states of buildSuites(1) (web cross-task, cross-site,
 * cross-domain and mobile tasks, never trained on). Issue 8 acceptance 2:
 * at least 95% of what it writes parses. Prints every figure and the wall
 * time (tens of minutes on a shared 2-core machine).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import * as tf from '../../src/models/tf';
import '@tensorflow/tfjs-backend-wasm';
import { defaultTokenizer } from '../../src/text/vocab';
import { BASE_PLANNER_RECIPES, buildBasePlanner } from '../../src/pretrain/planner';

beforeAll(async () => {
  await tf.setBackend('wasm');
  await tf.ready();
});

describe('base planner (tiny)', () => {
  it('writes instructions that parse on ≥ 95% of held-out states', async () => {
    const t0 = performance.now();
    let last = 0;
    const built = await buildBasePlanner({
      preset: 'tiny',
      seed: 1,
      scale: 1,
      tok: defaultTokenizer(),
      onProgress: (p) => {
        if (p.step % 50 === 0 || p.step === p.steps) console.log(`  ${p.stage} ${p.step}/${p.steps} loss ${p.loss.toFixed(3)} (${((performance.now() - t0) / 1000).toFixed(0)} s)`);
        last = p.loss;
      },
    });
    const e = built.evaluation;
    const r = built.report;
    if (!r) throw new Error('a trained base planner has a training report');
    console.log(`recipe ${JSON.stringify(BASE_PLANNER_RECIPES.tiny)}; final loss ${last.toFixed(3)}`);
    console.log(`pretrain loss ${r.pretrain.firstLoss.toFixed(3)} → ${r.pretrain.lastLoss.toFixed(3)} (${r.pretrain.wallSeconds.toFixed(0)} s); SFT loss ${r.sft.firstLoss.toFixed(3)} → ${r.sft.lastLoss.toFixed(3)} (${r.sft.wallSeconds.toFixed(0)} s)`);
    console.log(`held-out (${e.states} states): parse ${e.parseRate.toFixed(3)} type ${e.typeAccuracy.toFixed(3)} exact ${e.exactMatch.toFixed(3)} step ${e.stepAccuracy.toFixed(3)}`);
    console.log(`checkpoint ${built.bytes.length} bytes, ${built.parameters} parameters; wall ${((performance.now() - t0) / 1000).toFixed(0)} s`);
    for (const row of e.rows.slice(0, 10)) console.log(`  ${row.exact ? 'OK' : row.parsed ? '--' : '!!'} ${row.truth}  =>  ${row.output}`);
    expect(e.states).toBeGreaterThanOrEqual(100);
    expect(e.parseRate).toBeGreaterThanOrEqual(0.95);
    expect(e.typeAccuracy).toBeGreaterThan(0.5);
  }, 4 * 3600_000);
});
