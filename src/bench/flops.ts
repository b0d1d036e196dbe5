/**
 * FLOPs of a training step, counted from the shapes of the matrix products
 * it actually runs (forward, backward and whatever else the step does, such
 * as decoding), so the count follows the models as they change instead of a
 * formula that must be kept in step with them. Only products count (2·m·k·n
 * each, the usual convention): element-wise ops, softmax and layer norms are
 * memory-bound and would flatter a GFLOP/s figure.
 */
import type { MatmulShape } from './types';

/** The part of a tfjs profile's kernel record that the count reads. */
export interface KernelShapes {
  name: string;
  inputShapes: (readonly number[] | null)[];
  outputShapes: readonly (readonly number[])[];
}

/** Kernels that are matrix products (tfjs-core's BatchMatMul and the fused variant). */
export const MATMUL_KERNELS: readonly string[] = ['BatchMatMul', '_FusedMatMul'];

const prod = (xs: readonly number[]): number => xs.reduce((a, b) => a * b, 1);

/**
 * The product's shape from its operands and output: the output is
 * [...batch, m, n]; k is what is left of the first operand's size once its
 * own batch and m are divided out, which holds whether or not it was
 * transposed. Null for a kernel that is not a product.
 */
export function matmulShape(k: KernelShapes): MatmulShape | null {
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
