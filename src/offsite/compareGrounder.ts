/**
 * The ScaleOT comparison for the grounder (compare.ts is the planner's), on
 * the data owner's private held-out grounding items, with the same rows:
 * zero-shot M; emulator fine-tuning (adapters tuned on E, evaluated on E);
 * plug-in (the adapters in M); full fine-tuning (every weight of M, same
 * batches and steps); Offsite-Tuning's uniform drop at the same (α, β), its
 * emulator fine-tuning and plug-in (skipped at α = 0, the same emulator).
 * Each row: click-inside-box accuracy of the greedy point (evalGrounder, the
 * ScreenSpot measure) with its Wilson 95% interval — stored in the row's
 * `exact` field so summary.ts and report.ts read it unchanged — and the mean
 * grounder SFT loss (cell + offset) on the same items, finer-grained than a
 * rate on a few dozen items.
 *
 * Kept beside compare.ts rather than merged into one engine: the phases are
 * the same, but every data-facing call (batches, loss, evaluation, the full
 * fine-tuning trainer) differs, and the planner's figures stay those of its
 * own code path.
 */
import { cloneParams, disposeParams, type ParamMap, type Params } from '../models/params';
import type { GrounderConfig } from '../models/grounder';
import { grounderBatch, type GrounderBatch, type GrounderExample } from '../models/grounderData';
import type { Tokenizer } from '../text/tokenizer';
import { evalGrounder, type GroundingItem } from '../learn/evalGrounder';
import { makeGrounderSft } from '../learn/grounderSft';
import { Random } from '../learn/random';
import { wilson } from '../learn/stats';
import { buildEmulator, emulatorSize, tensorValues, type Emulator } from './emulator';
import { initHarmonizers } from './harmonizers';
import { dynamicLayerReplace, leastImportant, uniformDrop } from './layerReplace';
import { adapterSize, type Adapters } from './adapters';
import { plugIn } from './plugin';
import { emulatorParams, tuneOnEmulator } from './tune';
import { grounderUnits, sandwich } from './units';
import { grounderBatchLoss } from './grounderLoss';
import type { EmulatorSummary, OffsiteComparison, OffsiteRow, OffsiteSettings, RowName, Scale } from './compare';

export interface GrounderOffsiteInputs {
  full: Params;
  cfg: GrounderConfig;
  tok: Tokenizer;
  /** The model owner's data, for harmonizers and importance. */
  publicExamples: readonly GrounderExample[];
  privateTrain: readonly GroundingItem[];
  privateTest: readonly GroundingItem[];
  settings: OffsiteSettings;
  onProgress?: (phase: string, step: number, total: number) => void;
}

/** `size`-item batches in a fixed shuffled order, reshuffled on each pass. */
function batches(tok: Tokenizer, cfg: GrounderConfig, items: readonly GrounderExample[], size: number, rng: Random): (step: number) => GrounderBatch {
  let order = rng.shuffle(items);
  let pos = 0;
  return () => {
    if (pos + size > order.length) [order, pos] = [rng.shuffle(items), 0];
    return grounderBatch(tok, cfg, order.slice(pos, (pos += size)));
  };
}

const EVAL_BATCH = 16;

async function measure(name: RowName, p: ParamMap, i: GrounderOffsiteInputs, scale?: Scale): Promise<OffsiteRow> {
  const e = await evalGrounder(p, i.cfg, i.tok, i.privateTest, { batchSize: EVAL_BATCH });
  const loss = grounderBatchLoss(i.cfg);
  let total = 0;
  for (let s = 0; s < i.privateTest.length; s += EVAL_BATCH) {
    const chunk = i.privateTest.slice(s, s + EVAL_BATCH);
    const l = loss(p, grounderBatch(i.tok, i.cfg, chunk));
    total += (await l.data())[0] * chunk.length;
    l.dispose();
  }
  return { name, ...(scale ? { scale } : {}), n: e.n, k: e.hits, exact: e.accuracy, interval: wilson(e.hits, e.n), loss: total / i.privateTest.length };
}

async function pluggedRow(name: RowName, full: ParamMap, a: Adapters, i: GrounderOffsiteInputs, scale: Scale): Promise<OffsiteRow> {
  const plugged = plugIn(full, a);
  try {
    return await measure(name, plugged.params, i, scale);
  } finally {
    plugged.dispose();
  }
}

async function emulatorRow(name: RowName, e: Emulator, a: Adapters, i: GrounderOffsiteInputs): Promise<OffsiteRow> {
  const p = emulatorParams(e, a.kind === 'end-units' ? a : undefined);
  const adapted = a.kind === 'lora' ? plugIn(p, a) : null;
  try {
    return await measure(name, adapted ? adapted.params : p, i, { alpha: e.alpha, beta: e.beta });
  } finally {
    adapted?.dispose();
    disposeParams(p);
  }
}

export async function compareGrounderOffsite(i: GrounderOffsiteInputs): Promise<OffsiteComparison> {
  const s = i.settings;
  const rng = new Random(s.seed);
  const units = grounderUnits(i.cfg);
  const { middle } = sandwich(units);
  const seconds: Record<string, number> = {};
  const timed = async <T>(phase: string, f: () => Promise<T>): Promise<T> => {
    const t0 = performance.now();
    try {
      return await f();
    } finally {
      seconds[phase] = (performance.now() - t0) / 1000;
    }
  };
  const rows: OffsiteRow[] = [];
  rows.push(await timed('zero-shot', () => measure('zero-shot', i.full, i)));

  // The model owner: harmonizers and importance on public examples, the validation batch held apart.
  const harm = initHarmonizers(rng.fork('harmonizers'), i.cfg.dim, middle);
  const identity = await tensorValues(harm);
  const shuffled = rng.fork('validation').shuffle(i.publicExamples);
  const replace = await timed('harmonizers and importance', () =>
    dynamicLayerReplace({
      rng: rng.fork('masks'),
      full: i.full,
      units,
      middle,
      harmonizers: harm,
      lossOf: grounderBatchLoss(i.cfg),
      trainBatch: batches(i.tok, i.cfg, shuffled.slice(s.batchSize), s.batchSize, rng.fork('public batches')),
      validationBatch: grounderBatch(i.tok, i.cfg, shuffled.slice(0, s.batchSize)),
      steps: s.replaceSteps,
      alpha: 0.5,
      groupSize: 2,
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

  const fullCopy = cloneParams(i.full, true);
  try {
    await timed('full fine-tuning', async () => {
      const trainer = makeGrounderSft(fullCopy, i.cfg, { lr: s.tuneLr });
      const next = batches(i.tok, i.cfg, i.privateTrain, s.batchSize, new Random(s.seed).fork('private batches'));
      for (let step = 0; step < s.tuneSteps; step++) {
        await trainer.step(next(step));
        i.onProgress?.('full fine-tuning', step + 1, s.tuneSteps);
      }
      trainer.dispose();
    });
    rows.push(await timed('evaluate full fine-tuning', () => measure('full fine-tuning', fullCopy, i)));
  } finally {
    disposeParams(fullCopy);
  }

  const emulators: EmulatorSummary[] = [];
  let adapters = 0;
  for (const scale of s.scales) {
    const tag = `α ${scale.alpha} β ${scale.beta}`;
    const scaleot = await buildEmulator(i.full, i.cfg, { method: 'scaleot', ...scale, replaced: leastImportant(middle, scores, scale.alpha), harmonizers: trained, scores });
    const offsite = await buildEmulator(i.full, i.cfg, { method: 'uniform-drop', ...scale, replaced: uniformDrop(middle, scale.alpha), harmonizers: identity });
    const tune = (e: Emulator, phase: string) =>
      timed(phase, () =>
        tuneOnEmulator(e, {
          steps: s.tuneSteps,
          batch: batches(i.tok, i.cfg, i.privateTrain, s.batchSize, new Random(s.seed).fork('private batches')),
          lr: s.lora ? s.lora.lr : s.tuneLr,
          ...(s.lora ? { lora: { rank: s.lora.rank, alpha: s.lora.alpha, seed: s.seed } } : {}),
          onProgress: (p) => i.onProgress?.(phase, p.step + 1, s.tuneSteps),
        }),
      );
    const tuned = await tune(scaleot, `${tag}: tune on the ScaleOT emulator`);
    rows.push(await timed(`${tag}: evaluate emulator fine-tuning`, () => emulatorRow('emulator fine-tuning', scaleot, tuned.adapters, i)));
    rows.push(await timed(`${tag}: evaluate plug-in`, () => pluggedRow('plug-in', i.full, tuned.adapters, i, scale)));
    emulators.push({ method: 'scaleot', scale, units: scaleot.units, size: emulatorSize(scaleot) });
    if (offsite.units.some((u) => u.role === 'replaced')) {
      const baseline = await tune(offsite, `${tag}: tune on the Offsite-Tuning emulator`);
      rows.push(await timed(`${tag}: evaluate offsite-tuning emulator`, () => emulatorRow('offsite-tuning emulator fine-tuning', offsite, baseline.adapters, i)));
      rows.push(await timed(`${tag}: evaluate offsite-tuning plug-in`, () => pluggedRow('offsite-tuning plug-in', i.full, baseline.adapters, i, scale)));
      emulators.push({ method: 'uniform-drop', scale, units: offsite.units, size: emulatorSize(offsite) });
    }
    adapters = adapterSize(tuned.adapters);
  }

  return {
    settings: s,
    rows,
    emulators,
    fullSize: Object.values(i.full).reduce((n, v) => n + v.size, 0),
    adapterSize: adapters,
    scoreHistory: replace.scoreHistory,
    seconds,
  };
}
