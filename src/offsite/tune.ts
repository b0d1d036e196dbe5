/**
 * The data owner's side: tune the adapters on the emulator with private
 * data, send back only the adapters. The entry takes an Emulator, which
 * only emulator.ts can make and which never holds a replaced unit's weights,
 * so this code has no way to read the full model; it returns exactly the
 * adapter units' tensors (checkAdapters).
 */
import { fromValues, disposeParams, type Params } from '../models/params';
import type { PlannerBatch } from '../models/plannerData';
import { makePlannerSft } from '../learn/plannerSft';
import { checkAdapters, type Adapters } from './adapters';
import { adapterNames, emulatorWeights, isEmulator, tensorValues, type Emulator } from './emulator';

export interface TuneOptions {
  steps: number;
  batch: (step: number) => PlannerBatch;
  lr: number;
  clipNorm?: number;
  onProgress?: (p: { step: number; loss: number }) => void;
}

/** The emulator's weights as variables, adapters trainable and everything else frozen (the caller disposes). */
export function emulatorParams(e: Emulator, adapters?: Adapters): Params {
  const w = emulatorWeights(e);
  if (adapters) Object.assign(w, checkAdapters(adapters).tensors);
  const params = fromValues(
    Object.fromEntries(Object.entries(w).map(([k, t]) => [k, t.data])),
    Object.fromEntries(Object.entries(w).map(([k, t]) => [k, t.shape])),
  );
  const trainable = new Set(adapterNames(e));
  for (const [name, v] of Object.entries(params)) v.trainable = trainable.has(name);
  return params;
}

export async function tuneOnEmulator(e: Emulator, o: TuneOptions): Promise<{ adapters: Adapters; losses: number[] }> {
  if (!isEmulator(e)) throw new Error('tuneOnEmulator: takes an Emulator (buildEmulator or readEmulator), never a model');
  const params = emulatorParams(e);
  const trainer = makePlannerSft(params, e.config, { lr: o.lr, clipNorm: o.clipNorm });
  const losses: number[] = [];
  try {
    for (let step = 0; step < o.steps; step++) {
      const { loss } = await trainer.step(o.batch(step));
      losses.push(loss);
      o.onProgress?.({ step, loss });
    }
    const names = adapterNames(e);
    const adapters = checkAdapters({ kind: 'end-units', config: e.config, units: e.units.filter((u) => u.role === 'adapter').map((u) => u.id), tensors: await tensorValues(params, names) });
    return { adapters, losses };
  } finally {
    trainer.dispose();
    disposeParams(params);
  }
}
