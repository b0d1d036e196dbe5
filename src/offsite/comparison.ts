/**
 * The comparison ScaleOT reports, for either agent: the phases and rows are
 * the same for both (compare.ts lists them), and only what touches the data
 * differs. An agent hands in how to batch its items, its loss, and how many
 * private test items a model gets right; this file runs the two owners'
 * sides in order with one seeded random source, so the planner's and the
 * grounder's figures come from one code path.
 */
import * as tf from '../models/tf';
import { cloneParams, disposeParams, type ParamMap, type Params } from '../models/params';
import { Random } from '../learn/random';
import { wilson } from '../learn/stats';
import { buildEmulator, emulatorSize, tensorValues, type Emulator } from './emulator';
import { initHarmonizers } from './harmonizers';
import { dynamicLayerReplace, leastImportant, uniformDrop } from './layerReplace';
import { adapterSize, type Adapters } from './adapters';
import { plugIn } from './plugin';
import { adapterTrainer, type OffsiteBatch } from './trainers';
import { emulatorParams, tuneOnEmulator } from './tune';
import { modelUnits, sandwich, type OffsiteModelConfig } from './units';
import type { EmulatorSummary, OffsiteComparison, OffsiteRow, OffsiteSettings, RowName, Scale, SentBack } from './compare';

/** What the comparison needs of one agent. */
export interface OffsiteAgent<Item, Test extends Item, B extends OffsiteBatch> {
  full: Params;
  cfg: OffsiteModelConfig;
  batch(items: readonly Item[]): B;
  lossOf(p: ParamMap, b: B): tf.Scalar;
  /** How far a mixed model is from the teacher on a batch (distill.ts), for harmonizers distilled to M. */
  distillOf(student: ParamMap, teacher: ParamMap, b: B): tf.Scalar;
  /** Test items the model gets right (greedy), out of how many, and each item's hit in test order. */
  hits(p: ParamMap, test: readonly Test[]): Promise<{ k: number; n: number; hit: boolean[] }>;
  /** Items per evaluation batch, for the test loss too. */
  evalBatch: number;
  /** The agent's SFT gradient clipping, kept for every tuning here (the grounder's SFT has none). */
  clipNorm?: number;
}

export interface ComparisonInputs<Item, Test extends Item, B extends OffsiteBatch> {
  agent: OffsiteAgent<Item, Test, B>;
  /** The model owner's data, for harmonizers and importance. */
  publicItems: readonly Item[];
  privateTrain: readonly Item[];
  privateTest: readonly Test[];
  settings: OffsiteSettings;
  /** After each training step; awaited, so that a caller in a worker can take an event turn (eventTurn.ts) and answer progress polls. */
  onProgress?: (phase: string, step: number, total: number) => void | Promise<void>;
  /** Each phase as it starts, evaluations included (they report no steps), so that a progress display can name them; awaited likewise. */
  onPhase?: (phase: string) => void | Promise<void>;
}

const sentBack = (a: Adapters): SentBack => ({ kind: a.kind, units: [...a.units], tensors: Object.keys(a.tensors).sort(), size: adapterSize(a) });

/** `size`-item batches in a fixed shuffled order, reshuffled on each pass. */
function batches<Item, B>(batch: (items: readonly Item[]) => B, items: readonly Item[], size: number, rng: Random): (step: number) => B {
  let order = rng.shuffle(items);
  let pos = 0;
  return () => {
    if (pos + size > order.length) [order, pos] = [rng.shuffle(items), 0];
    return batch(order.slice(pos, (pos += size)));
  };
}

export async function runComparison<Item, Test extends Item, B extends OffsiteBatch>(i: ComparisonInputs<Item, Test, B>): Promise<OffsiteComparison> {
  const { agent, settings: s } = i;
  const batchOf = (items: readonly Item[]) => agent.batch(items);

  const measure = async (name: RowName, p: ParamMap, scale?: Scale): Promise<OffsiteRow> => {
    const { k, n, hit } = await agent.hits(p, i.privateTest);
    let total = 0;
    for (let at = 0; at < i.privateTest.length; at += agent.evalBatch) {
      const chunk = i.privateTest.slice(at, at + agent.evalBatch);
      const l = agent.lossOf(p, batchOf(chunk));
      total += (await l.data())[0] * chunk.length;
      l.dispose();
    }
    return { name, ...(scale ? { scale } : {}), n, k, exact: k / n, interval: wilson(k, n), loss: total / i.privateTest.length, hit };
  };
  const pluggedRow = async (name: RowName, a: Adapters, scale: Scale): Promise<OffsiteRow> => {
    const plugged = plugIn(agent.full, a);
    try {
      return await measure(name, plugged.params, scale);
    } finally {
      plugged.dispose();
    }
  };
  const emulatorRow = async (name: RowName, e: Emulator, a: Adapters): Promise<OffsiteRow> => {
    const p = emulatorParams(e, a.kind === 'end-units' ? a : undefined);
    const adapted = a.kind === 'lora' ? plugIn(p, a) : null;
    try {
      return await measure(name, adapted ? adapted.params : p, { alpha: e.alpha, beta: e.beta });
    } finally {
      adapted?.dispose();
      disposeParams(p);
    }
  };

  const rng = new Random(s.seed);
  const units = modelUnits(agent.cfg);
  const { middle } = sandwich(units);
  const seconds: Record<string, number> = {};
  const timed = async <T>(phase: string, f: () => Promise<T>): Promise<T> => {
    await i.onPhase?.(phase);
    const t0 = performance.now();
    try {
      return await f();
    } finally {
      seconds[phase] = (performance.now() - t0) / 1000;
    }
  };
  const privateBatches = () => batches(batchOf, i.privateTrain, s.batchSize, new Random(s.seed).fork('private batches'));
  const rows: OffsiteRow[] = [];
  rows.push(await timed('zero-shot', () => measure('zero-shot', agent.full)));

  // The model owner: harmonizers and importance, then the emulators.
  const harm = initHarmonizers(rng.fork('harmonizers'), agent.cfg.dim, middle);
  const identity = await tensorValues(harm); // untrained: the Offsite-Tuning baseline's dropped units
  // The validation batch that scores masks is kept out of the harmonizers' training batches.
  const shuffled = rng.fork('validation').shuffle(i.publicItems);
  const replace = await timed('harmonizers and importance', () =>
    dynamicLayerReplace({
      rng: rng.fork('masks'),
      full: agent.full,
      units,
      middle,
      harmonizers: harm,
      lossOf: (p: ParamMap, b: B) => agent.lossOf(p, b),
      // The scores are rewarded by the task loss alone; distillation only shapes what the harmonizers learn.
      ...(s.distill ? { trainLossOf: (p: ParamMap, b: B) => tf.tidy(() => tf.add(agent.lossOf(p, b), tf.mul(s.distill as number, agent.distillOf(p, agent.full, b))) as tf.Scalar) } : {}),
      trainBatch: batches(batchOf, shuffled.slice(s.batchSize), s.batchSize, rng.fork('public batches')),
      validationBatch: batchOf(shuffled.slice(0, s.batchSize)),
      steps: s.replaceSteps,
      alpha: 0.5,
      // Scores are compared only within a group while training; the final cut (leastImportant) ranks them all.
      groupSize: s.maskGroup ?? 2,
      rlEvery: s.rlEvery,
      candidates: s.candidates,
      lr: s.harmonizerLr,
      scoreLr: s.scoreLr,
      onProgress: (p) => i.onProgress?.('harmonizers and importance', p.step + 1, s.replaceSteps),
    }),
  );
  const scores = replace.scores;
  const trained = await tensorValues(harm);
  disposeParams(harm);

  const fullCopy = cloneParams(agent.full, true);
  try {
    await timed('full fine-tuning', async () => {
      const trainer = adapterTrainer(fullCopy, agent.cfg, { lr: s.tuneLr, clipNorm: agent.clipNorm });
      const next = privateBatches();
      for (let step = 0; step < s.tuneSteps; step++) {
        await trainer.step(next(step));
        await i.onProgress?.('full fine-tuning', step + 1, s.tuneSteps);
      }
      trainer.dispose();
    });
    rows.push(await timed('evaluate full fine-tuning', () => measure('full fine-tuning', fullCopy)));
  } finally {
    disposeParams(fullCopy);
  }

  // Per scale: the owner builds both emulators; the data owner tunes adapters on each with the same private batches.
  const emulators: EmulatorSummary[] = [];
  let adapters = 0;
  for (const scale of s.scales) {
    const tag = `α ${scale.alpha} β ${scale.beta}`;
    const scaleot = await buildEmulator(agent.full, agent.cfg, { method: 'scaleot', ...scale, replaced: leastImportant(middle, scores, scale.alpha), harmonizers: trained, scores });
    const offsite = await buildEmulator(agent.full, agent.cfg, { method: 'uniform-drop', ...scale, replaced: uniformDrop(middle, scale.alpha), harmonizers: identity });
    const tune = (e: Emulator, phase: string) =>
      timed(phase, () =>
        tuneOnEmulator(e, {
          steps: s.tuneSteps,
          batch: privateBatches(),
          lr: s.lora ? s.lora.lr : s.tuneLr,
          ...(agent.clipNorm !== undefined ? { clipNorm: agent.clipNorm } : {}),
          ...(s.lora ? { lora: { rank: s.lora.rank, alpha: s.lora.alpha, seed: s.seed } } : {}),
          ...(s.tuneOutside ? { carry: 'outside' as const } : s.tuneTable ? { carry: 'table' as const } : {}),
          ...(s.wholeLr !== undefined ? { wholeLr: s.wholeLr } : {}),
          onProgress: (p) => i.onProgress?.(phase, p.step + 1, s.tuneSteps),
        }),
      );
    const tuned = await tune(scaleot, `${tag}: tune on the ScaleOT emulator`);
    rows.push(await timed(`${tag}: evaluate emulator fine-tuning`, () => emulatorRow('emulator fine-tuning', scaleot, tuned.adapters)));
    rows.push(await timed(`${tag}: evaluate plug-in`, () => pluggedRow('plug-in', tuned.adapters, scale)));
    emulators.push({ method: 'scaleot', scale, units: scaleot.units, size: emulatorSize(scaleot), adapters: sentBack(tuned.adapters) });
    // With nothing dropped the baseline's emulator is ScaleOT's, weight for weight: no rows to add.
    if (offsite.units.some((u) => u.role === 'replaced')) {
      const baseline = await tune(offsite, `${tag}: tune on the Offsite-Tuning emulator`);
      rows.push(await timed(`${tag}: evaluate offsite-tuning emulator`, () => emulatorRow('offsite-tuning emulator fine-tuning', offsite, baseline.adapters)));
      rows.push(await timed(`${tag}: evaluate offsite-tuning plug-in`, () => pluggedRow('offsite-tuning plug-in', baseline.adapters, scale)));
      emulators.push({ method: 'uniform-drop', scale, units: offsite.units, size: emulatorSize(offsite), adapters: sentBack(baseline.adapters) });
    }
    adapters = adapterSize(tuned.adapters);
  }

  return {
    settings: s,
    rows,
    emulators,
    fullSize: Object.values(agent.full).reduce((n, v) => n + v.size, 0),
    adapterSize: adapters,
    scoreHistory: replace.scoreHistory,
    seconds,
  };
}
