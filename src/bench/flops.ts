/**
 * FLOPs of a training step, counted from the shapes of the matrix products
 * it actually runs (forward, backward and whatever else the step does, such
 * as decoding), so the count follows the models as they change instead of a
 * formula that must be kept in step with them. Only products count (2·m·k·n
 * each, the usual convention): element-wise ops, softmax and layer norms are
 * memory-bound and would flatter a GFLOP/s figure.
 */
import { AFFINE, AFFINE_GRAD, DECODE_ATTENTION, PLAIN_PRODUCT, TRANSPOSED_PRODUCT } from '../models/kernelNames';
import type { MatmulShape } from './types';

/** The part of a tfjs profile's kernel record that the count reads. */
export interface KernelShapes {
  name: string;
  inputShapes: (readonly number[] | null)[];
  outputShapes: readonly (readonly number[])[];
}

/** Kernels that are matrix products (tfjs-core's BatchMatMul, the fused variant, our plain product on WebGPU and transposed one on WASM). */
export const MATMUL_KERNELS: readonly string[] = ['BatchMatMul', '_FusedMatMul', PLAIN_PRODUCT, TRANSPOSED_PRODUCT];

/**
 * Convolutions and their two gradients (the grounder's 3×3 conv runs as
 * tf.conv2d on WebGPU). Each is a product in disguise: positions × window ×
 * channels, counted as the product it equals.
 */
export const CONV_KERNELS: readonly string[] = ['Conv2D', 'FusedConv2D', 'Conv2DBackpropInput', 'Conv2DBackpropFilter'];

const prod = (xs: readonly number[]): number => xs.reduce((a, b) => a * b, 1);

/**
 * The product a convolution kernel equals. Inputs as tfjs records them:
 * Conv2D (x, filter), Conv2DBackpropInput (dy, filter), Conv2DBackpropFilter
 * (x, dy); filters are [fh, fw, in, out] and every grid is [B, H, W, C].
 */
function convShape(k: KernelShapes): MatmulShape {
  const [a, b] = k.inputShapes;
  const out = k.outputShapes[0];
  if (!a || !b || !out || a.length !== 4 || b.length !== 4 || out.length !== 4) throw new Error(`${k.name} kernel with shapes [${a}] [${b}] → [${out}] is not a 2-D convolution.`);
  const grid = (s: readonly number[]) => s[0] * s[1] * s[2];
  switch (k.name) {
    case 'Conv2DBackpropInput': // dy [B,H,W,out] × filterᵀ → dx [B,H,W,in]
      return { batch: 1, m: grid(a), k: b[0] * b[1] * b[3], n: b[2] };
    case 'Conv2DBackpropFilter': // xᵀ (windows) × dy → filter [fh,fw,in,out]
      return { batch: 1, m: out[0] * out[1] * out[2], k: grid(b), n: out[3] };
    default: // x (windows) × filter → y [B,H,W,out]
      return { batch: 1, m: grid(out), k: b[0] * b[1] * b[2], n: b[3] };
  }
}

/**
 * A decoding step's attention (WASM's one-kernel form, models/decodeAttentionLoops.ts):
 * per row and head, scores q·kᵀ over all P + g + 1 keys and their weighted
 * sum of as many values, two products of 2·(P + g + 1)·dh FLOPs, counted as
 * one of twice the batch. Inputs q, kNew, vNew, promptK [B·h, P, dh], …;
 * outputs att, then the grown keys [B·h, g + 1, dh].
 */
function decodeAttentionShape(k: KernelShapes): MatmulShape {
  const promptK = k.inputShapes[3];
  const grown = k.outputShapes[1];
  if (!promptK || !grown || promptK.length !== 3 || grown.length !== 3) throw new Error(`${k.name} kernel with prompt keys [${promptK}] and grown keys [${grown}] is not a decoding step's attention.`);
  return { batch: 2 * promptK[0], m: 1, k: promptK[2], n: promptK[1] + grown[1] };
}

/**
 * A dense layer's one-kernel forms (WASM, workers/wasmAffine.ts): AFFINE
 * (x [..., K], w [K, N], b) is the product x·w; AFFINE_GRAD (dy, x, w) is
 * dw = xᵀ·dy and, when it also outputs dx (three outputs), dx = dy·wᵀ, a
 * product of as many FLOPs, counted as one of twice the batch.
 */
function affineShape(k: KernelShapes): MatmulShape {
  const [first, second, w] = k.inputShapes;
  const x = k.name === AFFINE ? first : second;
  const weights = k.name === AFFINE ? second : w;
  if (!x || !weights || weights.length !== 2) throw new Error(`${k.name} kernel with x [${x}] and w [${weights}] is not a dense layer.`);
  const [kk, n] = weights;
  const m = prod(x) / kk;
  if (k.name === AFFINE) return { batch: 1, m, k: kk, n };
  return { batch: k.outputShapes.length === 3 ? 2 : 1, m: kk, k: m, n };
}

/**
 * The product's shape from its operands and output (a convolution: the
 * product it equals, see convShape): the output is
 * [...batch, m, n]; k is what is left of the first operand's size once its
 * own batch and m are divided out, which holds whether or not it was
 * transposed. Null for a kernel that is not a product.
 */
export function matmulShape(k: KernelShapes): MatmulShape | null {
  if (CONV_KERNELS.includes(k.name)) return convShape(k);
  if (k.name === DECODE_ATTENTION) return decodeAttentionShape(k);
  if (k.name === AFFINE || k.name === AFFINE_GRAD) return affineShape(k);
  if (!MATMUL_KERNELS.includes(k.name)) return null;
  const a = k.inputShapes[0];
  const out = k.outputShapes[0];
  if (!a || !out || a.length < 2 || out.length < 2) throw new Error(`${k.name} kernel with shapes a=[${a}] out=[${out}] is not a matrix product of rank ≥ 2.`);
  const m = out[out.length - 2];
  const n = out[out.length - 1];
  const batch = prod(out.slice(0, -2));
  const kk = prod(a) / (prod(a.slice(0, -2)) * m);
  if (!Number.isInteger(kk)) throw new Error(`${k.name}: a=[${a}] does not fit an output of [${out}].`);
  return { batch, m, k: kk, n };
}

export function shapeFlops(s: MatmulShape): number {
  return 2 * s.batch * s.m * s.k * s.n;
}

export interface FlopCount {
  flops: number;
  matmuls: number;
  kernels: number;
  /** The shape whose products add up to the largest share of the FLOPs (null when there were none). */
  dominant: MatmulShape | null;
}

const shapeKey = (s: MatmulShape): string => `${s.batch}x${s.m}x${s.k}x${s.n}`;

export function countFlops(kernels: readonly KernelShapes[]): FlopCount {
  let flops = 0;
  let matmuls = 0;
  const byShape = new Map<string, { shape: MatmulShape; flops: number }>();
  for (const k of kernels) {
    const s = matmulShape(k);
    if (!s) continue;
    const f = shapeFlops(s);
    flops += f;
    matmuls++;
    const key = shapeKey(s);
    const e = byShape.get(key) ?? { shape: s, flops: 0 };
    e.flops += f;
    byShape.set(key, e);
  }
  let dominant: MatmulShape | null = null;
  let best = -1;
  for (const e of byShape.values()) {
    if (e.flops > best) {
      best = e.flops;
      dominant = e.shape;
    }
  }
  return { flops, matmuls, kernels: kernels.length, dominant };
}
