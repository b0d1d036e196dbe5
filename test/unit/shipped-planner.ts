/** The shipped tiny base planner on the WASM backend, for tests that need trained weights. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as tf from '../../src/models/tf';
import '@tensorflow/tfjs-backend-wasm';
import { importCheckpoint } from '../../src/models/checkpoint';
import type { PlannerConfig } from '../../src/models/planner';
import type { Params } from '../../src/models/params';

export async function shippedTinyPlanner(): Promise<{ params: Params; cfg: PlannerConfig }> {
  await tf.setBackend('wasm');
  await tf.ready();
  const loaded = importCheckpoint(new Uint8Array(readFileSync(join(__dirname, '../../public/base/tiny-planner.safetensors'))));
  return { params: loaded.params, cfg: loaded.config as PlannerConfig };
}
