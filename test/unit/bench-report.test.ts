import { describe, expect, it } from 'vitest';
import { benchTable, buildBenchReport } from '../../src/bench/report';
import type { MainThreadBench, MemorySnapshot, StepFigures, WorkerBench } from '../../src/bench/types';
import { mergeSets, parseBenchArgs, REDUCED_COEVO, UsageError } from '../../scripts/lib/bench-args';
import { anchorSpec } from '../../src/bench/anchorSpec';

const anchorSpecFixture = anchorSpec('tiny');

const mem = (tensors: number, gpu: number): MemorySnapshot => ({ tensors, bytes: gpu, gpuBytesInUse: gpu, gpuBytesAllocated: gpu * 2 });

function step(flops: number, medianMs: number, peak = 1000): StepFigures {
  return { stepMs: [medianMs], warmupMs: 5 * medianMs, warmupShaders: 40, timedShaders: 0, medianMs, flops, matmuls: 10, kernels: 300, readBacks: 3, dominant: { batch: 1, m: 64, k: 32, n: 16 }, gflops: flops / medianMs / 1e6, peakStepBytes: peak, kernelTimes: null };
}

function worker(after: MemorySnapshot[]): WorkerBench {
  return {
    backend: 'webgpu',
    adapter: { vendor: 'google', architecture: 'swiftshader', device: '', description: '', software: true },
    threads: null,
    preset: 'tiny',
    dispatchMs: 0.5,
    screens: { count: 10, perSecond: 50, msEach: 20 },
    grounder: { batch: 8, samplesPerSecond: 80, step: step(2e9, 100, 5000), matmul: { shape: { batch: 1, m: 64, k: 32, n: 16 }, flops: 65536, medianMs: 0.01, gflops: 40 } },
    planner: { prompts: 2, groupSize: 4, groupsPerSecond: 1, sampling: 'host', step: step(1e9, 2000), matmul: { shape: { batch: 1, m: 8, k: 8, n: 8 }, flops: 1024, medianMs: 0.001, gflops: 10 } },
    plannerSft: { batch: 8, step: step(1.5e9, 300) },
    work: { grounderSft: [{ batch: 8 }], plannerSft: [{ batch: 8, promptLength: 192 }], plannerGrpo: [{ rows: 8, groupSize: 4, promptLength: 192, decodeSteps: 48, groundedQueries: 0, decodeBatches: 1, decodeReadBacks: 48 }, { rows: 8, groupSize: 4, promptLength: 192, decodeSteps: 30, groundedQueries: 0, decodeBatches: 2, decodeReadBacks: 5 }] },
    anchorSpec: anchorSpecFixture,
    memoryBefore: mem(5, 100),
    coevo: {
      iterations: 3,
      set: ['evalSize=1'],
      reduced: true,
      phases: [
        { iteration: 0, phase: 'seed-data', seconds: 1 },
        { iteration: 3, phase: 'planner-grpo', seconds: 2 },
        { iteration: 3, phase: 'evaluate', seconds: 3.5 },
      ],
      memoryAfter: after,
      wallSeconds: 10,
    },
  };
}

const main: MainThreadBench = { longtaskSupported: true, longTasks: 1, longestTaskMs: 62, maxTimerLagMs: 70, observedSeconds: 100 };
const meta = { command: 'npm run bench -- --preset tiny', date: '2025-01-01T00:00:00Z', machine: { os: 'Linux', cpus: 'x', cores: 2, memoryGiB: 8, browser: 'Chromium 1', node: 'v20' }, wallSeconds: 120 };

describe('the benchmark JSON', () => {
  it('has every field issue 7 asks for, with the ratios computed from the raw figures', () => {
    const r = buildBenchReport(worker([mem(100, 10_000), mem(100, 12_000), mem(100, 14_000)]), main, meta);
    expect(r.grounder.step_gflops).toBe(20);
    expect(r.grounder.matmul_gflops).toBe(40);
    expect(r.grounder.step_efficiency).toBe(0.5);
    expect(r.planner.step_efficiency).toBe(0.05);
    expect(r.grounder.sft_samples_per_second).toBe(80);
    expect(r.grounder.read_backs_per_step).toBe(3);
    expect(r.planner_sft.read_backs_per_step).toBe(3);
    expect(r.planner.grpo_groups_per_second).toBe(1);
    // The timed step's 5 read-backs over 2 batches; the warm-up's 48 left out.
    expect(r.planner.decode_read_backs_per_batch).toBe(2.5);
    expect(r.planner.sampling).toBe('host');
    expect(r.screens.rendered_per_second).toBe(50);
    expect(r.memory.tensor_growth).toBe(0);
    expect(r.memory.gpu_bytes_growth).toBe(4000);
    expect(r.memory.one_step_bytes).toBe(5000);
    expect(r.memory.gpu_bytes_flat).toBe(true);
    expect(r.main_thread.longest_task_ms).toBe(62);
    expect(r.iteration).toMatchObject({ iteration: 3, phases_seconds: { 'planner-grpo': 2, evaluate: 3.5 }, total_seconds: 5.5, config: { reduced: true, set: ['evalSize=1'] } });
    expect(r.hardware_gpu).toBe(false);
    expect(r.acceptance).toEqual({ grounder_efficiency_at_least_half: true, no_tensor_growth: true, gpu_bytes_flat: true, longest_task_under_50ms: false });
    // Survives JSON as is (no undefined, no NaN).
    expect(JSON.parse(JSON.stringify(r))).toEqual(r);
    const table = benchTable(r);
    for (const label of ['adapter', 'grounder step', 'planner GRPO', 'planner sampling', 'iteration 3 (reduced config)', 'longest main-thread task']) expect(table).toContain(label);
    expect(table).not.toContain('WASM threads');
  });

  it('says how many threads a WASM measurement ran on', () => {
    const r = buildBenchReport({ ...worker([mem(100, 0)]), backend: 'wasm', adapter: null, threads: 2 }, main, meta);
    expect(r.threads).toBe(2);
    expect(benchTable(r)).toMatch(/WASM threads\s+2/);
  });

  it('flags growth: tensors added between iterations 1 and 3, GPU bytes beyond one step', () => {
    const r = buildBenchReport(worker([mem(100, 10_000), mem(104, 20_000), mem(108, 30_000)]), main, meta);
    expect(r.memory.tensor_growth).toBe(8);
    expect(r.memory.gpu_bytes_growth).toBe(20_000);
    expect(r.acceptance.no_tensor_growth).toBe(false);
    expect(r.acceptance.gpu_bytes_flat).toBe(false);
  });

  it('leaves the growth figures null when the co-evolution run was skipped or ran on WASM', () => {
    const skipped = buildBenchReport({ ...worker([]), coevo: null }, main, meta);
    expect(skipped.iteration).toBeNull();
    expect(skipped.memory.tensor_growth).toBeNull();
    const wasm = buildBenchReport(worker([{ ...mem(1, 1), gpuBytesInUse: null }, { ...mem(1, 1), gpuBytesInUse: null }]), main, meta);
    expect(wasm.memory.tensor_growth).toBe(0);
    expect(wasm.memory.gpu_bytes_growth).toBeNull();
  });
});

describe('npm run bench arguments', () => {
  it('defaults to the tiny preset with the reduced co-evolution config and a timestamped file', () => {
    const p = parseBenchArgs([], new Date('2025-02-03T04:05:06Z'));
    if (p.help) throw new Error('unexpected help');
    expect(p.args.out).toBe('out/bench/tiny-2025-02-03T04-05-06.json');
    expect(p.args.options).toMatchObject({ preset: 'tiny', seed: 1, iterations: 3 });
    expect(p.args.options.coevoSet).toEqual([...REDUCED_COEVO.tiny]);
  });

  it('takes --preset, --out, --set (replacing the reduced value of the same key) and refuses mistakes', () => {
    const p = parseBenchArgs(['--preset', 'demo', '--out=x.json', '--set', 'evalSize=2']);
    if (p.help) throw new Error('unexpected help');
    expect(p.args.options.preset).toBe('demo');
    expect(p.args.out).toBe('x.json');
    expect(p.args.options.coevoSet.filter((s) => s.startsWith('evalSize='))).toEqual(['evalSize=2']);
    expect(mergeSets(['a=1', 'b=2'], ['a=3'])).toEqual(['b=2', 'a=3']);
    expect(() => parseBenchArgs(['--preset', 'full'])).toThrow(UsageError);
    expect(() => parseBenchArgs(['--frobnicate'])).toThrow(/unknown option/);
    expect(() => parseBenchArgs(['--seed', '-1'])).toThrow(/integer/);
    const k = parseBenchArgs(['--kernel-reps', '0']);
    if (k.help) throw new Error('unexpected help');
    expect(k.args.options.kernelReps).toBe(0);
    expect(() => parseBenchArgs(['--kernel-reps', 'x'])).toThrow(/integer/);
    expect(parseBenchArgs(['--help'])).toEqual({ help: true });
  });

  it('takes --threads for the WASM backend (absent: the default of the app) and --steps, and refuses 0', () => {
    const d = parseBenchArgs([]);
    const t = parseBenchArgs(['--backend', 'wasm', '--threads', '2']);
    if (d.help || t.help) throw new Error('unexpected help');
    expect(d.args.threads).toBeUndefined();
    expect(t.args.threads).toBe(2);
    expect(() => parseBenchArgs(['--threads', '0'])).toThrow(/1 or more/);
    expect(() => parseBenchArgs(['--threads', 'two'])).toThrow(/integer/);
    const s = parseBenchArgs(['--steps', '6']);
    if (s.help) throw new Error('unexpected help');
    expect([s.args.options.grounderSteps, s.args.options.plannerSteps]).toEqual([6, 6]);
    expect(() => parseBenchArgs(['--steps', '0'])).toThrow(/1 or more/);
  });
});
