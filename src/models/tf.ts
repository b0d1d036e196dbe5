/**
 * The one import of tfjs for model and training code. tfjs-core alone ships
 * no gradients; registering them here means no module can forget to.
 */
import '@tensorflow/tfjs-core/dist/register_all_gradients';
export * from '@tensorflow/tfjs-core';
