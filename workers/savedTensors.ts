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
import type { Tensor } from '../src/models/tf';
import { engineInternals, sharedReference, type EngineInternals } from './tensorRefs';

function sharedClone(this: EngineInternals, x: Tensor): Tensor {
  return sharedReference(this, x);
}

/** Makes the engine keep saved tensors by reference (idempotent). */
export function shareSavedTensors(): void {
  engineInternals('shareSavedTensors').clone = sharedClone;
}
