/**
 * Softmax and layer norm over the last axis, one thread per row, as WebGPU
 * kernels.
 *
 * tfjs-webgpu's Softmax gives each row a workgroup of 64 threads and ten
 * barriers, sized for long rows on a real GPU. Our rows are short (24 text
 * tokens, 169 regions, 59 roles) and numerous (up to 10,400 per call), and
 * on SwiftShader, where a workgroup's threads run one after another on a
 * CPU core, a [8, 2, 650, 24] softmax took 1.05 s and the Sum in its
 * gradient 0.75 s (npm run bench, time by kernel). One thread walking its
 * own row does the same arithmetic without the idle threads or barriers.
 * Layer norm is the same story: its mean and variance were reduce shaders
 * (0.25 s per call), and as products they still took 0.1 s each, six per
 * layer norm and step.
 *
 * Registered for the WebGPU backend only; src/models/rowOps.ts uses them
 * when they are registered and the plain tf ops otherwise.
 */
import * as tf from '../src/models/tf';
import type { WebGPUBackend, WebGPUProgram } from '@tensorflow/tfjs-backend-webgpu';
import { LAYER_NORM_EPS, PLAIN_PRODUCT, ROW_LAYER_NORM, ROW_LAYER_NORM_GRAD, ROW_SOFTMAX, ROW_SOFTMAX_GRAD, ROW_STANDARDIZE } from '../src/models/rowOps';

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

/** mean and inv = 1 / √(var + eps) of the row of x. */
const rowStats = `
          var mean = 0.0;
          for (var c = 0; c < cols; c++) { mean += getX(row, c); }
          mean = mean / f32(cols);
          var spread = 0.0;
          for (var c = 0; c < cols; c++) { let d = getX(row, c) - mean; spread += d * d; }
          let inv = inverseSqrt(spread / f32(cols) + ${LAYER_NORM_EPS});`;

/** x̂ = (x − mean) · inv. */
const standardizeBody = `${rowStats}
          for (var c = 0; c < cols; c++) { setOutputAtCoords(row, c, (getX(row, c) - mean) * inv); }`;

/** y = x̂ · g + b. */
const layerNormBody = `${rowStats}
          for (var c = 0; c < cols; c++) { setOutputAtCoords(row, c, (getX(row, c) - mean) * inv * getG(c) + getB(c)); }`;

/** dx = (ĝ − mean(ĝ) − x̂ · mean(ĝ x̂)) · inv, ĝ = dy · g. */
const layerNormGradBody = `${rowStats}
          var meanG = 0.0;
          var meanGX = 0.0;
          for (var c = 0; c < cols; c++) {
            let gh = getDy(row, c) * getG(c);
            meanG += gh;
            meanGX += gh * (getX(row, c) - mean) * inv;
          }
          meanG = meanG / f32(cols);
          meanGX = meanGX / f32(cols);
          for (var c = 0; c < cols; c++) {
            let gh = getDy(row, c) * getG(c);
            setOutputAtCoords(row, c, (gh - meanG - (getX(row, c) - mean) * inv * meanGX) * inv);
          }`;

/** name → the inputs it takes (in order) and its shader body; the output has the first input's shape. */
const KERNELS: Record<string, { inputs: string[]; body: string }> = {
  [ROW_SOFTMAX]: { inputs: ['x'], body: softmaxBody },
  [ROW_SOFTMAX_GRAD]: { inputs: ['y', 'dy'], body: softmaxGradBody },
  [ROW_STANDARDIZE]: { inputs: ['x'], body: standardizeBody },
  [ROW_LAYER_NORM]: { inputs: ['x', 'g', 'b'], body: layerNormBody },
  [ROW_LAYER_NORM_GRAD]: { inputs: ['x', 'g', 'dy'], body: layerNormGradBody },
};

/**
 * a × b for thin shapes, one thread per output element and no shared
 * memory: [B, M, K] (or [B, K, M] transposed) × [B, K, N] (or [B, N, K])
 * → [B, M, N]. tfjs's tiled products give each thread a 4×4 block, so a
 * product with N = 1 or K = 1 leaves most of the tile idle: on SwiftShader
 * the matrix-vector [8, 650, 38] × [8, 38, 1] took 195 ms.
 */
function plainProduct(a: tf.TensorInfo, b: tf.TensorInfo, transposeA: boolean, transposeB: boolean): WebGPUProgram {
  const [batch, m] = transposeA ? [a.shape[0], a.shape[2]] : a.shape;
  const n = transposeB ? b.shape[1] : b.shape[2];
  const groups = Math.ceil((batch * m * n) / WORKGROUP);
  const x = Math.min(groups, 65535);
  return {
    variableNames: ['a', 'b'],
    outputShape: [batch, m, n],
    shaderKey: `coevoPlainProduct_${transposeA}_${transposeB}`,
    size: true,
    dispatchLayout: { x: [0, 1, 2] },
    dispatch: [x, Math.ceil(groups / x), 1],
    workgroupSize: [WORKGROUP, 1, 1],
    getUserCode: () => `
      fn main(index : i32) {
        if (index < uniforms.size) {
          let o = getCoordsFromIndex(index);
          let inner = uniforms.aShape[${transposeA ? 1 : 2}];
          var acc = 0.0;
          for (var i = 0; i < inner; i++) {
            acc += getA(o.x, ${transposeA ? 'i, o.y' : 'o.y, i'}) * getB(o.x, ${transposeB ? 'o.z, i' : 'i, o.z'});
          }
          setOutputAtIndex(index, acc);
        }
      }`,
  };
}

/** Registers the row kernels for the WebGPU backend (once). */
export function registerRowKernels(): void {
  if (!tf.getKernel(PLAIN_PRODUCT, 'webgpu')) {
    tf.registerKernel({
      kernelName: PLAIN_PRODUCT,
      backendName: 'webgpu',
      kernelFunc: ({ inputs, backend, attrs }) => {
        const [a, b] = [inputs.a as tf.TensorInfo, inputs.b as tf.TensorInfo];
        const { transposeA, transposeB } = attrs as { transposeA: boolean; transposeB: boolean };
        return (backend as WebGPUBackend).runWebGPUProgram(plainProduct(a, b, transposeA, transposeB), [a, b], 'float32');
      },
    });
  }
  for (const [name, { inputs: names, body }] of Object.entries(KERNELS)) {
    if (tf.getKernel(name, 'webgpu')) continue;
    tf.registerKernel({
      kernelName: name,
      backendName: 'webgpu',
      kernelFunc: ({ inputs, backend }) => {
        const infos = names.map((n) => inputs[n] as tf.TensorInfo);
        const [rows, cols] = infos[0].shape;
        return (backend as WebGPUBackend).runWebGPUProgram(rowProgram(rows, cols, `coevo${name}`, names, body), infos, 'float32');
      },
    });
  }
}
