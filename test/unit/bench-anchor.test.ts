import { describe, expect, it } from 'vitest';
import { anchorEnv, anchorProblems, anchorReport, anchorTable, ANCHOR_FLOP_TOLERANCE, parseAnchorRun, type AnchorRun } from '../../scripts/lib/bench-anchor';
import { pythonCandidates } from '../../scripts/lib/bench-anchor-python';
import { DEFAULT_ANCHOR_ROUNDS, parseBenchArgs, UsageError } from '../../scripts/lib/bench-args';
import { anchorSpec } from '../../src/bench/anchorSpec';
import type { StepFigures, WorkerBench } from '../../src/bench/types';

function figures(medianMs: number, flops: number): StepFigures {
  return { stepMs: [medianMs], warmupMs: medianMs, warmupShaders: null, timedShaders: null, medianMs, flops, matmuls: 10, kernels: 100, readBacks: 1, dominant: { batch: 1, m: 2, k: 2, n: 2 }, gflops: flops / medianMs / 1e6, peakStepBytes: 0, kernelTimes: null };
}

const spec = anchorSpec('tiny');
const matmul = { shape: { batch: 1, m: 2, k: 2, n: 2 }, flops: 16, medianMs: 1, gflops: 1 };

/** A WASM round whose grounder SFT, planner SFT and GRPO steps took these medians. */
function wasmRound(ms: [number, number, number], flops: [number, number, number] = [9e9, 1.5e9, 3e9]): WorkerBench {
  return {
    backend: 'wasm',
    adapter: null,
    threads: 1,
    preset: 'tiny',
    dispatchMs: 0.1,
    screens: { count: 1, perSecond: 1, msEach: 1 },
    grounder: { batch: 8, samplesPerSecond: 1, step: figures(ms[0], flops[0]), matmul },
    planner: { prompts: 2, groupSize: 4, groupsPerSecond: 1, sampling: 'host', step: figures(ms[2], flops[2]), matmul },
    plannerSft: { batch: 8, step: figures(ms[1], flops[1]) },
    work: { grounderSft: [{ batch: 8 }], plannerSft: [{ batch: 8, promptLength: 192 }], plannerGrpo: [{ rows: 8, groupSize: 4, promptLength: 192, decodeSteps: 48, groundedQueries: 0, decodeBatches: 1, decodeReadBacks: 48 }] },
    anchorSpec: spec,
    memoryBefore: { tensors: 0, bytes: 0, gpuBytesInUse: null, gpuBytesAllocated: null },
    coevo: null,
  };
}

function torchRound(ms: [number, number, number], flops: [number, number, number] = [9.1e9, 1.5e9, 3e9], params = spec.params): AnchorRun {
  const step = (m: number, f: number) => ({ medianMs: m, stepMs: [m], warmupMs: m, flops: f, matmuls: 10 });
  return {
    torch: '1.13.0a0',
    threads: 1,
    params,
    steps: { grounderSft: step(ms[0], flops[0]), plannerSft: step(ms[1], flops[1]), plannerGrpo: step(ms[2], flops[2]) },
    notMirrored: ['painting'],
  };
}

describe('bench --anchor arguments', () => {
  it('is a switch that implies the WASM backend and two rounds', () => {
    const p = parseBenchArgs(['--anchor', '--threads', '1', '--iterations', '0']);
    if (p.help) throw new Error('help');
    expect(p.args.anchorRounds).toBe(DEFAULT_ANCHOR_ROUNDS);
    expect(p.args.backend).toBe('wasm');
    expect(p.args.threads).toBe(1);
    const q = parseBenchArgs(['--backend', 'wasm', '--anchor', '--anchor-rounds', '3']);
    if (q.help) throw new Error('help');
    expect(q.args.anchorRounds).toBe(3);
    const none = parseBenchArgs([]);
    if (none.help) throw new Error('help');
    expect(none.args.anchorRounds).toBeNull();
    expect(none.args.backend).toBe('webgpu');
  });

  it('refuses WebGPU, a single round, and rounds without --anchor', () => {
    expect(() => parseBenchArgs(['--anchor', '--backend', 'webgpu'])).toThrow(UsageError);
    expect(() => parseBenchArgs(['--anchor', '--anchor-rounds', '1'])).toThrow(/2 or more/);
    expect(() => parseBenchArgs(['--anchor-rounds', '3'])).toThrow(/needs --anchor/);
  });
});

describe('the anchor environment', () => {
  it('drops the OpenBLAS tuning variables for the child only and pins its threads', () => {
    const parent = { PATH: '/bin', OPENBLAS_CORETYPE: 'Haswell', OPENBLAS_L2_SIZE: '512', OMP_NUM_THREADS: '8', UNSET: undefined };
    const env = anchorEnv(parent, 2);
    expect(env).toEqual({ PATH: '/bin', OMP_NUM_THREADS: '2', OPENBLAS_NUM_THREADS: '2' });
    expect(parent.OPENBLAS_CORETYPE).toBe('Haswell');
  });

  it('tries $COEVO_PYTHON alone, else the system python3 (where Debian puts torch) before the one on PATH', () => {
    expect(pythonCandidates({ COEVO_PYTHON: '/opt/py' }, true)).toEqual(['/opt/py']);
    expect(pythonCandidates({}, true)).toEqual(['/usr/bin/python3', 'python3']);
    expect(pythonCandidates({}, false)).toEqual(['python3']);
  });
});

describe('the anchor report', () => {
  it('takes medians of the per-round medians, ratios WASM / PyTorch, and the FLOPs of both', () => {
    const a = anchorReport(
      [
        { wasm: wasmRound([2000, 300, 600]), torch: torchRound([1000, 30, 80]) },
        { wasm: wasmRound([2400, 310, 640]), torch: torchRound([1200, 40, 70]) },
      ],
      '/usr/bin/python3',
    );
    expect(a.rounds).toBe(2);
    expect(a.steps.grounderSft).toMatchObject({ wasm_ms: 2200, torch_ms: 1100, ratio: 2, wasm_gflop: 9, torch_gflop: 9.1, wasm_round_ms: [2000, 2400], torch_round_ms: [1000, 1200] });
    expect(a.steps.grounderSft.flop_difference).toBeCloseTo(0.011, 3);
    expect(a.steps.plannerSft.ratio).toBe(8.71);
    expect(a.steps.plannerGrpo.ratio).toBe(8.27);
    expect(a.flops_within_tolerance).toBe(true);
    expect(anchorProblems(a)).toBeNull();
    expect(JSON.parse(JSON.stringify(a))).toEqual(a);
  });

  it('fails on FLOPs more than 10% apart in any round, and on parameter counts that differ', () => {
    const off = 1 + ANCHOR_FLOP_TOLERANCE + 0.01;
    const a = anchorReport(
      [
        { wasm: wasmRound([1, 1, 1]), torch: torchRound([1, 1, 1]) },
        { wasm: wasmRound([1, 1, 1]), torch: torchRound([1, 1, 1], [9e9, 1.5e9 * off, 3e9]) },
      ],
      'python3',
    );
    expect(a.flops_within_tolerance).toBe(false);
    expect(anchorProblems(a)).toMatch(/planner SFT FLOPs.*11\.0%/);
    const p = anchorReport([{ wasm: wasmRound([1, 1, 1]), torch: torchRound([1, 1, 1], undefined, { grounder: 1, planner: spec.params.planner }) }], 'python3');
    expect(anchorProblems(p)).toMatch(/grounder parameters: project 208604, PyTorch 1/);
  });

  it('prints one row per step with both times, the ratio and both FLOP counts', () => {
    const a = anchorReport([{ wasm: wasmRound([2000, 300, 600]), torch: torchRound([1000, 30, 80]) }], 'python3');
    const lines = anchorTable(a).split('\n');
    expect(lines[0]).toMatch(/torch 1\.13\.0a0.*1 thread/);
    expect(lines[1]).toMatch(/^step\s+WASM ms\s+PyTorch ms\s+ratio\s+WASM GFLOP\s+PyTorch GFLOP\s+FLOP diff$/);
    expect(lines[2]).toMatch(/^grounder SFT\s+2000\s+1000\s+2× +9\s+9\.1\s+\+1\.1%$/);
    expect(lines[3]).toMatch(/^planner SFT\s+300\s+30\s+10×/);
    expect(lines[4]).toMatch(/^planner GRPO\s+600\s+80\s+7\.5×/);
  });
});

describe("anchor.py's output", () => {
  it('is read field by field, the last line being the JSON', () => {
    const run = torchRound([1, 2, 3]);
    expect(parseAnchorRun(`a warning\n${JSON.stringify(run)}\n`)).toEqual(run);
    expect(() => parseAnchorRun('Traceback …')).toThrow(/no JSON/);
    const broken = { ...run, steps: { ...run.steps, plannerGrpo: { medianMs: 'slow' } } };
    expect(() => parseAnchorRun(JSON.stringify(broken))).toThrow(/plannerGrpo/);
  });
});
