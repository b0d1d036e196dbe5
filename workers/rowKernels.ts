/**
 * Our own WebGPU kernels: softmax and layer norm over the last axis (one
 * thread per row), thin matrix products (one thread per output) and the
 * 3×3 im2col of the convolution's filter gradient.
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
 * Registered for the WebGPU backend only, as tfjs kernels (so the bench
 * counts and replays them); src/models/rowOps.ts uses them when they are
 * registered and the plain tf ops otherwise.
 */
import * as tf from '../src/models/tf';
import type { WebGPUBackend, WebGPUProgram } from '@tensorflow/tfjs-backend-webgpu';
import { IM2COL_3X3, PLAIN_PRODUCT, ROW_LAYER_NORM, ROW_LAYER_NORM_GRAD, ROW_SOFTMAX, ROW_SOFTMAX_GRAD, ROW_STANDARDIZE } from '../src/models/kernelNames';
import { LAYER_NORM_EPS } from '../src/models/rowOps';

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
 * The part of a one-thread-per-output-element program that depends only on
 * the output's shape: a flat index, spread over a second dispatch dimension
 * past WebGPU's 65,535 workgroups per dimension.
 */
function perElement(outputShape: number[]): Pick<WebGPUProgram, 'outputShape' | 'size' | 'dispatchLayout' | 'dispatch' | 'workgroupSize'> {
  const groups = Math.ceil(outputShape.reduce((a, b) => a * b, 1) / WORKGROUP);
  const x = Math.min(groups, 65535);
  return {
    outputShape,
    size: true,
    dispatchLayout: { x: outputShape.map((_, i) => i) },
    dispatch: [x, Math.ceil(groups / x), 1],
    workgroupSize: [WORKGROUP, 1, 1],
  };
}

/**
 * a × b (+ bias) with one thread per output element and no shared memory:
 * [B, M, K] (or [B, K, M] transposed) × [B, K, N] (or [B, N, K]) → [B, M, N].
 * tfjs's tiled products give each thread a 4×4 block of a 32×32 tile, 32
 * deep, with barriers between tiles. A product with N = 1 leaves most of the
 * tile idle (on SwiftShader the matrix-vector [8, 650, 38] × [8, 38, 1] took
 * 195 ms), and at K = 16 half of every tile is padding.
 */
function plainProduct(a: tf.TensorInfo, b: tf.TensorInfo, transposeA: boolean, transposeB: boolean, hasBias: boolean): WebGPUProgram {
  const [batch, m] = transposeA ? [a.shape[0], a.shape[2]] : a.shape;
  const n = transposeB ? b.shape[1] : b.shape[2];
  return {
    ...perElement([batch, m, n]),
    variableNames: hasBias ? ['a', 'b', 'bias'] : ['a', 'b'],
    shaderKey: `coevoPlainProduct_${transposeA}_${transposeB}_${hasBias}`,
    // Operands are indexed directly, base plus stride, rather than through
    // getA/getB, which rebuild the strides from the shape on every read.
    getUserCode: () => `
      fn main(index : i32) {
        if (index < uniforms.size) {
          let o = getCoordsFromIndex(index);
          let m = uniforms.outShape[1];
          let n = uniforms.outShape[2];
          let inner = uniforms.aShape[${transposeA ? 1 : 2}];
          let aBase = o.x * m * inner + ${transposeA ? 'o.y' : 'o.y * inner'};
          let aStep = ${transposeA ? 'm' : '1'};
          let bBase = o.x * inner * n + ${transposeB ? 'o.z * inner' : 'o.z'};
          let bStep = ${transposeB ? '1' : 'n'};
          var acc = ${hasBias ? 'bias[o.z]' : '0.0'};
          for (var i = 0; i < inner; i++) {
            acc += a[aBase + i * aStep] * b[bBase + i * bStep];
          }
          setOutputAtIndex(index, acc);
        }
      }`,
  };
}

/**
 * im2col for a 3×3 window, stride 1, zero padding 1: x [B, H, W, C] →
 * [B, H, W, 9C], one thread per output element (the convolution's filter
 * gradient multiplies it by dy, see conv3x3AsFilter in src/models/layers.ts).
 */
function im2col3x3(x: tf.TensorInfo): WebGPUProgram {
  const [b, h, w, c] = x.shape;
  return {
    ...perElement([b, h, w, 9 * c]),
    variableNames: ['x'],
    shaderKey: 'coevoIm2Col3x3',
    getUserCode: () => `
      fn main(index : i32) {
        if (index < uniforms.size) {
          let o = getCoordsFromIndex(index);
          let c = uniforms.xShape[3];
          let window = o.w / c;
          let yy = o.y + window / 3 - 1;
          let xx = o.z + window % 3 - 1;
          var v = 0.0;
          if (yy >= 0 && yy < uniforms.xShape[1] && xx >= 0 && xx < uniforms.xShape[2]) {
            v = getX(o.x, yy, xx, o.w % c);
          }
          setOutputAtIndex(index, v);
        }
      }`,
  };
}

/** A kernel's program for the inputs it was given (in order, optional ones left out) and its attributes. */
type ProgramFor = (given: tf.TensorInfo[], attrs: tf.NamedAttrMap) => WebGPUProgram;

/** Every kernel of ours: the row kernels by their bodies, then the two with programs of their own. */
const PROGRAMS: Record<string, { inputs: string[]; program: ProgramFor }> = {
  ...Object.fromEntries(
    Object.entries(KERNELS).map(([name, { inputs, body }]) => {
      const program: ProgramFor = (given) => rowProgram(given[0].shape[0], given[0].shape[1], `coevo${name}`, inputs, body);
      return [name, { inputs, program }];
    }),
  ),
  [PLAIN_PRODUCT]: {
    inputs: ['a', 'b', 'bias'],
    program: (given, attrs) => plainProduct(given[0], given[1], attrs.transposeA === true, attrs.transposeB === true, given.length === 3),
  },
  [IM2COL_3X3]: { inputs: ['x'], program: (given) => im2col3x3(given[0]) },
};

/** Registers our kernels for the WebGPU backend (once). */
export function registerRowKernels(): void {
  for (const [name, { inputs: names, program }] of Object.entries(PROGRAMS)) {
    if (tf.getKernel(name, 'webgpu')) continue;
    tf.registerKernel({
      kernelName: name,
      backendName: 'webgpu',
      kernelFunc: ({ inputs, backend, attrs }) => {
        const given = names.map((n) => inputs[n]).filter((t): t is tf.TensorInfo => t !== undefined);
        return (backend as WebGPUBackend).runWebGPUProgram(program(given, attrs ?? {}), given, 'float32');
      },
    });
  }
}
