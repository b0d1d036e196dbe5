/**
 * Kernels the app replaces in the tfjs WASM backend.
 *
 * Identity: tfjs clones every tensor a gradient saves for the backward pass
 * (engine.saveTensorsForBackwardMode), and the WASM backend's Identity copies
 * the data, 1,444 copies in a tiny grounder SFT step (npm run bench). Tensors
 * are never written in place once made, so the clone can share the data and
 * count one more reference, as the CPU backend's Identity and WASM's own
 * Reshape do. The values are the same; only the copy goes.
 */
import * as tf from '../src/models/tf';

interface RefCounting {
  incRef(dataId: tf.DataId): void;
}

const sharedIdentity: tf.KernelFunc = ({ inputs, backend }) => {
  const x = inputs.x as tf.TensorInfo;
  (backend as unknown as RefCounting).incRef(x.dataId);
  return { dataId: x.dataId, shape: x.shape, dtype: x.dtype };
};

export function registerWasmKernels(): void {
  if (tf.getKernel('Identity', 'wasm')?.kernelFunc === sharedIdentity) return;
  tf.unregisterKernel('Identity', 'wasm');
  tf.registerKernel({ kernelName: 'Identity', backendName: 'wasm', kernelFunc: sharedIdentity });
}
