/**
 * Tensors a gradient saves for the backward pass, kept without a kernel.
 *
 * tfjs's engine saves them by `clone`, which runs the Identity kernel once
 * per saved tensor (1,198 times in a tiny grounder SFT step, a quarter of
 * its kernels; npm run bench) and records a tape node for the clone. The
 * Identity kernels of WebGPU, WASM (workers/wasmKernels.ts) and CPU only
 * count one more reference to the same data, and a saved copy is read by
 * gradient functions alone, never by the forward graph, so its tape node is
 * pruned from every backward pass. Here `clone` counts the reference and
 * wraps it in a new tensor directly: the same saved values, no kernel, no
 * tape node. tensor.clone() and tf.clone() still run Identity.
 */
import * as tf from '../src/models/tf';

interface KernelBackendRefs {
  incRef(dataId: tf.DataId): void;
}

interface EngineInternals {
  clone(x: tf.Tensor): tf.Tensor;
  makeTensorFromTensorInfo(info: { dataId: tf.DataId; shape: number[]; dtype: tf.DataType }, backend: KernelBackendRefs): tf.Tensor;
  state: { tensorInfo: { get(dataId: tf.DataId): { backend: KernelBackendRefs } | undefined } };
}

function sharedClone(this: EngineInternals, x: tf.Tensor): tf.Tensor {
  const info = this.state.tensorInfo.get(x.dataId);
  if (!info) throw new Error('shareSavedTensors: a tensor to save for the gradient was already disposed');
  info.backend.incRef(x.dataId);
  return this.makeTensorFromTensorInfo({ dataId: x.dataId, shape: x.shape, dtype: x.dtype }, info.backend);
}

/** Makes the engine keep saved tensors by reference (idempotent). */
export function shareSavedTensors(): void {
  const engine = tf.engine() as unknown as EngineInternals;
  if (typeof engine.clone !== 'function' || typeof engine.makeTensorFromTensorInfo !== 'function' || !engine.state?.tensorInfo) {
    throw new Error('shareSavedTensors: this tfjs engine does not have the internals it replaces (written for tfjs-core 4.22)');
  }
  engine.clone = sharedClone;
}
