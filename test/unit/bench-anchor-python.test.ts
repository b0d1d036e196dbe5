/**
 * bench/anchor/anchor.py itself, where a python3 with torch exists (CI
 * installs none, so there this file skips, saying why): its JSON as the
 * bench reads it, parameter counts equal to the project's, and the FLOPs of
 * each step within the bench's tolerance of the project's own count for a
 * step of the same sizes, profiled here on WASM (small batches, so it
 * takes seconds).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import * as tf from '../../src/models/tf';
import '@tensorflow/tfjs-backend-wasm';
import { ANCHOR_FLOP_TOLERANCE, ANCHOR_STEPS, parseAnchorRun } from '../../scripts/lib/bench-anchor';
import { pythonCandidates, runAnchorScript, torchVersion } from '../../scripts/lib/bench-anchor-python';
import { benchGrounder, grounderSftTrainer, plannerGrpoTrainer, plannerSftTrainer, type TimedTrainer } from '../../src/bench/agentSteps';
import { anchorSpec } from '../../src/bench/anchorSpec';
import { profileStep } from '../../src/bench/measure';
import type { AnchorStepName, StepsWork } from '../../src/bench/types';
import { disposeParams } from '../../src/models/params';
import { presetSizes } from '../../src/models/presets';
import { syntheticScreenImage } from '../../src/models/rasterize';

const python = pythonCandidates(process.env).find((p) => torchVersion(p) !== null);
if (!python) console.warn('bench-anchor-python: skipped, no python3 here imports torch (apt-get install python3-torch to run it)');

beforeAll(async () => {
  await tf.setBackend('wasm');
});

/** One profiled step of the project's trainer: its matmul FLOPs and the sizes it ran. */
async function projectStep<W>(trainer: TimedTrainer<W>): Promise<{ flops: number; work: W }> {
  let work: W | undefined;
  try {
    const prof = await profileStep(async () => (work = await trainer.step()));
    return { flops: prof.flops, work: work as W };
  } finally {
    trainer.dispose();
  }
}

describe.skipIf(!python)('the PyTorch anchor script', () => {
  it('mirrors the tiny models: the project parameter counts, and each step within the FLOP tolerance', async () => {
    const g = benchGrounder('tiny', 1);
    const project = {} as Record<AnchorStepName, number>;
    const work = {} as StepsWork;
    try {
      const gs = await projectStep(grounderSftTrainer(g, { seed: 1, batch: 2, distinct: 1, paint: syntheticScreenImage }));
      const ps = await projectStep(plannerSftTrainer('tiny', { seed: 1, batch: 2, distinct: 1 }));
      const pg = await projectStep(plannerGrpoTrainer('tiny', g, { seed: 1, prompts: 1, groupSize: 2, paint: syntheticScreenImage }));
      [project.grounderSft, project.plannerSft, project.plannerGrpo] = [gs.flops, ps.flops, pg.flops];
      Object.assign(work, { grounderSft: [gs.work], plannerSft: [ps.work], plannerGrpo: [pg.work] });
    } finally {
      disposeParams(g.params);
    }
    const run = await runAnchorScript(python as string, anchorSpec('tiny', work), { threads: 1, steps: 1, seed: 1 });
    expect(parseAnchorRun(JSON.stringify(run))).toEqual(run);
    const tiny = presetSizes().find((s) => s.preset === 'tiny');
    expect(run.params).toEqual({ grounder: tiny?.grounder, planner: tiny?.planner });
    expect(run.threads).toBe(1);
    for (const name of ANCHOR_STEPS) {
      expect(run.steps[name].stepMs).toHaveLength(1);
      expect(Math.abs(run.steps[name].flops / project[name] - 1), name).toBeLessThanOrEqual(ANCHOR_FLOP_TOLERANCE);
    }
  }, 300_000);

  it("runs the reward pool's grounder forward for grounded instructions (none parse at random initialisation in the bench)", async () => {
    const small = { grounderSft: [{ batch: 1 }], plannerSft: [{ batch: 1, promptLength: 64 }] };
    const grpo = (groundedQueries: number) => ({ ...small, plannerGrpo: [{ rows: 2, groupSize: 2, promptLength: 64, decodeSteps: 3, groundedQueries, decodeBatches: 1, decodeReadBacks: 3 }] });
    const [none, some] = await Promise.all([0, 17].map((q) => runAnchorScript(python as string, anchorSpec('tiny', grpo(q)), { threads: 1, steps: 1, seed: 1 })));
    // 17 queries: two pool forwards of 16 screens each, far more products than the planner's.
    expect(some.steps.plannerGrpo.flops).toBeGreaterThan(10 * none.steps.plannerGrpo.flops);
  }, 300_000);
});
