/**
 * Names of our own kernels (workers/rowKernels.ts registers the WebGPU ones,
 * workers/wasmKernels.ts the WASM ones; src/models runs them). Kept apart
 * from both so that the bench's FLOP count can name the product kernel
 * without loading tfjs.
 */
export const PLAIN_PRODUCT = 'CoevoPlainProduct';
export const ROW_SOFTMAX = 'CoevoRowSoftmax';
export const ROW_SOFTMAX_GRAD = 'CoevoRowSoftmaxGrad';
export const ROW_STANDARDIZE = 'CoevoRowStandardize';
export const ROW_LAYER_NORM = 'CoevoRowLayerNorm';
export const ROW_LAYER_NORM_GRAD = 'CoevoRowLayerNormGrad';
export const IM2COL_3X3 = 'CoevoIm2Col3x3';
/** WASM only (src/models/glyphWindows.ts): the glyph reader's windows, transposed, for its weight gradient. */
export const GLYPH_WINDOWS_T = 'CoevoGlyphWindowsT';
/** WASM only (src/models/windowLoops.ts): im2col's gradient, and glyphsNearCells's window maximum with its gradient. */
export const COL2IM_3X3 = 'CoevoCol2Im3x3';
export const NEAR_MAX = 'CoevoNearMax';
export const NEAR_MAX_GRAD = 'CoevoNearMaxGrad';
/** WASM only (src/models/rowLoops.ts): GELU and its gradient; WASM also runs ROW_LAYER_NORM, ROW_LAYER_NORM_GRAD and ROW_STANDARDIZE there. */
export const GELU_TANH = 'CoevoGeluTanh';
export const GELU_TANH_GRAD = 'CoevoGeluTanhGrad';
/** WASM only (src/models/pickedLoops.ts): log softmax at one picked column per row, and its gradient. */
export const PICKED_LOG_PROB = 'CoevoPickedLogProb';
export const PICKED_LOG_PROB_GRAD = 'CoevoPickedLogProbGrad';
/** WASM only (src/models/decodeAttentionLoops.ts): one decoding step's attention over the cached keys and values, growing the cache. */
export const DECODE_ATTENTION = 'CoevoDecodeAttention';
/** WASM only (src/models/adamLoops.ts): FlatAdam's whole update in one kernel. */
export const FLAT_ADAM_STEP = 'CoevoFlatAdamStep';
/** WASM only (workers/wasmAffine.ts): a dense layer x · w + b over the last axis, and its gradients. */
export const AFFINE = 'CoevoAffine';
export const AFFINE_GRAD = 'CoevoAffineGrad';
/** WASM only (src/models/weightedSumLoops.ts): the grounder's Σ_f w[:, f]·maps[f], and its gradient. */
export const WEIGHTED_SUM = 'CoevoWeightedSum';
export const WEIGHTED_SUM_GRAD = 'CoevoWeightedSumGrad';
/** WASM only (workers/wasmTransposedProduct.ts): a · b with either operand transposed, the transpose and product in one kernel; no gradient (fastops' products have their own). */
export const TRANSPOSED_PRODUCT = 'CoevoTransposedProduct';
/** WASM only (src/models/headLoops.ts): attention's head split [B, T, H·dh] → [B·H, T, dh] and merge, each the other's gradient. */
export const HEADS_SPLIT = 'CoevoHeadsSplit';
export const HEADS_MERGE = 'CoevoHeadsMerge';
