/**
 * The co-evolution runner: runs the phases of METHOD.md §2 in the order of
 * the phase machine, one phase function each (phases/), commits every
 * phase's outputs in one store transaction together with the run's next
 * cursor, and resumes a stored run at that cursor.
 *
 * Nothing a phase produces reaches the run state before its commit: a phase
 * returns its samples, checkpoints, metric points and new model, the commit
 * hook writes them (Store.commitPhase), and only then does the run state
 * take the model and samples. In between, the phase's journal saves its
 * progress before its batches (Store.putProgress), so a reload mid-phase
 * resumes it at the last save (phaseJournal.ts) and ends with what an
 * uninterrupted run ends with.
 *
 * The run record's config field holds scalars only, so the whole config is
 * kept as JSON under config.json (configOfRun reads it back), beside a flat
 * view of it (dotted keys, the reward pool as `name:prior,…`) for display.
 */
import { SHIPPED_BASE_PRESETS } from '../pretrain/baseTypes';
import type { Paint } from '../learn/stepCheck';
import type { BackendName, PhaseRecord, RunRecord } from '../store/schema';
import type { Store } from '../store/store';
import { ConfigError, validateConfig, type CoevoConfig } from './config';
import { cursorIndex, phasePlan, PhaseMachine, sameCursor, type BatchGate, type MachineEvent, type MachineState } from './machine';
import type { PhaseCursor, PhaseName } from './records';
import { RunState } from './runState';
import { phaseRandom, type BaseLoader, type PhaseOutput, type PhaseProgress, type RealScreenSource } from './phases/context';
import type { RealPageRenderer } from '../pretrain/realPool';
import { PHASE_RUNS } from './phases/index';
import { disposeParams } from '../models/params';
import { PhaseJournal, type JournalSnapshot } from './phaseJournal';

export type { Paint } from '../learn/stepCheck';

export interface RunnerDeps {
  store: Store;
  paint: Paint;
  device: { backend: string; adapter: string };
  /** The shipped base checkpoints, for runs with start = 'base'. */
  base?: BaseLoader;
  /** The real-screen suite for the evaluations (the page renders it); without it they skip those metrics. */
  realScreens?: RealScreenSource;
  /** Real training pages for the grounder's real-DOM mix (the page draws them); without them it trains on Dk alone. */
  realPages?: RealPageRenderer;
  /** The first error the GPU reported, if any: a phase that ran after one is not committed. */
  deviceFault?: () => string | null;
  /** A phase saves its progress at most this often (ms; default 0) ... */
  saveEveryMs?: number;
  /** ... and at most once per this many times the last save's duration (default SAVE_COST_RATIO; 0: before every batch). */
  saveCostRatio?: number;
}

export interface CoevoProgress {
  runId: string;
  state: MachineState;
  /** The iteration of the phase running or next (K when done). */
  iteration: number;
  /** The phase running or next; null when the run is done. */
  phase: PhaseName | null;
  /** Its position in the plan (phaseCount when done). */
  phaseIndex: number;
  phaseCount: number;
  /** Items of the phase done of total (0 of 0 before the phase reports). */
  done: number;
  total: number;
  /** Time the phase still needs at its pace so far (paused time not counted); null before its first item. */
  etaMs: number | null;
  loss?: number;
  reward?: number;
  error?: string;
  /** Batches of the phase restored from its last mid-phase save after a reload (absent or 0: it started afresh). */
  replayed?: number;
  /** Batches of the phase passed so far (replayed ones included). */
  batches?: number;
  /** Batches of the phase durably saved: where a reload now would take it up. */
  saved?: number;
  /** Set when this tab's worker drives the run (holds it), as opposed to showing it from the store. */
  drivenHere?: boolean;
  /** Set when another tab drives the run and this one only watches it (the driver's tab id and when it opened). */
  drivenElsewhere?: { tab: string; openedAt: string };
  /** Set when the tab that drove the run has gone: this tab may take it over. */
  driverGone?: boolean;
  /** Something the engine did to the run that a person should know (it went on without a lost GPU, say). */
  notice?: string;
}

const BACKENDS: readonly BackendName[] = ['webgpu', 'wasm', 'cpu'];

function backendName(backend: string): BackendName {
  const b = BACKENDS.find((x) => x === backend);
  if (!b) throw new Error(`Unknown backend '${backend}'; a co-evolution run records one of ${BACKENDS.join(', ')}.`);
  return b;
}

/** The run record's config: every scalar field under its dotted name, the pool as text, and the whole config as JSON. */
export function configRecord(config: CoevoConfig): RunRecord['config'] {
  const flat: RunRecord['config'] = {};
  for (const [key, value] of Object.entries(config)) {
    if (key === 'rewardPool') flat[key] = config.rewardPool.map((e) => `${e.name}:${e.prior}`).join(',');
    else if (typeof value === 'object' && value !== null) for (const [k, v] of Object.entries(value as Record<string, number | string | boolean>)) flat[`${key}.${k}`] = v;
    else flat[key] = value as number | string | boolean;
  }
  return { ...flat, json: JSON.stringify(config) };
}

/** The config a co-evolution run was started with (from its config.json), validated. */
export function configOfRun(run: RunRecord): CoevoConfig {
  if (run.kind !== 'coevo') throw new Error(`Run ${run.id} is a ${run.kind} run, not a co-evolution run.`);
  const json = run.config.json;
  if (typeof json !== 'string') throw new Error(`Run ${run.id} has no stored co-evolution config (config.json); it cannot be resumed.`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    throw new Error(`Run ${run.id} has a damaged config (config.json is not JSON); it cannot be resumed.`);
  }
  return validateConfig(parsed);
}

/** What validateConfig cannot know: the checks that need the engine (`from`: the next phase; null when the run is done). */
function checkRunnable(config: CoevoConfig, deps: RunnerDeps, from: PhaseCursor | null): void {
  if (config.iterations >= 1 && !config.rewardPool.some((e) => e.name !== 'previous')) {
    throw new ConfigError('rewardPool', "rewardPool must list 'verifier' or 'current' too: 'previous' alone is empty at iteration 1, where no earlier grounder exists.");
  }
  const generationZeroAhead = from !== null && from.iteration === 0 && from.phase !== 'evaluate';
  if (config.start === 'base' && generationZeroAhead && !deps.base) {
    throw new ConfigError('start', "start is 'base', but this engine ships no base checkpoints; set start=scratch.");
  }
  if (config.start === 'base' && generationZeroAhead && !SHIPPED_BASE_PRESETS.some((p) => p === config.preset)) {
    throw new ConfigError('start', `start is 'base', but no base models ship for preset '${config.preset}'; set start=scratch, or make them with npm run pretrain -- --preset ${config.preset}.`);
  }
}

/** Why a phase's results (or progress) after a GPU error were not kept, and what a person can do. */
function deviceFaultError(cursor: PhaseCursor, fault: string): Error {
  return new Error(
    `The GPU reported an error while ${cursor.phase} (iteration ${cursor.iteration}) ran, so its results cannot be trusted and were not kept: ${fault}. ` +
      'The run stays at its last save; reload the page, or continue on the CPU fallback (?backend=wasm).',
  );
}

interface Pending {
  cursor: PhaseCursor;
  output: PhaseOutput;
  startedAt: number;
  activeMs: number;
}

function freeOutput(o: PhaseOutput): void {
  if (o.planner) disposeParams(o.planner);
  if (o.grounder) disposeParams(o.grounder);
}

export class CoevoRunner {
  readonly runId: string;
  readonly config: CoevoConfig;
  private readonly deps: RunnerDeps;
  private readonly state: RunState;
  private readonly machine: PhaseMachine;
  private readonly plan: readonly PhaseCursor[];
  private readonly listeners = new Set<(p: CoevoProgress) => void>();
  private snapshot: CoevoProgress;
  private pending: Pending | null = null;
  private phaseStartedAt = 0;
  private clock = { start: 0, paused: 0, pausedAt: null as number | null };
  private disposal: Promise<void> | null = null;
  /** Set by dispose() before it stops the machine: the failure that follows is an unload, not the run's. */
  private unloading = false;
  /** The latest write of the run's status, awaited before run() and the step methods resolve. */
  private statusWrite: Promise<void> = Promise.resolve();
  /** The journal of the phase running (its batch count goes into the progress). */
  private journal: PhaseJournal | null = null;
  /** The run record's status as last written, so that a pause or a resume is written once. */
  private recordStatus: RunRecord['status'] = 'running';

  private constructor(deps: RunnerDeps, config: CoevoConfig, runId: string, state: RunState, start: PhaseCursor | null) {
    this.deps = deps;
    this.config = config;
    this.runId = runId;
    this.state = state;
    this.plan = phasePlan(config);
    this.machine = new PhaseMachine({
      iterations: config.iterations,
      start,
      runPhase: (cursor, gate, signal) => this.runPhase(cursor, gate, signal),
      commit: (finished, next) => this.commit(finished, next),
      onEvent: (e) => this.onEvent(e),
    });
    const index = start ? cursorIndex(this.plan, start) : this.plan.length;
    this.snapshot = {
      runId,
      state: this.machine.state,
      iteration: start ? start.iteration : config.iterations,
      phase: start ? start.phase : null,
      phaseIndex: index,
      phaseCount: this.plan.length,
      done: 0,
      total: 0,
      etaMs: null,
    };
  }

  /** Validates the config, stores a new run at its first phase (status 'paused' when it is to wait for a person), and returns its (idle) runner. */
  static async create(deps: RunnerDeps, config: CoevoConfig, name?: string, paused = false): Promise<CoevoRunner> {
    const cfg = validateConfig(config);
    const first = phasePlan(cfg)[0];
    checkRunnable(cfg, deps, first);
    const run: RunRecord = {
      id: `coevo-${crypto.randomUUID()}`,
      kind: 'coevo',
      name: name ?? `Co-evolution, ${cfg.preset}, K = ${cfg.iterations}, seed ${cfg.seed}`,
      createdAt: Date.now(),
      status: paused ? 'paused' : 'running',
      backend: backendName(deps.device.backend),
      seed: cfg.seed,
      config: configRecord(cfg),
      cursor: first,
    };
    await deps.store.putRun(run);
    const runner = new CoevoRunner(deps, cfg, run.id, new RunState(cfg), first);
    runner.recordStatus = run.status;
    return runner;
  }

  /**
   * The runner of a stored run, at the phase after the last committed one:
   * the latest committed checkpoints become its models, the stored samples
   * its datasets; the phase it was in continues from its last mid-phase
   * save. A run that had failed or been stopped is marked running again; a
   * finished one comes back done.
   */
  static async resume(deps: RunnerDeps, runId: string): Promise<CoevoRunner> {
    const run = await deps.store.getRun(runId);
    if (!run) throw new Error(`No run with id ${runId} is stored, so there is nothing to resume.`);
    const cfg = configOfRun(run);
    const plan = phasePlan(cfg);
    const start = run.status === 'done' ? null : (run.cursor ?? plan[0]);
    if (start) cursorIndex(plan, start); // a cursor outside the plan is a damaged record: say so now
    checkRunnable(cfg, deps, start);
    const state = await RunState.load(deps.store, runId, cfg, start);
    if (run.status === 'failed') {
      try {
        await deps.store.updateRun(runId, { status: 'running', error: undefined });
      } catch (e) {
        state.dispose();
        throw e;
      }
    }
    const runner = new CoevoRunner(deps, cfg, runId, state, start);
    runner.recordStatus = run.status === 'failed' ? 'running' : run.status;
    return runner;
  }

  progress(): CoevoProgress {
    return { ...this.snapshot };
  }

  /** Resolves once the run record says what progress() says (running, paused or failed): a reload then does what the page showed. */
  async statusStored(): Promise<void> {
    await this.statusWrite;
  }

  onProgress(listener: (p: CoevoProgress) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Runs to the end (or until paused or failed); resolves with the state it stopped in. */
  run(): Promise<MachineState> {
    return this.settle(this.machine.run());
  }

  /** Pauses at the next batch or phase boundary. */
  pause(): void {
    this.machine.pause();
  }

  /** Finishes the current phase (or runs the next), then pauses. */
  stepPhase(): Promise<MachineState> {
    return this.settle(this.machine.stepPhase());
  }

  /** Lets one more batch through, then pauses. */
  stepBatch(): Promise<MachineState> {
    return this.settle(this.machine.stepBatch());
  }

  resume(): Promise<MachineState> {
    return this.settle(this.machine.resume());
  }

  /** Stops the run for good: the phase in flight is dropped and the run is marked failed with `reason`. */
  abort(reason = 'The run was stopped.'): void {
    this.machine.abort(reason);
  }

  /**
   * Stops the run without marking it (a later CoevoRunner.resume continues
   * it) and frees every tensor: at once when no phase is computing,
   * otherwise as soon as the phase in flight has stopped; whenDisposed()
   * resolves then.
   */
  dispose(): void {
    if (this.disposal) return;
    this.unloading = true;
    this.listeners.clear();
    this.machine.abort('The run was unloaded; resume it to continue.');
    this.disposal = this.machine.settled().then(() => {
      if (this.pending) freeOutput(this.pending.output);
      this.pending = null;
      this.state.dispose();
    });
  }

  /** Resolves when dispose() has freed every tensor of this runner. */
  whenDisposed(): Promise<void> {
    if (!this.disposal) return Promise.reject(new Error('whenDisposed() was called before dispose().'));
    return this.disposal;
  }

  /** The machine's answer, once the run record says the same (a failure's status is written by then). */
  private async settle(state: Promise<MachineState>): Promise<MachineState> {
    const s = await state;
    await this.statusWrite;
    return s;
  }

  private emit(): void {
    const p = this.progress();
    for (const l of this.listeners) {
      try {
        l(p);
      } catch (err) {
        // A broken listener must not break the run; report it the way EventTarget does.
        queueMicrotask(() => {
          throw err;
        });
      }
    }
  }

  private activeMs(now = performance.now()): number {
    const c = this.clock;
    return now - c.start - c.paused - (c.pausedAt === null ? 0 : now - c.pausedAt);
  }

  private onPhaseProgress(p: PhaseProgress): void {
    const done = Math.max(0, Math.min(p.done, p.total));
    const active = this.activeMs();
    this.snapshot = {
      ...this.snapshot,
      done,
      total: p.total,
      etaMs: done > 0 ? (active / done) * (p.total - done) : null,
      loss: p.loss ?? this.snapshot.loss,
      reward: p.reward ?? this.snapshot.reward,
      batches: this.journal?.batches,
      saved: this.journal?.saved,
    };
    this.emit();
  }

  /**
   * Writes 'paused' or 'running' to the run record when the machine moves
   * between them, so the record always tells whether the run waits for a
   * person (a reload leaves it waiting) or is to be driven on (a reload
   * continues it). Writes go one after another; a failed one is retried by
   * the next change.
   */
  private markStatus(status: 'running' | 'paused'): void {
    if (this.unloading || this.recordStatus === status) return;
    this.recordStatus = status;
    this.statusWrite = this.statusWrite
      .then(() => this.deps.store.updateRun(this.runId, { status }))
      .then(
        () => undefined,
        () => {
          this.recordStatus = status === 'paused' ? 'running' : 'paused';
        },
      );
  }

  private onEvent(e: MachineEvent): void {
    const now = performance.now();
    const state = this.machine.state;
    if (e.type === 'paused') this.markStatus('paused');
    else if (e.type === 'resumed' || (e.type === 'phase-start' && state === 'running')) this.markStatus('running');
    switch (e.type) {
      case 'phase-start':
        this.phaseStartedAt = Date.now();
        this.clock = { start: now, paused: 0, pausedAt: null };
        this.snapshot = { runId: this.runId, state, iteration: e.cursor.iteration, phase: e.cursor.phase, phaseIndex: e.index, phaseCount: e.total, done: 0, total: 0, etaMs: null };
        break;
      case 'phase-end':
        this.snapshot = { ...this.snapshot, state, done: this.snapshot.total, etaMs: 0 };
        break;
      case 'paused':
        if (this.clock.pausedAt === null) this.clock.pausedAt = now;
        if (e.at === 'phase') {
          const index = cursorIndex(this.plan, e.cursor);
          this.snapshot = { runId: this.runId, state, iteration: e.cursor.iteration, phase: e.cursor.phase, phaseIndex: index, phaseCount: this.plan.length, done: 0, total: 0, etaMs: null };
        } else this.snapshot = { ...this.snapshot, state };
        break;
      case 'resumed':
        if (this.clock.pausedAt !== null) this.clock.paused += now - this.clock.pausedAt;
        this.clock.pausedAt = null;
        this.snapshot = { ...this.snapshot, state };
        break;
      case 'done':
        this.snapshot = { ...this.snapshot, state, iteration: this.config.iterations, phase: null, phaseIndex: this.plan.length, etaMs: null };
        break;
      case 'failed':
        this.snapshot = { ...this.snapshot, state, etaMs: null, error: e.error.message };
        if (!this.unloading) {
          if (this.pending) freeOutput(this.pending.output);
          this.pending = null;
          // Best effort: the run stays resumable whether or not this write lands.
          this.recordStatus = 'failed';
          this.statusWrite = this.statusWrite
            .then(() => this.deps.store.updateRun(this.runId, { status: 'failed', error: e.error.message, finishedAt: Date.now() }))
            .then(() => undefined, () => undefined);
        }
        break;
    }
    if (!this.unloading) this.emit();
  }

  /** The journal of a phase about to run: continuing its saved progress, if the store holds some for it. */
  private async journalFor(cursor: PhaseCursor, gate: BatchGate): Promise<{ journal: PhaseJournal; startedAt: number; activeMs: number }> {
    const saved = await this.deps.store.getProgress(this.runId);
    const resume = saved && sameCursor(saved, cursor) ? saved : null;
    const startedAt = resume?.startedAt ?? this.phaseStartedAt;
    const before = resume?.activeMs ?? 0;
    const save = async (s: JournalSnapshot) => {
      const fault = this.deps.deviceFault?.() ?? null;
      // A save after a GPU error would make the error's results the point a reload continues from.
      if (fault) throw deviceFaultError(cursor, fault);
      await this.deps.store.putProgress({ runId: this.runId, iteration: cursor.iteration, phase: cursor.phase, ...s, startedAt, activeMs: before + this.activeMs(), savedAt: Date.now() });
    };
    const options = { gate, save, saveEveryMs: this.deps.saveEveryMs, saveCostRatio: this.deps.saveCostRatio };
    let journal: PhaseJournal;
    try {
      journal = new PhaseJournal({ ...options, resume });
    } catch {
      // A damaged save is no worse than none: the phase starts over, as it did before saves existed.
      journal = new PhaseJournal(options);
    }
    this.journal = journal;
    if (journal.replayed > 0) {
      this.snapshot = { ...this.snapshot, replayed: journal.replayed };
      this.emit();
    }
    return { journal, startedAt, activeMs: before };
  }

  private async runPhase(cursor: PhaseCursor, gate: BatchGate, signal: AbortSignal): Promise<void> {
    const { journal, startedAt, activeMs } = await this.journalFor(cursor, gate);
    const output = await PHASE_RUNS[cursor.phase]({
      runId: this.runId,
      config: this.config,
      iteration: cursor.iteration,
      phase: cursor.phase,
      state: this.state,
      paint: this.deps.paint,
      rng: phaseRandom(this.config.seed, cursor.iteration, cursor.phase),
      journal,
      signal,
      report: (p) => this.onPhaseProgress(p),
      base: this.deps.base,
      realScreens: this.deps.realScreens,
      realPages: this.deps.realPages,
    });
    if (signal.aborted) {
      freeOutput(output);
      return;
    }
    this.pending = { cursor, output, startedAt, activeMs: activeMs + this.activeMs() };
  }

  private async commit(finished: PhaseCursor, next: PhaseCursor | null): Promise<void> {
    const pending = this.pending;
    this.pending = null;
    if (!pending || !sameCursor(pending.cursor, finished)) throw new Error(`Internal error: no outputs of ${finished.phase} (iteration ${finished.iteration}) to commit.`);
    const { output } = pending;
    const fault = this.deps.deviceFault?.() ?? null;
    if (fault) {
      freeOutput(output);
      throw deviceFaultError(finished, fault);
    }
    // A status write still in flight must not land after (and over) this commit's.
    await this.statusWrite;
    const finishedAt = Date.now();
    const phase: PhaseRecord = {
      runId: this.runId,
      index: cursorIndex(this.plan, finished),
      iteration: finished.iteration,
      phase: finished.phase,
      startedAt: pending.startedAt,
      finishedAt,
      summary: { ...output.summary, active_seconds: pending.activeMs / 1000 },
    };
    try {
      await this.deps.store.commitPhase(this.runId, {
        phase,
        samples: output.samples,
        checkpoints: output.checkpoints,
        metrics: output.metrics,
        groups: output.groups,
        runPatch: next ? { cursor: next, status: 'running' } : { status: 'done', finishedAt },
      });
    } catch (e) {
      freeOutput(output);
      throw e;
    }
    this.recordStatus = next ? 'running' : 'done';
    this.state.install(finished.iteration, { samples: output.samples, metrics: output.metrics, planner: output.planner, grounder: output.grounder });
  }
}
