/**
 * FlatAdam's update (flatAdam.ts) in one pass over every parameter: what the
 * WASM backend runs as one kernel (workers/wasmKernels.ts) where the tensor
 * path flattens each gradient, concatenates them, runs a dozen element-wise
 * ops, then slices and reshapes each update back (about 430 kernels for
 * the tiny grounder's 138 variables). Every operation is rounded to float32
 * in the tensor path's order, so the values are the same to the bit.
 */
const f = Math.fround;

export interface AdamConstants {
  lr: number;
  beta1: number;
  beta2: number;
  epsilon: number;
}

/** beta^t after one more step, as the tensor path's float32 product. */
export function nextPower(acc: number, beta: number): number {
  return f(acc * f(beta));
}

/**
 * Updates the moments m and v (flat, every variable in order) and writes
 * each variable's new values into `out[i]`; `grads[i]` and `vars[i]` are
 * its gradient and current values; accBeta1 and accBeta2 are beta1^t and
 * beta2^t before this step.
 */
export function adamStepInto(c: AdamConstants, accBeta1: number, accBeta2: number, m: Float32Array, v: Float32Array, grads: readonly Float32Array[], vars: readonly Float32Array[], mOut: Float32Array, vOut: Float32Array, out: Float32Array[]): void {
  const b1 = f(c.beta1);
  const b2 = f(c.beta2);
  const rest1 = f(1 - c.beta1);
  const rest2 = f(1 - c.beta2);
  const bias1 = f(1 - accBeta1);
  const bias2 = f(1 - accBeta2);
  const eps = f(c.epsilon);
  const step = f(-c.lr);
  let at = 0;
  grads.forEach((g, i) => {
    const x = vars[i];
    const y = out[i];
    if (x.length !== g.length || y.length !== g.length) throw new Error(`adamStepInto: variable ${i} has ${x.length} values, its gradient ${g.length}`);
    for (let k = 0; k < g.length; k++, at++) {
      const gk = g[k];
      const mk = f(f(m[at] * b1) + f(gk * rest1));
      const vk = f(f(v[at] * b2) + f(f(gk * gk) * rest2));
      mOut[at] = mk;
      vOut[at] = vk;
      const update = f(f(f(mk / bias1) / f(f(Math.sqrt(f(vk / bias2))) + eps)) * step);
      y[k] = f(update + x[k]);
    }
  });
}
