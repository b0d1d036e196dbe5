/**
 * bench/anchor/anchor.py itself, where a python3 with torch exists (CI
 * installs none, so there this file skips, saying why): one step of each
 * kind on small work, its JSON as the bench reads it, its parameter counts
 * equal to the project's.
 */
import { describe, expect, it } from 'vitest';
import { parseAnchorRun } from '../../scripts/lib/bench-anchor';
import { pythonCandidates, runAnchorScript, torchVersion } from '../../scripts/lib/bench-anchor-python';
import { anchorSpec } from '../../src/bench/anchorSpec';
import { presetSizes } from '../../src/models/presets';

const python = pythonCandidates(process.env).find((p) => torchVersion(p) !== null);
if (!python) console.warn('bench-anchor-python: skipped, no python3 here imports torch (apt-get install python3-torch to run it)');

describe.skipIf(!python)('the PyTorch anchor script', () => {
  it('mirrors the tiny models with the project parameter counts and reports every step', async () => {
    // Small work so the test takes seconds: 2 screens, short prompts, a few decoded tokens, one pool forward.
    const spec = anchorSpec('tiny', {
      grounderSft: [{ batch: 2 }],
      plannerSft: [{ batch: 2, promptLength: 64 }],
      plannerGrpo: [{ rows: 4, groupSize: 2, promptLength: 64, decodeSteps: 3, groundedQueries: 1 }],
    });
    const run = await runAnchorScript(python as string, spec, { threads: 1, steps: 1, seed: 1 });
    expect(parseAnchorRun(JSON.stringify(run))).toEqual(run);
    const tiny = presetSizes().find((s) => s.preset === 'tiny');
    expect(run.params).toEqual({ grounder: tiny?.grounder, planner: tiny?.planner });
    expect(run.threads).toBe(1);
    for (const step of Object.values(run.steps)) {
      expect(step.stepMs).toHaveLength(1);
      expect(step.flops).toBeGreaterThan(0);
      expect(step.matmuls).toBeGreaterThan(0);
    }
    // Four decoded rows through a pool chunk of 16 screens: the GRPO step holds a grounder forward, so it outweighs planner SFT.
    expect(run.steps.plannerGrpo.flops).toBeGreaterThan(run.steps.plannerSft.flops);
  }, 240_000);
});
