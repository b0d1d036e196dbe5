/**
 * A new tensor over the same data as another, made without a kernel: the
 * backend counts one more reference, as its Identity and Reshape kernels
 * do, and the engine tracks the new tensor in the current scope. Written
 * for tfjs-core 4.22's engine internals (savedTensors.ts, leanGradients.ts).
 */
import * as tf from '../src/models/tf';

interface KernelBackendRefs {
  incRef(dataId: tf.DataId): void;
}

export interface EngineInternals {
  clone(x: tf.Tensor): tf.Tensor;
  makeTensorFromTensorInfo(info: { dataId: tf.DataId; shape: number[]; dtype: tf.DataType }, backend: KernelBackendRefs): tf.Tensor;
  state: { tensorInfo: { get(dataId: tf.DataId): { backend: KernelBackendRefs } | undefined } };
}

/** The engine, checked to have the internals sharedReference uses; `who` names the caller in the error. */
export function engineInternals(who: string): EngineInternals {
  const engine = tf.engine() as unknown as EngineInternals;
  if (typeof engine.clone !== 'function' || typeof engine.makeTensorFromTensorInfo !== 'function' || !engine.state?.tensorInfo) {
    throw new Error(`${who}: this tfjs engine does not have the internals it relies on (written for tfjs-core 4.22)`);
  }
  return engine;
}

/** `x`'s data as a new tensor of `shape` (x's own by default; same size), with no kernel and no tape node. */
export function sharedReference(engine: EngineInternals, x: tf.Tensor, shape: number[] = x.shape): tf.Tensor {
  const info = engine.state.tensorInfo.get(x.dataId);
  if (!info) throw new Error('sharedReference: the tensor was already disposed');
  info.backend.incRef(x.dataId);
  return engine.makeTensorFromTensorInfo({ dataId: x.dataId, shape, dtype: x.dtype }, info.backend);
}
