/**
 * tfjs's gradients of the element-wise ops and reductions, without the
 * kernels that do nothing. Its gradient of a + b ends in reshape(dy,
 * a.shape) even when nothing was broadcast, those of a · b, a / b, √x,
 * log x and x² cast float32 operands to float32, and those of sum and mean
 * reshape a dy that kept its dims: in a tiny grounder SFT step that was 265
 * reshapes and 172 casts of 2,627 kernels (every kernel of the step recorded
 * in Node; docs/experiments.md, 5 Dec). Each is one dispatch that copies
 * nothing. These configs compute the same products,
 * sums and quotients in the same order, so the gradients are bit for bit
 * tfjs's (test/unit/lean-gradients.test.ts); where a gradient is dy itself,
 * it is a new tensor over dy's data (tensorRefs.ts), as each input's
 * gradient must be its own tensor for the tape to add and dispose it.
 */
import * as tf from '../src/models/tf';
import { engineInternals, sharedReference, type EngineInternals } from './tensorRefs';

const sameShape = (a: readonly number[], b: readonly number[]) => a.length === b.length && a.every((d, i) => d === b[i]);

/** dy summed over the axes `shape` was broadcast along, in `shape`; dy's own data when nothing was. */
function unbroadcast(engine: EngineInternals, dy: tf.Tensor, shape: number[], outShape: number[]): tf.Tensor {
  const axes = tf.broadcast_util.getReductionAxes(shape, outShape);
  if (axes.length === 0) return sharedReference(engine, dy, shape);
  const summed = tf.sum(dy, axes);
  return sameShape(summed.shape, shape) ? summed : tf.reshape(summed, shape);
}

/** A product's or quotient's gradient `res` (already a new tensor, dy's shape) summed back to `shape`. */
function reduced(res: tf.Tensor, shape: number[], outShape: number[]): tf.Tensor {
  const axes = tf.broadcast_util.getReductionAxes(shape, outShape);
  if (axes.length === 0) return res;
  const summed = tf.sum(res, axes);
  return sameShape(summed.shape, shape) ? summed : tf.reshape(summed, shape);
}

/** A reduction's dy with the reduced axes put back as 1s (as keepDims gives it, then with no reshape). */
function expanded(dy: tf.Tensor, x: tf.Tensor, attrs: tf.NamedAttrMap): tf.Tensor {
  const shape = x.shape.slice();
  for (const a of tf.util.parseAxisParam((attrs as { axis: number | number[] }).axis, x.shape)) shape[a] = 1;
  return sameShape(dy.shape, shape) ? dy : tf.reshape(dy, shape);
}

const asFloat = (x: tf.Tensor) => (x.dtype === 'float32' ? x : tf.cast(x, 'float32'));

function configs(engine: EngineInternals): tf.GradConfig[] {
  const out = (a: tf.Tensor, b: tf.Tensor) => tf.broadcast_util.assertAndGetBroadcastShape(a.shape, b.shape);
  return [
    {
      kernelName: tf.Add,
      inputsToSave: ['a', 'b'],
      gradFunc: (dy, saved) => {
        const [a, b] = saved;
        const o = out(a, b);
        return { a: () => unbroadcast(engine, dy as tf.Tensor, a.shape, o), b: () => unbroadcast(engine, dy as tf.Tensor, b.shape, o) };
      },
    },
    {
      kernelName: tf.Sub,
      inputsToSave: ['a', 'b'],
      gradFunc: (dy, saved) => {
        const [a, b] = saved;
        const o = out(a, b);
        return { a: () => unbroadcast(engine, dy as tf.Tensor, a.shape, o), b: () => reduced(tf.neg(dy as tf.Tensor), b.shape, o) };
      },
    },
    {
      kernelName: tf.Multiply,
      inputsToSave: ['a', 'b'],
      gradFunc: (dy, saved) => {
        const [a, b] = saved;
        const o = out(a, b);
        return { a: () => reduced(tf.mul(dy as tf.Tensor, asFloat(b)), a.shape, o), b: () => reduced(tf.mul(dy as tf.Tensor, asFloat(a)), b.shape, o) };
      },
    },
    {
      kernelName: tf.RealDiv,
      inputsToSave: ['a', 'b'],
      gradFunc: (dy, saved) => {
        const [a, b] = saved;
        const o = out(a, b);
        return {
          a: () => reduced(tf.div(dy as tf.Tensor, asFloat(b)), a.shape, o),
          b: () => tf.neg(tf.div(reduced(tf.mul(dy as tf.Tensor, asFloat(a)), b.shape, o), asFloat(tf.square(b)))),
        };
      },
    },
    { kernelName: tf.Sqrt, inputsToSave: ['x'], gradFunc: (dy, [x]) => ({ x: () => tf.div(dy as tf.Tensor, tf.mul(tf.sqrt(asFloat(x)), 2)) }) },
    { kernelName: tf.Log, inputsToSave: ['x'], gradFunc: (dy, [x]) => ({ x: () => tf.div(dy as tf.Tensor, asFloat(x)) }) },
    { kernelName: tf.Square, inputsToSave: ['x'], gradFunc: (dy, [x]) => ({ x: () => tf.mul(dy as tf.Tensor, tf.mul(asFloat(x), 2)) }) },
    {
      kernelName: tf.Sum,
      inputsToSave: ['x'],
      gradFunc: (dy, [x], attrs) => ({ x: () => tf.mul(expanded(dy as tf.Tensor, x, attrs), tf.ones(x.shape, 'float32')) }),
    },
    {
      kernelName: tf.Mean,
      inputsToSave: ['x'],
      gradFunc: (dy, [x], attrs) => {
        const axes = tf.util.parseAxisParam((attrs as { axis: number | number[] }).axis, x.shape);
        const size = axes.reduce((n, a) => n * x.shape[a], 1);
        return { x: () => tf.div(tf.mul(expanded(dy as tf.Tensor, x, attrs), tf.ones(x.shape, 'float32')), size) };
      },
    },
    {
      kernelName: tf.Reshape,
      inputsToSave: ['x'],
      gradFunc: (dy, [x]) => ({ x: () => (sameShape((dy as tf.Tensor).shape, x.shape) ? sharedReference(engine, dy as tf.Tensor) : tf.reshape(dy as tf.Tensor, x.shape)) }),
    },
  ];
}

/** Replaces tfjs's gradients of these ops with the lean ones (idempotent; every backend). */
export function useLeanGradients(): void {
  const engine = engineInternals('useLeanGradients');
  for (const c of configs(engine)) tf.registerGradient(c);
}
