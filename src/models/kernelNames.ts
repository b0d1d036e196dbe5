/**
 * Names of our own WebGPU kernels (workers/rowKernels.ts registers them,
 * src/models/rowOps.ts runs them). Kept apart from both so that the bench's
 * FLOP count can name the product kernel without loading tfjs.
 */
export const PLAIN_PRODUCT = 'CoevoPlainProduct';
export const ROW_SOFTMAX = 'CoevoRowSoftmax';
export const ROW_SOFTMAX_GRAD = 'CoevoRowSoftmaxGrad';
export const ROW_STANDARDIZE = 'CoevoRowStandardize';
export const ROW_LAYER_NORM = 'CoevoRowLayerNorm';
export const ROW_LAYER_NORM_GRAD = 'CoevoRowLayerNormGrad';
export const IM2COL_3X3 = 'CoevoIm2Col3x3';
