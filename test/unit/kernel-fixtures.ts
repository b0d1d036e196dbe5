/**
 * What the tests of our own kernels share: seeded tensors, a float32
 * tensor's bits (the kernels must match the tensor path bit for bit), the
 * kernels a call launches, and a call with some of our kernels unregistered.
 */
import * as tf from '../../src/models/tf';
import { kernelEngine } from '../../src/bench/kernelTimes';
import { Random } from '../../src/learn/random';
import '@tensorflow/tfjs-backend-wasm';
import { registerWasmKernels } from '../../workers/wasmKernels';

/** The single-threaded WASM backend with the worker's own kernels, as the kernel tests run. */
export async function wasmWithOwnKernels(): Promise<void> {
  tf.env().set('WASM_HAS_MULTITHREAD_SUPPORT', false);
  await tf.setBackend('wasm');
  await tf.ready();
  registerWasmKernels();
}

/** Values in [−1, 1) (or [0.5, 1.5) when `positive`), drawn from `seed`. */
export function seeded(shape: number[], seed: number, positive = false): tf.Tensor {
  const r = new Random(seed);
  const n = shape.reduce((a, b) => a * b, 1);
  return tf.tensor(Array.from({ length: n }, () => (positive ? 0.5 + r.next() : r.next() * 2 - 1)), shape);
}

export const bitsOf = (t: tf.Tensor): number[] => Array.from(new Uint32Array(Float32Array.from(t.dataSync()).buffer));

/** f's result and the names of the kernels it launched, in order. */
export async function kernelsDuring<T>(f: () => T | Promise<T>): Promise<{ result: T; names: string[] }> {
  const engine = kernelEngine();
  const original = engine.runKernel;
  const names: string[] = [];
  engine.runKernel = function (this: unknown, ...a: Parameters<typeof original>) {
    names.push(a[0]);
    return original.apply(this, a);
  } as typeof original;
  try {
    return { result: await f(), names };
  } finally {
    engine.runKernel = original;
  }
}

/** f with the named WASM kernels unregistered (the tensor path), registered again after. */
export async function withoutKernels<T>(names: readonly string[], f: () => T | Promise<T>): Promise<T> {
  const own = names.map((n) => tf.getKernel(n, 'wasm') as tf.KernelConfig);
  for (const k of own) tf.unregisterKernel(k.kernelName, 'wasm');
  try {
    return await f();
  } finally {
    for (const k of own) tf.registerKernel(k);
  }
}
