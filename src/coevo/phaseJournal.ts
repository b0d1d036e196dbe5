/**
 * What lets a phase resume in the middle after a reload, losing and
 * duplicating nothing: every batch of a phase (a training step, a decoding
 * or grounding batch) goes through PhaseJournal.batch, which records what
 * the batch returned and where the phase's random streams were after it.
 * Before a batch, the journal saves those records together with the
 * weights and optimizer state being trained (one store write): before
 * every batch, unless saving would take more than about a tenth of the
 * phase's time, when it saves less often (SAVE_COST_RATIO); and always
 * before a batch the machine will pause at.
 *
 * A resumed phase runs its code again from the start with the same seeded
 * streams, but the batches already saved are not computed: each returns its
 * recorded result and puts the streams where they were after it. The host
 * code between batches (which batch to draw, what to record) is
 * deterministic, so it rebuilds exactly the state the interrupted phase
 * had; at the first batch not saved, the weights, adapters and optimizer
 * moments are put back, and from there the phase computes what an
 * uninterrupted one computes, bit for bit. Replaying a batch costs a
 * structured clone, not a forward pass.
 *
 * The rules a phase keeps for this to hold: every call that runs a model
 * goes through batch() (with any tensors made inside it), every random
 * stream such a call draws from is registered with random(), and whatever
 * a batch changes in place is declared with train().
 */
import type { Random } from '../learn/random';
import type { TensorData } from '../models/safetensors';
import { restoreOptimizer, saveOptimizer, type OptimizerState } from '../models/optimizerState';
import type { Params } from '../models/params';
import type * as tf from '../models/tf';
import { copyWeights, restoreWeights } from '../models/weightsCopy';
import type { BatchGate } from './machine';

/** What a phase is training: every variable a batch changes or that was copied from trained weights, and the optimizer. */
export interface Trainer {
  tensors: Params;
  optimizer: tf.Optimizer | null;
}

/** A phase's progress at a batch boundary: enough to continue it there. */
export interface JournalSnapshot {
  /** Batches done: the next batch has this index. */
  batches: number;
  results: unknown[];
  randoms: number[][];
  tensors: Record<string, TensorData>;
  optimizer: OptimizerState | null;
}

/** Runs one batch of a phase: what gated agents and pools call. */
export interface BatchRunner {
  batch<T>(compute: () => Promise<T>): Promise<T>;
}

export interface JournalOptions {
  gate: BatchGate;
  /** The phase's last save, to continue from. */
  resume?: JournalSnapshot | null;
  /** Makes a snapshot durable; without it nothing is saved. */
  save?: (s: JournalSnapshot) => Promise<void>;
  /** Save before a batch only once this long has passed since the last save (default 0). */
  saveEveryMs?: number;
  /** ... and this many times as long as the last save took (default SAVE_COST_RATIO; 0: before every batch). */
  saveCostRatio?: number;
  now?: () => number;
}

/**
 * Time between two saves, in units of the last save's duration: saving
 * takes at most about a tenth of a phase's time. Where a batch takes longer
 * than ten saves (tiny runs on WASM or a software GPU), every batch is
 * saved and a reload loses at most the batch in flight; where batches are
 * much faster than a save, a reload loses at most about ten saves' time.
 */
export const SAVE_COST_RATIO = 10;

export class PhaseJournal implements BatchRunner {
  private readonly results: unknown[] = [];
  private readonly randomStates: number[][] = [];
  private readonly streams: Random[] = [];
  private trainer: Trainer | null = null;
  private calls = 0;
  private savedBatches: number;
  private lastSave: number;
  private lastSaveMs = 0;
  private readonly now: () => number;

  constructor(private readonly opts: JournalOptions) {
    this.now = opts.now ?? (() => performance.now());
    this.lastSave = this.now();
    const r = opts.resume;
    if (r && (r.results.length !== r.batches || r.randoms.length !== r.batches)) {
      throw new Error(`The saved progress of this phase is damaged (${r.batches} batches, ${r.results.length} results, ${r.randoms.length} stream states).`);
    }
    this.savedBatches = r?.batches ?? 0;
  }

  /**
   * Batches passed so far (replayed or computed). Not the calls begun: a
   * call waiting at the gate (paused there) has not passed, and a reload
   * takes the phase up at that batch.
   */
  get batches(): number {
    return this.results.length;
  }

  /** Batches held by the last durable save: a reload takes the phase up there (SAVE_COST_RATIO says how far behind `batches` it may be). */
  get saved(): number {
    return this.savedBatches;
  }

  /** Batches the resumed phase replays from its save (0 when it started fresh). */
  get replayed(): number {
    return this.opts.resume?.batches ?? 0;
  }

  /** Registers a random stream that batches draw from; returns it. Register in the same order on every run of the phase. */
  random(stream: Random): Random {
    this.streams.push(stream);
    return stream;
  }

  /** Declares what the following batches train (null: nothing). */
  train(trainer: Trainer | null): void {
    this.trainer = trainer;
  }

  async batch<T>(compute: () => Promise<T>): Promise<T> {
    const i = this.calls++;
    const resume = this.opts.resume;
    if (resume && i < resume.batches) {
      this.results.push(resume.results[i]);
      this.randomStates.push(resume.randoms[i]);
      this.setStreams(resume.randoms[i], i);
      // A clone, so that the host code may change what it gets without touching the record.
      return structuredClone(resume.results[i]) as T;
    }
    if (resume && i === resume.batches) this.restoreTrainer(resume);
    const save = this.opts.save ? () => (i > this.savedBatches ? this.save(i) : Promise.resolve()) : undefined;
    if (save && (this.due() || this.opts.gate.willPause?.() === true)) await save();
    // A pause that arrives while the gate yields is saved for there too, before the machine reports it.
    await this.opts.gate.batch(save);
    const value = await compute();
    this.results.push(structuredClone(value));
    this.randomStates.push(this.streams.map((s) => s.saveState()));
    return value;
  }

  private due(): boolean {
    const wait = Math.max(this.opts.saveEveryMs ?? 0, (this.opts.saveCostRatio ?? SAVE_COST_RATIO) * this.lastSaveMs);
    return this.now() - this.lastSave >= wait;
  }

  private setStreams(states: readonly number[], at: number): void {
    if (states.length > this.streams.length) {
      throw new Error(`The saved progress names ${states.length} random streams at batch ${at}, but the phase made ${this.streams.length}; it was saved by other code.`);
    }
    states.forEach((s, k) => this.streams[k].loadState(s));
  }

  private restoreTrainer(s: JournalSnapshot): void {
    const t = this.trainer;
    if (!t) {
      if (Object.keys(s.tensors).length > 0) throw new Error(`The saved progress holds trained weights at batch ${s.batches}, where the phase trains nothing; it was saved by other code.`);
      return;
    }
    restoreWeights(t.tensors, s.tensors);
    if (s.optimizer) {
      if (!t.optimizer) throw new Error(`The saved progress holds an optimizer state at batch ${s.batches}, where the phase has no optimizer.`);
      restoreOptimizer(t.optimizer, t.tensors, s.optimizer);
    }
  }

  private async save(batches: number): Promise<void> {
    const t0 = this.now();
    const t = this.trainer;
    const snapshot: JournalSnapshot = {
      batches,
      results: this.results.slice(0, batches),
      randoms: this.randomStates.slice(0, batches),
      tensors: t ? await copyWeights(t.tensors) : {},
      optimizer: t?.optimizer ? await saveOptimizer(t.optimizer, t.tensors) : null,
    };
    await this.opts.save?.(snapshot);
    this.savedBatches = batches;
    this.lastSave = this.now();
    this.lastSaveMs = this.lastSave - t0;
  }
}

/** The variables of several named groups as one map (`group/name`), so that one save holds them all under stable names. */
export function trainedTensors(groups: Record<string, Params | null | undefined>): Params {
  const out: Params = {};
  for (const [group, params] of Object.entries(groups)) if (params) for (const [name, v] of Object.entries(params)) out[`${group}/${name}`] = v;
  return out;
}
