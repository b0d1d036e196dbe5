/**
 * The data owner's side: tune adapters on the emulator with private data,
 * send back only the adapters. The entry takes an Emulator, which only
 * emulator.ts can make and which never holds a replaced unit's weights, so
 * this code has no way to read the full model; it returns exactly the
 * adapter tensors (checkAdapters): the end units' weights, or LoRA factors
 * on the units E kept (and its end units), with weights outside the units
 * carried whole if asked (the token table, or all of them).
 */
import { fromValues, disposeParams, setTrainable, type Params } from '../models/params';
import { createLora, disposeLora, type Lora } from '../models/lora';
import { Random } from '../learn/random';
import { checkAdapters, loraTargetsOf, wholeWeights, type Adapters, type CarriedWhole } from './adapters';
import { adapterTrainer, type OffsiteBatch } from './trainers';
import { adapterNames, emulatorUnits, emulatorWeights, isEmulator, tensorValues, type Emulator } from './emulator';

export interface TuneOptions {
  steps: number;
  /** Private batches of the emulator's agent (planner or grounder batches). */
  batch: (step: number) => OffsiteBatch;
  lr: number;
  clipNorm?: number;
  /** LoRA adapters of this rank and scale instead of the end units' weights. */
  lora?: { rank: number; alpha: number; seed?: number };
  /** Tune these weights outside the units too, whole, and send them back with the adapters. */
  carry?: CarriedWhole;
  /** Their learning rate (default lr): weights already trained come apart at a rate that suits LoRA factors starting from zero. */
  wholeLr?: number;
  /** Awaited: a caller in a worker may take an event turn here so that its messages get in. */
  onProgress?: (p: { step: number; loss: number }) => void | Promise<void>;
}

/** The emulator's weights as variables, end-unit adapters (if given) in place; adapter units trainable, the rest frozen (the caller disposes). */
export function emulatorParams(e: Emulator, adapters?: Adapters): Params {
  const w = emulatorWeights(e);
  if (adapters) {
    if (adapters.kind !== 'end-units') throw new Error('emulatorParams: put LoRA adapters on with plugIn');
    Object.assign(w, checkAdapters(adapters).tensors);
  }
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
  let lora: Lora | undefined;
  const carried = emulatorUnits(e)
    .filter((x) => x.plan.role !== 'replaced')
    .map((x) => x.unit.id);
  if (o.lora) {
    setTrainable(params, false);
    // Exactly the 2-D weights of the units E carries (what checkAdapters allows), by name: a pattern
    // would also catch weights outside any unit (the grounder's cross-attentions and screen encoder).
    const names = loraTargetsOf(e.config, carried).map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
    lora = createLora(new Random(o.lora.seed ?? 1).fork('offsite lora'), params, { rank: o.lora.rank, alpha: o.lora.alpha, targets: new RegExp(`^(${names.join('|')})$`) });
  }
  const whole = o.carry ? wholeWeights(e.config, o.carry) : [];
  for (const n of whole) params[n].trainable = true;
  const trainer = adapterTrainer(params, e.config, { lr: o.lr, clipNorm: o.clipNorm, lora, ...(o.wholeLr !== undefined && whole.length ? { ownRate: { lr: o.wholeLr, names: whole } } : {}) });
  const losses: number[] = [];
  try {
    for (let step = 0; step < o.steps; step++) {
      const { loss } = await trainer.step(o.batch(step));
      losses.push(loss);
      await o.onProgress?.({ step, loss });
    }
    if (lora && o.lora) {
      const tensors = { ...(await tensorValues(lora.adapters)), ...(await tensorValues(params, whole)) };
      const adapters = checkAdapters({ kind: 'lora', config: e.config, units: carried, tensors, lora: { rank: o.lora.rank, alpha: o.lora.alpha }, ...(whole.length ? { whole } : {}) });
      return { adapters, losses };
    }
    const adapters = checkAdapters({ kind: 'end-units', config: e.config, units: e.units.filter((u) => u.role === 'adapter').map((u) => u.id), tensors: await tensorValues(params, [...adapterNames(e), ...whole]), ...(whole.length ? { whole } : {}) });
    return { adapters, losses };
  } finally {
    trainer.dispose();
    if (lora) disposeLora(lora);
    disposeParams(params);
  }
}
