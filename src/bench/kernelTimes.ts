/**
 * Where a step's time goes, kernel by kernel. A step's kernels are queued
 * asynchronously on WebGPU, so timing them inside the step would need a
 * read-back after each (tf.profile does that, and costs far more than the
 * step). Instead the step's calls are recorded (name, input shapes and
 * dtypes, attributes) and afterwards every distinct call is replayed on
 * its own inputs, `reps` times, timed to one read-back; its time × how
 * often the step ran it estimates its share. The sum of the estimates is
 * reported next to the measured step, so a reader sees how much it explains.
 */
import * as tf from '../models/tf';
import type { KernelShapes } from './flops';
import type { KernelTime } from './types';

export interface KernelCall extends KernelShapes {
  /** The kernel's input names, in the order of inputShapes (a replay passes them back by name). */
  inputNames: string[];
  inputDtypes: (tf.DataType | null)[];
  attrs: Record<string, unknown>;
}

type RunKernel = (name: string, inputs: Record<string, tf.Tensor>, attrs?: Record<string, unknown>) => tf.Tensor | tf.Tensor[];

/** The engine's kernel entry point, which every op (forward or gradient) goes through. */
export function kernelEngine(): { runKernel: RunKernel } {
  return tf.engine() as unknown as { runKernel: RunKernel };
}

export function callOf(name: string, inputs: Record<string, tf.Tensor | null>, attrs: Record<string, unknown> | undefined, outs: readonly tf.Tensor[]): KernelCall {
  const ins = Object.values(inputs);
  return {
    name,
    inputNames: Object.keys(inputs),
    inputShapes: ins.map((t) => (t ? t.shape : null)),
    inputDtypes: ins.map((t) => (t ? t.dtype : null)),
    outputShapes: outs.map((t) => t.shape),
    attrs: attrs ?? {},
  };
}

/** Same kernel, same operands, same attributes: one replay stands for all of them. */
function signature(c: KernelCall): string {
  const ins = c.inputShapes.map((s, i) => `${c.inputNames[i]}:${c.inputDtypes[i]}[${s ?? ''}]`).join(',');
  return `${c.name}(${ins})${JSON.stringify(c.attrs)}`;
}

interface Group {
  call: KernelCall;
  count: number;
}

/** Operands for a replay: floats at 0.5 (no NaN paths), integers and booleans at 0 (valid indices). */
function operand(shape: readonly number[], dtype: tf.DataType): tf.Tensor {
  return dtype === 'float32' ? tf.fill([...shape], 0.5) : tf.zeros([...shape], dtype);
}

async function settle(out: tf.Tensor | tf.Tensor[]): Promise<void> {
  const first = Array.isArray(out) ? out[0] : out;
  if (first && first.size > 0) {
    const probe = tf.tidy(() => tf.slice(tf.reshape(first, [-1]), [0], [1]));
    await probe.data();
    probe.dispose();
  }
}

function dispose(out: tf.Tensor | tf.Tensor[]): void {
  for (const t of Array.isArray(out) ? out : [out]) t.dispose();
}

/**
 * Replays each distinct call `reps` times (after one untimed run that
 * compiles its shader) and returns every kind's estimated share of the step,
 * most expensive first. Calls that cannot be replayed out of context (an
 * input the record could not rebuild) are counted in `skipped`.
 */
export async function timeKernels(
  calls: readonly KernelCall[],
  reps: number,
  onProgress?: (done: number, total: number) => void,
): Promise<{ kernels: KernelTime[]; estimateMs: number; skipped: number }> {
  const groups = new Map<string, Group>();
  for (const c of calls) {
    const key = signature(c);
    const g = groups.get(key);
    if (g) g.count++;
    else groups.set(key, { call: c, count: 1 });
  }
  const engine = kernelEngine();
  const out: KernelTime[] = [];
  let skipped = 0;
  let done = 0;
  for (const g of groups.values()) {
    onProgress?.(done++, groups.size);
    const inputs: Record<string, tf.Tensor> = {};
    try {
      g.call.inputShapes.forEach((s, i) => {
        const dtype = g.call.inputDtypes[i];
        if (s && dtype) inputs[g.call.inputNames[i]] = operand(s, dtype);
      });
      const run = () => engine.runKernel(g.call.name, inputs, g.call.attrs);
      const warm = run();
      await settle(warm);
      dispose(warm);
      const t0 = performance.now();
      let last: tf.Tensor | tf.Tensor[] | null = null;
      for (let r = 0; r < reps; r++) {
        if (last) dispose(last);
        last = run();
      }
      if (last) {
        await settle(last);
        dispose(last);
      }
      const msEach = (performance.now() - t0) / reps;
      out.push({ kernel: g.call.name, inputs: g.call.inputShapes.map((s) => (s ? [...s] : null)), count: g.count, msEach, msTotal: msEach * g.count });
    } catch {
      skipped += g.count;
    } finally {
      tf.dispose(Object.values(inputs));
    }
  }
  out.sort((a, b) => b.msTotal - a.msTotal);
  return { kernels: out, estimateMs: out.reduce((s, k) => s + k.msTotal, 0), skipped };
}

/** Estimated time per kernel name (all shapes together), most expensive first. */
export function byKernelName(kernels: readonly KernelTime[]): { kernel: string; count: number; msTotal: number }[] {
  const m = new Map<string, { kernel: string; count: number; msTotal: number }>();
  for (const k of kernels) {
    const e = m.get(k.kernel) ?? { kernel: k.kernel, count: 0, msTotal: 0 };
    e.count += k.count;
    e.msTotal += k.msTotal;
    m.set(k.kernel, e);
  }
  return [...m.values()].sort((a, b) => b.msTotal - a.msTotal);
}
