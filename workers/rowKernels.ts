/**
 * Softmax over the last axis, one thread per row, as WebGPU kernels.
 *
 * tfjs-webgpu's Softmax gives each row a workgroup of 64 threads and ten
 * barriers, sized for long rows on a real GPU. Our rows are short (24 text
 * tokens, 169 regions, 59 roles) and numerous (up to 10,400 per call), and
 * on SwiftShader, where a workgroup's threads run one after another on a
 * CPU core, a [8, 2, 650, 24] softmax took 1.05 s and the Sum in its
 * gradient 0.75 s (npm run bench, time by kernel). One thread walking its
 * own row does the same arithmetic without the idle threads or barriers.
 *
 * Registered for the WebGPU backend only; src/models/rowOps.ts uses them
 * when they are registered and tf.softmax otherwise.
 */
import * as tf from '../src/models/tf';
import type { WebGPUBackend, WebGPUProgram } from '@tensorflow/tfjs-backend-webgpu';
import { ROW_SOFTMAX, ROW_SOFTMAX_GRAD } from '../src/models/rowOps';

const WORKGROUP = 64;

/** The part every row program shares: one invocation per row of a [rows, cols] output. */
function rowProgram(rows: number, cols: number, key: string, variableNames: string[], body: string): WebGPUProgram {
  return {
    variableNames,
    outputShape: [rows, cols],
    shaderKey: key,
    dispatchLayout: { x: [0] },
    dispatch: [Math.ceil(rows / WORKGROUP), 1, 1],
    workgroupSize: [WORKGROUP, 1, 1],
    getUserCode: () => `
      fn main(row : i32) {
        let cols = uniforms.outShape[1];
        if (row < uniforms.outShape[0]) {
          ${body}
        }
      }`,
  };
}

/** y = exp(x − max) / Σ exp(x − max), per row. */
const softmaxBody = `
          var top = -3.402823e+38f;
          for (var c = 0; c < cols; c++) { top = max(top, getX(row, c)); }
          var total = 0.0;
          for (var c = 0; c < cols; c++) { total += exp(getX(row, c) - top); }
          for (var c = 0; c < cols; c++) { setOutputAtCoords(row, c, exp(getX(row, c) - top) / total); }`;

/** dx = y ⊙ (dy − Σ dy ⊙ y), per row. */
const softmaxGradBody = `
          var dot = 0.0;
          for (var c = 0; c < cols; c++) { dot += getDy(row, c) * getY(row, c); }
          for (var c = 0; c < cols; c++) { setOutputAtCoords(row, c, getY(row, c) * (getDy(row, c) - dot)); }`;

/** Registers both kernels for the WebGPU backend (once). */
export function registerRowKernels(): void {
  if (tf.getKernel(ROW_SOFTMAX, 'webgpu')) return;
  tf.registerKernel({
    kernelName: ROW_SOFTMAX,
    backendName: 'webgpu',
    kernelFunc: ({ inputs, backend }) => {
      const x = inputs.x as tf.TensorInfo;
      const [rows, cols] = x.shape;
      return (backend as WebGPUBackend).runWebGPUProgram(rowProgram(rows, cols, 'coevoRowSoftmax', ['x'], softmaxBody), [x], 'float32');
    },
  });
  tf.registerKernel({
    kernelName: ROW_SOFTMAX_GRAD,
    backendName: 'webgpu',
    kernelFunc: ({ inputs, backend }) => {
      const [y, dy] = [inputs.y as tf.TensorInfo, inputs.dy as tf.TensorInfo];
      const [rows, cols] = y.shape;
      return (backend as WebGPUBackend).runWebGPUProgram(rowProgram(rows, cols, 'coevoRowSoftmaxGrad', ['y', 'dy'], softmaxGradBody), [y, dy], 'float32');
    },
  });
}
