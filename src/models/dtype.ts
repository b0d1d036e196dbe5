/**
 * Float tensors from booleans and indices that hold real float32 data on
 * every backend. tfjs-backend-webgpu 4.22 casts bool or int32 to float32 by
 * relabelling the integer buffer; a later transpose (the one inside a sum
 * over a non-last axis) then fails to compile its shader and leaves garbage,
 * which showed up as NaN losses on WebGPU only. There, `where` and a
 * float-typed oneHot write float32 buffers. The WASM backend is the
 * opposite: its cast converts, but its OneHot writes integers into a float
 * output, and `where` over wide one-hot rows is slow. Same values either way.
 */
import * as tf from './tf';

const relabelsCasts = () => tf.getBackend() === 'webgpu';

/** 1 where `cond` holds, else 0, as float32 (cond: a bool tensor). */
export function maskOf(cond: tf.Tensor): tf.Tensor {
  if (cond.dtype !== 'bool') throw new Error(`maskOf: expected a bool tensor; got ${cond.dtype}`);
  return relabelsCasts() ? tf.where(cond, tf.fill(cond.shape, 1), tf.zeros(cond.shape)) : tf.cast(cond, 'float32');
}

/** One-hot rows [...ids.shape, depth] as float32 (ids: int32). */
export function oneHotFloat(ids: tf.Tensor, depth: number): tf.Tensor {
  const flat = tf.reshape(tf.cast(ids, 'int32'), [-1]) as tf.Tensor1D;
  const hot = relabelsCasts() ? tf.oneHot(flat, depth, 1, 0, 'float32') : tf.cast(tf.oneHot(flat, depth), 'float32');
  return tf.reshape(hot, [...ids.shape, depth]);
}
