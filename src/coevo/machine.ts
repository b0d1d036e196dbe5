/**
 * The phase machine of a co-evolution run: the order of METHOD.md §2's
 * phases, and a controller that runs them one after another with pause,
 * step-one-phase, step-one-batch and resume. It knows nothing about models
 * or storage: the engine injects what a phase does (runPhase) and how a
 * finished phase is made durable (commit), so the machine is tested alone.
 *
 * Pauses happen only at boundaries a phase can survive: before one of its
 * batches (the phase awaits gate.batch()) or between phases, after the
 * finished phase was committed.
 */
import type { PhaseCursor, PhaseName } from './records';
import { eventTurn } from '../learn/eventTurn';

const SEED_PHASES: readonly PhaseName[] = ['seed-data', 'sft-planner', 'sft-grounder', 'evaluate'];
const ITERATION_PHASES: readonly PhaseName[] = ['planner-grpo', 'distill', 'grounder-train', 'evaluate'];

/** Every phase of a run in order: the seed phases at iteration 0, then four phases for each k = 1..K. */
export function phasePlan(cfg: { iterations: number }): PhaseCursor[] {
  const k = cfg.iterations;
  if (!Number.isInteger(k) || k < 0) throw new RangeError(`phasePlan: iterations must be an integer ≥ 0; got ${k}`);
  const plan: PhaseCursor[] = SEED_PHASES.map((phase) => ({ iteration: 0, phase }));
  for (let i = 1; i <= k; i++) for (const phase of ITERATION_PHASES) plan.push({ iteration: i, phase });
  return plan;
}

export function sameCursor(a: PhaseCursor, b: PhaseCursor): boolean {
  return a.iteration === b.iteration && a.phase === b.phase;
}

export function describeCursor(c: PhaseCursor): string {
  return `${c.phase} of iteration ${c.iteration}`;
}

/** Position of the cursor in the plan; throws when the plan has no such phase. */
export function cursorIndex(plan: readonly PhaseCursor[], cursor: PhaseCursor): number {
  const i = plan.findIndex((c) => sameCursor(c, cursor));
  if (i < 0) throw new RangeError(`This run has no phase ${describeCursor(cursor)} (it has ${plan.length} phases up to iteration ${plan[plan.length - 1]?.iteration ?? 0}).`);
  return i;
}

/** The phase after `cursor`, or null when it was the last. */
export function nextCursor(plan: readonly PhaseCursor[], cursor: PhaseCursor): PhaseCursor | null {
  return plan[cursorIndex(plan, cursor) + 1] ?? null;
}

export type MachineState = 'idle' | 'running' | 'paused' | 'done' | 'failed';

/** A phase awaits batch() before each of its batches; it blocks while the machine is paused. */
export interface BatchGate {
  /**
   * `beforePause` runs when the gate is about to block, before the machine
   * says it is paused (a pause asked for while the gate yields to the event
   * loop is seen only inside batch(), so a check made before it can miss it).
   */
  batch(beforePause?: () => Promise<void>): Promise<void>;
  /** Whether the next batch() will block (a pause was asked for): the moment to save the phase's progress. */
  willPause?(): boolean;
}

export type RunPhase = (cursor: PhaseCursor, gate: BatchGate, signal: AbortSignal) => Promise<void>;
/** Makes the finished phase's outputs durable and records `next` (null: the run is done) as where to resume. */
export type CommitPhase = (finished: PhaseCursor, next: PhaseCursor | null) => Promise<void>;

export type MachineEvent =
  | { type: 'phase-start'; cursor: PhaseCursor; index: number; total: number }
  /** Sent after the phase's commit succeeded. */
  | { type: 'phase-end'; cursor: PhaseCursor; index: number; total: number; batches: number }
  /** at 'batch': inside `cursor` before its next batch; at 'phase': before `cursor` starts. */
  | { type: 'paused'; cursor: PhaseCursor; at: 'batch' | 'phase'; /** batches of `cursor` already through */ batches: number }
  | { type: 'resumed'; cursor: PhaseCursor; mode: ResumeMode }
  | { type: 'done' }
  | { type: 'failed'; cursor: PhaseCursor; error: Error };

export type ResumeMode = 'run' | 'phase' | 'batch';

export interface PhaseMachineOptions {
  iterations: number;
  runPhase: RunPhase;
  commit: CommitPhase;
  /** Called synchronously at each transition; an error it throws is reported, not fatal. */
  onEvent?: (e: MachineEvent) => void;
  /** The next phase to run, as last committed; undefined starts at the beginning, null means the run is finished. */
  start?: PhaseCursor | null;
}

export class AbortedError extends Error {
  constructor(message = 'The run was stopped.') {
    super(message);
    this.name = 'AbortedError';
  }
}

export class PhaseMachine {
  readonly plan: readonly PhaseCursor[];
  private readonly opts: PhaseMachineOptions;
  private index: number;
  private _state: MachineState;
  private _error: Error | null = null;
  private inPhase = false;
  private batches = 0;
  private looping = false;
  private readonly abortController = new AbortController();
  /** Stop at the next batch boundary (after `credits` more batches have passed). */
  private pauseAtBatch = false;
  private credits = 0;
  /** Stop at the next phase boundary. */
  private pauseAtPhase = false;
  private release: { resolve: () => void; reject: (e: Error) => void } | null = null;
  private settleWaiters: ((s: MachineState) => void)[] = [];

  constructor(opts: PhaseMachineOptions) {
    this.opts = opts;
    this.plan = phasePlan({ iterations: opts.iterations });
    if (opts.start === null) {
      this.index = this.plan.length;
      this._state = 'done';
    } else {
      this.index = opts.start ? cursorIndex(this.plan, opts.start) : 0;
      this._state = 'idle';
    }
  }

  get state(): MachineState {
    return this._state;
  }

  get error(): Error | null {
    return this._error;
  }

  /** The phase running or paused in, or the next one to start; null when the run is done. */
  get cursor(): PhaseCursor | null {
    return this.plan[this.index] ?? null;
  }

  /** Run until done, paused by pause(), or failed; resolves with the state it stopped in. */
  run(): Promise<MachineState> {
    return this.go('run');
  }

  /** Finish the current phase (or run the next one, when between phases), then pause. */
  stepPhase(): Promise<MachineState> {
    return this.go('phase');
  }

  /** Let exactly one more batch through, then pause (at the next batch, or at the phase's end if it has no more). */
  stepBatch(): Promise<MachineState> {
    return this.go('batch');
  }

  resume(): Promise<MachineState> {
    return this.go('run');
  }

  /** Pause at the next batch or phase boundary. */
  pause(): void {
    if (this._state !== 'running') return;
    this.pauseAtBatch = true;
    this.credits = 0;
    this.pauseAtPhase = true;
  }

  /**
   * Stop for good: the phase's signal aborts, a blocked gate rejects, nothing
   * more is committed; the machine ends 'failed' with an AbortedError.
   */
  abort(reason = 'The run was stopped.'): void {
    if (this._state === 'done' || this._state === 'failed') return;
    const error = new AbortedError(reason);
    this.abortController.abort(error);
    if (this._state === 'idle') {
      this.fail(error);
      return;
    }
    // The loop ends once the phase has seen the abort; until then the machine counts as running, so settled() waits for it.
    this._state = 'running';
    const r = this.release;
    this.release = null;
    r?.reject(error);
  }

  /** Resolves when the machine is next not running (at once if it is not running now). */
  settled(): Promise<MachineState> {
    if (this._state !== 'running') return Promise.resolve(this._state);
    return new Promise((resolve) => this.settleWaiters.push(resolve));
  }

  private go(mode: ResumeMode): Promise<MachineState> {
    if (this._state === 'done' || this._state === 'failed') return Promise.resolve(this._state);
    this.pauseAtBatch = mode === 'batch';
    this.credits = mode === 'batch' ? 1 : 0;
    this.pauseAtPhase = mode !== 'run';
    const wasPaused = this._state === 'paused';
    this._state = 'running';
    if (wasPaused) {
      const r = this.release;
      this.release = null;
      this.emit({ type: 'resumed', cursor: this.plan[this.index], mode });
      r?.resolve();
    }
    if (!this.looping) void this.loop();
    return this.settled();
  }

  private setState(s: Exclude<MachineState, 'running'>): void {
    this._state = s;
    const waiters = this.settleWaiters;
    this.settleWaiters = [];
    for (const w of waiters) w(s);
  }

  // Like EventTarget: a throwing listener is reported, and the run goes on unharmed.
  private emit(e: MachineEvent): void {
    try {
      this.opts.onEvent?.(e);
    } catch (err) {
      queueMicrotask(() => {
        throw err;
      });
    }
  }

  private fail(error: Error): void {
    this._error = error;
    this.inPhase = false;
    this.setState('failed');
    this.emit({ type: 'failed', cursor: this.plan[Math.min(this.index, this.plan.length - 1)], error });
  }

  private block(at: 'batch' | 'phase'): Promise<void> {
    const cursor = this.plan[this.index];
    const wait = new Promise<void>((resolve, reject) => {
      this.release = { resolve, reject };
    });
    this.pauseAtBatch = false;
    this.pauseAtPhase = false;
    this.credits = 0;
    this.setState('paused');
    this.emit({ type: 'paused', cursor, at, batches: at === 'batch' ? this.batches : 0 });
    return wait;
  }

  private gateFor(phaseIndex: number): BatchGate {
    return {
      batch: async (beforePause) => {
        await eventTurn(); // so that pause, status and abort reach a worker in the middle of a phase
        if (!this.inPhase || this.index !== phaseIndex) {
          throw new Error(`gate.batch() was called for ${describeCursor(this.plan[phaseIndex])} after that phase ended.`);
        }
        const signal = this.abortController.signal;
        if (signal.aborted) throw signal.reason as Error;
        if (beforePause && this.pauseAtBatch && this.credits === 0) {
          await beforePause();
          // A resume or an abort may have come while it ran: the checks below see them.
          if (signal.aborted) throw signal.reason as Error;
        }
        if (this.pauseAtBatch) {
          if (this.credits > 0) this.credits--;
          else {
            await this.block('batch');
            // Released by stepBatch: this very batch is the one it lets through.
            if (this.pauseAtBatch && this.credits > 0) this.credits--;
          }
        }
        this.batches++;
      },
      willPause: () => this.pauseAtBatch && this.credits === 0,
    };
  }

  private async loop(): Promise<void> {
    this.looping = true;
    const signal = this.abortController.signal;
    try {
      while (this.index < this.plan.length) {
        if (signal.aborted) throw signal.reason as Error;
        const cursor = this.plan[this.index];
        const total = this.plan.length;
        this.inPhase = true;
        this.batches = 0;
        this.emit({ type: 'phase-start', cursor, index: this.index, total });
        await this.opts.runPhase(cursor, this.gateFor(this.index), signal);
        if (signal.aborted) throw signal.reason as Error;
        const next = this.plan[this.index + 1] ?? null;
        await this.opts.commit(cursor, next);
        this.inPhase = false;
        this.emit({ type: 'phase-end', cursor, index: this.index, total, batches: this.batches });
        this.index++;
        if (this.index < this.plan.length && this.pauseAtPhase) await this.block('phase');
      }
      this.setState('done');
      this.emit({ type: 'done' });
    } catch (e) {
      this.fail(e instanceof Error ? e : new Error(String(e)));
    } finally {
      this.looping = false;
    }
  }
}
