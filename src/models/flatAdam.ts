/**
 * Adam with its moments kept in two flat vectors: the gradients are
 * concatenated, the update is computed once over all of them, and each
 * variable takes its slice. Same formulas, in the same order, as
 * tf.train.adam, so the same values; but a step runs about a dozen kernels
 * plus two per variable, where tf.train.adam runs about thirteen per
 * variable. On WebGPU every kernel is a dispatch with a fixed cost, and for
 * the small models here the optimizer's dispatches were more than half of a
 * training step's (npm run bench counts them). On WASM the whole update is
 * one kernel (adamLoops.ts), with the same values to the bit.
 */
import * as tf from './tf';
import { FLAT_ADAM_STEP } from './kernelNames';

/** What a FlatAdam step reads besides the gradients, as plain values (resumable pretraining: src/models/optimizerState.ts). */
export interface FlatAdamState {
  /** The variables' names, in the order of the flat moments. */
  names: string[];
  m: Float32Array;
  v: Float32Array;
  /** beta1^t and beta2^t as the steps multiplied them up in float32 (a power recomputed from t rounds differently). */
  accBeta1: number;
  accBeta2: number;
  iterations: number;
}

/** An optimizer's gradients, in either form tf.Optimizer takes, as [variable name, gradient] pairs. */
export function gradientEntries(g: tf.NamedTensorMap | { name: string; tensor: tf.Tensor }[]): [string, tf.Tensor][] {
  return Array.isArray(g) ? g.map((x) => [x.name, x.tensor]) : Object.entries(g);
}

export class FlatAdam extends tf.Optimizer {
  static className = 'FlatAdam';
  private readonly epsilon: number;
  private readonly accBeta1: tf.Variable;
  private readonly accBeta2: tf.Variable;
  private m: tf.Variable | null = null;
  private v: tf.Variable | null = null;
  /** The variables this optimizer updates, in the order of the flat vectors; fixed by the first call. */
  private names: string[] | null = null;

  constructor(
    private readonly learningRate: number,
    private readonly beta1 = 0.9,
    private readonly beta2 = 0.999,
    epsilon?: number,
  ) {
    super();
    this.epsilon = epsilon ?? tf.backend().epsilon();
    this.accBeta1 = tf.tidy(() => tf.scalar(beta1).variable(false));
    this.accBeta2 = tf.tidy(() => tf.scalar(beta2).variable(false));
  }

  applyGradients(variableGradients: tf.NamedTensorMap | { name: string; tensor: tf.Tensor }[]): void {
    const given = gradientEntries(variableGradients).filter(([, g]) => g != null);
    const names = given.map(([n]) => n);
    if (this.names === null) this.names = names;
    else if (names.length !== this.names.length || names.some((n, i) => n !== (this.names as string[])[i])) {
      throw new Error('FlatAdam: every step must update the same variables in the same order; make one optimizer per set of trainable variables.');
    }
    const registered = tf.engine().registeredVariables;
    const vars = names.map((n) => {
      const v = registered[n];
      if (!v) throw new Error(`FlatAdam: no variable named ${n}.`);
      return v;
    });
    const sizes = vars.map((v) => v.size);
    const total = sizes.reduce((a, b) => a + b, 0);
    if (this.m === null || this.v === null) {
      this.m = tf.tidy(() => tf.zeros([total]).variable(false));
      this.v = tf.tidy(() => tf.zeros([total]).variable(false));
    }
    const m = this.m;
    const v = this.v;
    if (tf.getKernel(FLAT_ADAM_STEP, tf.getBackend())) {
      tf.tidy(() => {
        const inputs: tf.NamedTensorMap = { m, v, accBeta1: this.accBeta1, accBeta2: this.accBeta2 };
        given.forEach(([, g], i) => (inputs[`g${i}`] = g));
        vars.forEach((x, i) => (inputs[`x${i}`] = x));
        const attrs = { count: vars.length, lr: this.learningRate, beta1: this.beta1, beta2: this.beta2, epsilon: this.epsilon };
        const [newM, newV, acc1, acc2, ...xs] = tf.engine().runKernel(FLAT_ADAM_STEP, inputs, attrs) as tf.Tensor[];
        m.assign(newM);
        v.assign(newV);
        this.accBeta1.assign(acc1);
        this.accBeta2.assign(acc2);
        vars.forEach((x, i) => x.assign(xs[i]));
      });
      this.incrementIterations();
      return;
    }
    tf.tidy(() => {
      const grad = tf.concat(given.map(([, g]) => tf.reshape(g, [-1])));
      const oneMinusAccBeta1 = tf.sub(1, this.accBeta1);
      const oneMinusAccBeta2 = tf.sub(1, this.accBeta2);
      const newM = tf.add(tf.mul(m, this.beta1), tf.mul(grad, 1 - this.beta1));
      const newV = tf.add(tf.mul(v, this.beta2), tf.mul(tf.square(grad), 1 - this.beta2));
      const mHat = tf.div(newM, oneMinusAccBeta1);
      const vHat = tf.div(newV, oneMinusAccBeta2);
      m.assign(newM);
      v.assign(newV);
      const update = tf.mul(tf.div(mHat, tf.add(tf.sqrt(vHat), this.epsilon)), -this.learningRate);
      let offset = 0;
      vars.forEach((variable, i) => {
        variable.assign(tf.add(tf.reshape(tf.slice(update, [offset], [sizes[i]]), variable.shape), variable));
        offset += sizes[i];
      });
      this.accBeta1.assign(tf.mul(this.accBeta1, this.beta1));
      this.accBeta2.assign(tf.mul(this.accBeta2, this.beta2));
    });
    this.incrementIterations();
  }

  /** A copy of the state, or null before the first step. */
  async saveState(): Promise<FlatAdamState | null> {
    if (this.names === null || this.m === null || this.v === null) return null;
    return {
      names: [...this.names],
      m: new Float32Array((await this.m.data()) as Float32Array),
      v: new Float32Array((await this.v.data()) as Float32Array),
      accBeta1: (await this.accBeta1.data())[0],
      accBeta2: (await this.accBeta2.data())[0],
      iterations: this.iterations,
    };
  }

  /** Takes a state saveState made, before this optimizer's first step: the next step is the one that would have followed it. */
  loadState(s: FlatAdamState): void {
    if (this.m !== null) throw new Error('FlatAdam.loadState: load a state before the first step.');
    if (s.m.length !== s.v.length) throw new Error('FlatAdam.loadState: the two moments differ in size.');
    this.names = [...s.names];
    this.m = tf.tidy(() => tf.tensor1d(s.m, 'float32').variable(false));
    this.v = tf.tidy(() => tf.tensor1d(s.v, 'float32').variable(false));
    tf.tidy(() => {
      this.accBeta1.assign(tf.scalar(s.accBeta1));
      this.accBeta2.assign(tf.scalar(s.accBeta2));
    });
    this.iterations_ = s.iterations;
  }

  override dispose(): void {
    this.accBeta1.dispose();
    this.accBeta2.dispose();
    this.m?.dispose();
    this.v?.dispose();
    this.m = null;
    this.v = null;
  }

  getConfig(): tf.serialization.ConfigDict {
    return { learningRate: this.learningRate, beta1: this.beta1, beta2: this.beta2, epsilon: this.epsilon };
  }
}

/** Drop-in for tf.train.adam(lr). */
export function flatAdam(learningRate: number): FlatAdam {
  return new FlatAdam(learningRate);
}
