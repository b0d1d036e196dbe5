/**
 * Timing and profiling of training steps and of the reference matmul, on
 * whichever tfjs backend is active. A step is an async function that ends
 * with its own read-back (the trainers await their loss), so its wall time
 * includes the GPU's work; the reference matmul queues its repetitions and
 * waits once, at the end, on one element of the last result.
 */
import * as tf from '../models/tf';
import { countFlops, shapeFlops, type FlopCount } from './flops';
import { callOf, kernelEngine, type KernelCall } from './kernelTimes';
import type { KernelBreakdown, MatmulFigures, MatmulShape, MemorySnapshot, StepFigures } from './types';

export function median(xs: readonly number[]): number {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

export function memorySnapshot(): MemorySnapshot {
  const m = tf.memory() as tf.MemoryInfo & { numBytesInGPU?: number; numBytesAllocatedInGPU?: number };
  return {
    tensors: m.numTensors,
    bytes: m.numBytes,
    gpuBytesInUse: m.numBytesInGPU ?? null,
    gpuBytesAllocated: m.numBytesAllocatedInGPU ?? null,
  };
}

export interface StepProfile extends FlopCount {
  /** Most tensor bytes alive during the step beyond those alive before it. */
  peakStepBytes: number;
  /** Every kernel the step launched, in order, with what a replay needs (kernelTimes.ts). */
  calls: KernelCall[];
  /** Tensor reads back to the host (the backend's read and readSync). */
  readBacks: number;
}

/**
 * Runs `step` once while recording the name and shapes of every kernel it
 * launches, by wrapping the engine's runKernel (which every op, forward or
 * gradient, goes through). tf.profile would do the same but times each
 * kernel, which on WebGPU costs far more than the step itself.
 */
export async function profileStep(step: () => Promise<unknown>): Promise<StepProfile> {
  const engine = kernelEngine();
  const original = engine.runKernel;
  const kernels: KernelCall[] = [];
  const before = tf.memory().numBytes;
  let peak = before;
  const backend = tf.backend() as unknown as Record<'read' | 'readSync', (...a: unknown[]) => unknown>;
  const reads = { read: backend.read, readSync: backend.readSync };
  let readBacks = 0;
  // WASM's read calls its readSync (one read-back), and some of its kernels (slice, gather) read their
  // inputs with readSync on the host: those are not read-backs, so only reads outside a kernel count.
  let inside = false;
  let inKernel = 0;
  for (const key of ['read', 'readSync'] as const) {
    backend[key] = function (this: unknown, ...a: unknown[]) {
      if (inside || inKernel > 0) return reads[key].apply(this, a);
      readBacks++;
      inside = true;
      try {
        return reads[key].apply(this, a);
      } finally {
        inside = false;
      }
    };
  }
  engine.runKernel = function (this: unknown, name, inputs, attrs) {
    inKernel++;
    let out;
    try {
      out = original.call(this, name, inputs, attrs);
    } finally {
      inKernel--;
    }
    const outs = Array.isArray(out) ? out : [out];
    kernels.push(callOf(name, inputs, attrs, outs));
    peak = Math.max(peak, tf.memory().numBytes);
    return out;
  };
  try {
    await step();
  } finally {
    engine.runKernel = original;
    backend.read = reads.read;
    backend.readSync = reads.readSync;
  }
  return { ...countFlops(kernels), peakStepBytes: Math.max(0, peak - before), calls: kernels, readBacks };
}

/** Compiled shader programs the WebGPU backend holds (null on other backends): a count that grows during a timed step means shapes are not fixed. */
export function shaderCount(): number | null {
  if (tf.getBackend() !== 'webgpu') return null;
  const cache = (tf.backend() as unknown as { pipelineCache?: Record<string, unknown> }).pipelineCache;
  return cache ? Object.keys(cache).length : null;
}

export interface StepTiming {
  warmupMs: number;
  stepMs: number[];
  /** Shader programs compiled by the warm-up, and by all timed steps together (null off WebGPU). */
  warmupShaders: number | null;
  timedShaders: number | null;
}

/**
 * One warm-up call, its kernels recorded (it compiles shaders, so it is
 * never timed, and recording it costs no extra step), then `steps` timed
 * calls.
 */
export async function timeSteps(
  step: () => Promise<unknown>,
  steps: number,
  onStep?: (i: number, lastMs: number) => void,
): Promise<{ timing: StepTiming; profile: StepProfile }> {
  const s0 = shaderCount();
  const t0 = performance.now();
  const profile = await profileStep(step);
  const warmupMs = performance.now() - t0;
  const s1 = shaderCount();
  const stepMs: number[] = [];
  for (let i = 0; i < steps; i++) {
    onStep?.(i, i === 0 ? warmupMs : stepMs[i - 1]);
    const ts = performance.now();
    await step();
    stepMs.push(performance.now() - ts);
  }
  const s2 = shaderCount();
  const diff = (a: number | null, b: number | null) => (a === null || b === null ? null : b - a);
  return { timing: { warmupMs, stepMs, warmupShaders: diff(s0, s1), timedShaders: diff(s1, s2) }, profile };
}

export function stepFigures(timing: StepTiming, profile: StepProfile, kernelTimes: KernelBreakdown | null = null): StepFigures {
  const medianMs = median(timing.stepMs);
  if (!profile.dominant) throw new Error('The profiled step ran no matrix product, so it has no FLOP count to compare.');
  return {
    stepMs: timing.stepMs,
    warmupMs: timing.warmupMs,
    warmupShaders: timing.warmupShaders,
    timedShaders: timing.timedShaders,
    medianMs,
    flops: profile.flops,
    matmuls: profile.matmuls,
    kernels: profile.kernels,
    readBacks: profile.readBacks,
    dominant: profile.dominant,
    gflops: profile.flops / medianMs / 1e6,
    peakStepBytes: profile.peakStepBytes,
    kernelTimes,
  };
}

/**
 * GFLOP/s of tf.matMul at one shape: `reps` products queued back to back
 * after a warm-up, timed to the read-back of one element of the last one.
 * Inputs are made once, so only the products are timed.
 */
export async function matmulFigures(shape: MatmulShape, reps: number): Promise<MatmulFigures> {
  const dims = (r: number, c: number) => (shape.batch > 1 ? [shape.batch, r, c] : [r, c]);
  const a = tf.tidy(() => tf.add(tf.zeros(dims(shape.m, shape.k)), 0.5));
  const b = tf.tidy(() => tf.add(tf.zeros(dims(shape.k, shape.n)), 0.25));
  const run = async (count: number): Promise<number> => {
    const t0 = performance.now();
    let last: tf.Tensor | null = null;
    for (let i = 0; i < count; i++) {
      last?.dispose();
      last = tf.matMul(a, b);
    }
    const probe = tf.tidy(() => tf.slice(tf.reshape(last as tf.Tensor, [-1]), [0], [1]));
    await probe.data();
    probe.dispose();
    last?.dispose();
    return performance.now() - t0;
  };
  try {
    await run(1);
    const samples: number[] = [];
    // Three rounds: the median shrugs off a round that another process slowed down.
    for (let round = 0; round < 3; round++) samples.push((await run(reps)) / reps);
    const medianMs = median(samples);
    const flops = shapeFlops(shape);
    return { shape, flops, medianMs, gflops: flops / medianMs / 1e6 };
  } finally {
    a.dispose();
    b.dispose();
  }
}

/**
 * Cost of one small kernel: `count` chained element-wise adds on 256 floats,
 * timed to one read-back. Kernels per step times this is the floor of a
 * step's time that no FLOP count explains.
 */
export async function dispatchMs(count: number): Promise<number> {
  const x = tf.zeros([256]);
  const run = async (): Promise<number> => {
    const t0 = performance.now();
    let y: tf.Tensor = tf.clone(x);
    for (let i = 0; i < count; i++) {
      const next = tf.add(y, 1);
      y.dispose();
      y = next;
    }
    await y.data();
    y.dispose();
    return (performance.now() - t0) / count;
  };
  try {
    await run();
    return median([await run(), await run(), await run()]);
  } finally {
    x.dispose();
  }
}
