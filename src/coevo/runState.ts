/**
 * The in-memory side of a co-evolution run: the planner and grounder
 * generations the next phases need, every sample of the datasets D0, E1 … Ek,
 * where each metric series has got to, and caches of what the world rebuilds
 * (planner states of a task, the benchmark suites).
 *
 * Everything here is either committed in the store or rebuilt from it
 * (RunState.load), so a reloaded run holds exactly what an uninterrupted run
 * held at the same cursor. Phases only read it; the runner installs a
 * phase's outputs (install) after the store committed them.
 */
import { configJson, exportCheckpoint, importCheckpoint, type ModelConfig } from '../models/checkpoint';
import type { GrounderConfig } from '../models/grounder';
import { disposeParams, type ParamMap, type Params } from '../models/params';
import type { PlannerConfig } from '../models/planner';
import { grounderPreset, plannerPreset } from '../models/presets';
import { plannerStatesOfTask, type PlannerState } from '../learn/plannerStates';
import { probeSet, type ProbeSet } from '../learn/readingProbe';
import type { CheckpointRecord } from '../store/schema';
import type { MetricPoints, Store } from '../store/store';
import type { Tokenizer } from '../text/tokenizer';
import { defaultTokenizer } from '../text/vocab';
import { buildSuites, type Suites, type SuiteSizes } from '../world/suites';
import type { Task } from '../world/types';
import type { CoevoConfig } from './config';
import { describeCursor } from './machine';
import { POOL_GENERATIONS, type Generation, type GrounderModel } from './pools';
import type { PhaseCursor, StepSample } from './records';

export type ModelName = 'planner' | 'grounder';

/** The checkpoint of `model` after iteration k: `${runId}/${model}@${k}`. */
export function checkpointId(runId: string, model: ModelName, iteration: number): string {
  return `${runId}/${model}@${iteration}`;
}

/** A checkpoint record of the weights (safetensors bytes), ready for Store.commitPhase. */
export async function checkpointRecord(runId: string, model: ModelName, iteration: number, params: ParamMap, cfg: ModelConfig): Promise<CheckpointRecord> {
  const bytes = await exportCheckpoint(params, cfg);
  return {
    id: checkpointId(runId, model, iteration),
    runId,
    model,
    iteration,
    createdAt: Date.now(),
    config: { model: cfg.model, json: configJson(cfg) },
    weights: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer,
  };
}

/**
 * The newest generation of each model that exists once the phases before
 * `cursor` are committed (-1: none yet); null cursor = the finished run of
 * K iterations.
 */
export function committedGenerations(cursor: PhaseCursor | null, iterations: number): Record<ModelName, number> {
  if (cursor === null) return { planner: iterations, grounder: iterations };
  const { iteration: k, phase } = cursor;
  if (k === 0) {
    const planner = phase === 'seed-data' || phase === 'sft-planner' ? -1 : 0;
    const grounder = phase === 'evaluate' ? 0 : -1;
    return { planner, grounder };
  }
  return { planner: phase === 'planner-grpo' ? k - 1 : k, grounder: phase === 'evaluate' ? k : k - 1 };
}

/** What a committed phase adds to the run state. */
export interface PhaseYield {
  samples?: readonly StepSample[];
  metrics?: readonly MetricPoints[];
  /** The planner of this iteration, now owned by the state. */
  planner?: Params;
  /** The grounder of this iteration, now owned by the state. */
  grounder?: Params;
}

/** Position of a sample in its dataset: the n of `${runId}/${iteration}/${n}`. */
function sampleNumber(s: StepSample): number {
  const n = Number(s.id.slice(s.id.lastIndexOf('/') + 1));
  return Number.isFinite(n) ? n : 0;
}

/** The store's order (iteration, then sample number), so a reloaded state lists samples as a live one does. */
function sortSamples(samples: StepSample[]): StepSample[] {
  return samples.sort((a, b) => a.iteration - b.iteration || sampleNumber(a) - sampleNumber(b));
}

/** Online episodes per platform in an evaluation: `onlineEpisodes`, or with 0 one per 8 of evalSize (at least 1). */
export function onlinePerPlatform(evalSize: number, onlineEpisodes: number): number {
  return onlineEpisodes > 0 ? onlineEpisodes : Math.max(1, Math.round(evalSize / 8));
}

/** Tasks per web split and in the mobile suite that the offline figures use: half of evalSize (a task has several steps). */
export function offlineTasks(evalSize: number): number {
  return Math.max(1, Math.round(evalSize / 2));
}

/**
 * The suite sizes of an evaluation of `evalSize` items per split: the web
 * splits and the mobile suite get offlineTasks(evalSize) tasks, or more
 * where the online episodes need them (web episodes go round the three
 * splits), the grounding splits evalSize queries each. Suites are drawn in
 * order, so a larger one starts with the smaller one's tasks.
 */
export function suiteSizes(evalSize: number, online = onlinePerPlatform(evalSize, 0)): SuiteSizes {
  const tasks = offlineTasks(evalSize);
  return { webPerSplit: Math.max(tasks, Math.ceil(online / 3)), mobile: Math.max(tasks, online), groundingPerSplit: evalSize };
}

export class RunState {
  readonly tok: Tokenizer;
  readonly plannerCfg: PlannerConfig;
  readonly grounderCfg: GrounderConfig;
  private planners: Generation<Params>[] = [];
  private grounders: Generation<Params>[] = [];
  private samples: StepSample[] = [];
  private seriesEnd = new Map<string, number>();
  private statesByTask = new Map<string, PlannerState[]>();
  private suitesCache: Suites | null = null;
  private probeCache: ProbeSet | null = null;
  private disposed = false;

  constructor(readonly config: CoevoConfig) {
    this.tok = defaultTokenizer();
    // Without marks or gate the config carries no goalMarks or copyGate key, as checkpoints written before them have none.
    const { goalMarks: _marks, copyGate: _gate, ...plain } = plannerPreset(config.preset, this.tok.size);
    this.plannerCfg = { ...plain, ...(config.plannerGoalMarks ? { goalMarks: true } : {}), ...(config.plannerCopyGate ? { copyGate: true } : {}) };
    this.grounderCfg = grounderPreset(config.preset, this.tok.size);
  }

  /**
   * The state of a stored run about to run `cursor` (null: finished): every
   * sample, where each metric series ends, and the latest POOL_GENERATIONS
   * checkpoints of each model up to the newest the committed phases made.
   */
  static async load(store: Store, runId: string, config: CoevoConfig, cursor: PhaseCursor | null): Promise<RunState> {
    const state = new RunState(config);
    try {
      const [samples, metrics, checkpoints] = await Promise.all([store.getSamples(runId), store.getMetrics(runId), store.listCheckpoints(runId)]);
      state.samples = sortSamples(samples);
      for (const m of metrics) state.seriesEnd.set(m.name, m.steps.length > 0 ? m.steps[m.steps.length - 1] : 0);
      const newest = committedGenerations(cursor, config.iterations);
      const where = cursor ? `before ${describeCursor(cursor)}` : 'at its end';
      for (const model of ['planner', 'grounder'] as const) {
        if (newest[model] < 0) continue;
        const mine = checkpoints.filter((c) => c.model === model && c.iteration <= newest[model]);
        if (!mine.some((c) => c.iteration === newest[model])) {
          throw new Error(
            `Run ${runId} has no ${model} checkpoint of iteration ${newest[model]}, which its phases ${where} should have saved; ` +
              'the stored run is incomplete, so start a new run (or import a complete export of this one).',
          );
        }
        for (const c of mine.slice(-POOL_GENERATIONS)) {
          const { config: cfg, params } = importCheckpoint(new Uint8Array(c.weights));
          const into = model === 'planner' ? state.planners : state.grounders;
          into.push({ iteration: c.iteration, model: params });
          const want = model === 'planner' ? state.plannerCfg : state.grounderCfg;
          if (configJson(cfg) !== configJson(want)) {
            throw new Error(`Checkpoint ${c.id} holds a ${model} of another size than the run's preset '${config.preset}'; the stored run is inconsistent, so start a new run.`);
          }
        }
      }
      return state;
    } catch (e) {
      state.dispose();
      throw e;
    }
  }

  private held(model: ModelName): Generation<Params>[] {
    if (this.disposed) throw new Error('This run state was disposed; resume the run to get a new one.');
    return model === 'planner' ? this.planners : this.grounders;
  }

  has(model: ModelName, iteration: number): boolean {
    return this.held(model).some((g) => g.iteration === iteration);
  }

  /** The weights of `model` after `iteration`; throws when this state does not hold them. */
  model(model: ModelName, iteration: number): Params {
    const g = this.held(model).find((x) => x.iteration === iteration);
    if (!g) {
      const have = this.held(model).map((x) => x.iteration);
      throw new Error(`The run holds no ${model} of iteration ${iteration} (it holds ${have.length ? have.join(', ') : 'none'}); run the phases that train it first.`);
    }
    return g.model;
  }

  /** The grounder generations held, as verifierPool takes them. */
  grounderGenerations(): Generation<GrounderModel>[] {
    return this.held('grounder').map((g) => ({ iteration: g.iteration, model: { params: g.model, cfg: this.grounderCfg } }));
  }

  /** Every sample (kept and dropped) of iterations ≤ k, in dataset order. */
  samplesUpTo(k: number): StepSample[] {
    return this.samples.filter((s) => s.iteration <= k);
  }

  /** The last step of a metric series (0 when it has none): a phase's points continue after it. */
  seriesLast(name: string): number {
    return this.seriesEnd.get(name) ?? 0;
  }

  /** Every oracle step of the task as a planner state (cached by task id). */
  statesOf(task: Task): PlannerState[] {
    let states = this.statesByTask.get(task.id);
    if (!states) this.statesByTask.set(task.id, (states = plannerStatesOfTask(task)));
    return states;
  }

  /** The planner state a sample was written for (its screen, prompt and oracle step). */
  stateOf(sample: StepSample): PlannerState {
    const state = this.statesOf(sample.task)[sample.stepIndex];
    if (!state) throw new Error(`Sample ${sample.id} names step ${sample.stepIndex} of task ${sample.task.id}, which has no such step.`);
    return state;
  }

  /**
   * The suites every evaluation of this run uses, the same for every k.
   * buildSuites draws only held-out tasks (seeds ≥ TEST_SEED_BASE) whatever
   * its seed; the run's seed picks which.
   */
  suites(): Suites {
    return (this.suitesCache ??= buildSuites(this.config.seed, suiteSizes(this.config.evalSize, onlinePerPlatform(this.config.evalSize, this.config.onlineEpisodes))));
  }

  /** The reading probe's held-out screens and per-style items, from the run's seed: evalSize / 2 screens, as many items per style. */
  probe(): ProbeSet {
    const n = Math.max(1, Math.round(this.config.evalSize / 2));
    return (this.probeCache ??= probeSet(this.config.seed, n, n));
  }

  /** Takes in a committed phase's outputs; models beyond the latest POOL_GENERATIONS are freed. */
  install(iteration: number, y: PhaseYield): void {
    if (this.disposed) {
      if (y.planner) disposeParams(y.planner);
      if (y.grounder) disposeParams(y.grounder);
      return;
    }
    if (y.planner) this.planners = this.keep(this.planners, iteration, y.planner);
    if (y.grounder) this.grounders = this.keep(this.grounders, iteration, y.grounder);
    if (y.samples?.length) {
      const ids = new Set(y.samples.map((s) => s.id));
      this.samples = sortSamples([...this.samples.filter((s) => !ids.has(s.id)), ...y.samples]);
    }
    for (const m of y.metrics ?? []) if (m.steps.length > 0) this.seriesEnd.set(m.name, m.steps[m.steps.length - 1]);
  }

  private keep(gens: Generation<Params>[], iteration: number, params: Params): Generation<Params>[] {
    for (const g of gens) if (g.iteration === iteration && g.model !== params) disposeParams(g.model);
    const all = [...gens.filter((g) => g.iteration !== iteration), { iteration, model: params }].sort((a, b) => a.iteration - b.iteration);
    const drop = all.slice(0, Math.max(0, all.length - POOL_GENERATIONS));
    for (const g of drop) disposeParams(g.model);
    return all.slice(drop.length);
  }

  /** Frees every model this state holds. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    for (const g of [...this.planners, ...this.grounders]) disposeParams(g.model);
    this.planners = [];
    this.grounders = [];
  }
}
