/**
 * The models the lab's inspection views ask about: a run's planner or
 * grounder of some iteration, loaded from its stored checkpoint, or, when
 * there is no run, the base model that ships for the preset (public/base/)
 * or else a freshly initialised ("untrained") one of the preset. A few are
 * kept loaded (least recently used go first), and a model in use by a
 * request is never freed under it.
 */
import type { ModelName } from '../src/coevo/runState';
import { checkpointId } from '../src/coevo/runState';
import { configOfRun } from '../src/coevo/runner';
import { importCheckpoint } from '../src/models/checkpoint';
import { initGrounder, type GrounderConfig } from '../src/models/grounder';
import { disposeParams, type Params } from '../src/models/params';
import { initPlanner, type PlannerConfig } from '../src/models/planner';
import { grounderPreset, plannerPreset, PRESET_NAMES, type PresetName } from '../src/models/presets';
import { hashString, Random } from '../src/learn/random';
import type { Store } from '../src/store/store';
import type { CheckpointRecord } from '../src/store/schema';
import type { BaseLoader } from '../src/coevo/phases/context';
import { baseShips } from '../src/pretrain/baseTypes';
import type { InspectModel, ModelChoice } from './api';

type ConfigOf<M extends ModelName> = M extends 'planner' ? PlannerConfig : GrounderConfig;

export interface HeldModel<M extends ModelName> {
  params: Params;
  cfg: ConfigOf<M>;
  about: InspectModel;
  /** Lets the cache free it again; call once the request is done with it. */
  release(): void;
}

interface Entry {
  params: Params;
  cfg: PlannerConfig | GrounderConfig;
  users: number;
  used: number;
}

const SYMBOL: Record<ModelName, string> = { planner: 'π', grounder: 'φ' };

/** `base`: where the shipped base models are read from; without it, a run-less request gets untrained models. */
export function createModelCache(store: () => Promise<Store>, capacity = 4, base?: BaseLoader) {
  const entries = new Map<string, Entry>();
  let clock = 0;

  function evict(): void {
    const idle = [...entries].filter(([, e]) => e.users === 0).sort((a, b) => a[1].used - b[1].used);
    for (const [key, e] of idle) {
      if (entries.size <= capacity) break;
      disposeParams(e.params);
      entries.delete(key);
    }
  }

  const pending = new Map<string, Promise<{ params: Params; cfg: PlannerConfig | GrounderConfig }>>();

  async function hold<M extends ModelName>(key: string, about: InspectModel, make: () => Promise<{ params: Params; cfg: ConfigOf<M> }>): Promise<HeldModel<M>> {
    let e = entries.get(key);
    if (!e) {
      // Two requests for the same model share one load.
      let loading = pending.get(key);
      if (!loading) {
        loading = make().finally(() => pending.delete(key));
        pending.set(key, loading);
      }
      const made = await loading;
      e = entries.get(key);
      if (!e) entries.set(key, (e = { params: made.params, cfg: made.cfg, users: 0, used: 0 }));
    }
    const entry = e;
    entry.users++;
    entry.used = ++clock;
    evict();
    let released = false;
    return {
      params: entry.params,
      cfg: entry.cfg as ConfigOf<M>,
      about,
      release() {
        if (released) return;
        released = true;
        entry.users--;
        evict();
      },
    };
  }

  function untrained<M extends ModelName>(model: M, preset: PresetName): Promise<HeldModel<M>> {
    if (!PRESET_NAMES.includes(preset)) throw new Error(`preset must be one of ${PRESET_NAMES.join(', ')}; got ${JSON.stringify(preset)}.`);
    const about: InspectModel = { untrained: true, iteration: null, label: `untrained ${model} (${preset} preset, random weights)` };
    return hold<M>(`untrained/${model}/${preset}`, about, async () => {
      // A fixed seed per model and preset: the same untrained model every time, so its answers can be compared.
      const rng = new Random(hashString(`untrained ${model} ${preset}`));
      const cfg = (model === 'planner' ? plannerPreset(preset) : grounderPreset(preset)) as ConfigOf<M>;
      const params = model === 'planner' ? initPlanner(rng, cfg as PlannerConfig) : initGrounder(rng, cfg as GrounderConfig);
      return { params, cfg };
    });
  }

  function shipped<M extends ModelName>(model: M, preset: PresetName, load: BaseLoader): Promise<HeldModel<M>> {
    const about: InspectModel = { untrained: false, iteration: null, label: `base ${model} (${preset} preset, pretrained, shipped with the app)` };
    return hold<M>(`base/${model}/${preset}`, about, async () => {
      const { config, params } = importCheckpoint(await load(model, preset));
      if (config.model !== model) {
        disposeParams(params);
        throw new Error(`The shipped base ${model} of preset '${preset}' holds a ${config.model}; the app's public/base/ is inconsistent (run npm run pretrain again).`);
      }
      return { params, cfg: config as ConfigOf<M> };
    });
  }

  /** The newest stored generation of `model` at or before iteration `from` (its record when it was read), or null. */
  async function newestUpTo(db: Store, runId: string, model: ModelName, from: number): Promise<{ iteration: number; record?: CheckpointRecord } | null> {
    for (let k = from; k >= 0; k--) {
      const id = checkpointId(runId, model, k);
      if (entries.has(id)) return { iteration: k };
      const record = await db.getCheckpoint(id);
      if (record) return { iteration: k, record };
    }
    return null;
  }

  async function loadStored(db: Store, id: string, model: ModelName, record?: CheckpointRecord): Promise<{ params: Params; cfg: PlannerConfig | GrounderConfig }> {
    const r = record ?? (await db.getCheckpoint(id));
    if (!r) throw new Error(`Checkpoint ${id} is no longer stored (was the run deleted?); pick another run.`);
    const { config, params } = importCheckpoint(new Uint8Array(r.weights));
    if (config.model !== model) {
      disposeParams(params);
      throw new Error(`Checkpoint ${id} holds a ${config.model}, not a ${model}; the stored run is inconsistent, so start a new run.`);
    }
    return { params, cfg: config };
  }

  /**
   * The model a view asks for. For a run: 'current' is the newest generation
   * at or before the iteration (k = the run's last when 'latest'), 'previous'
   * the one before that. Without a run: the preset's shipped base model, or
   * an untrained one where none ships.
   */
  async function get<M extends ModelName>(model: M, choice: ModelChoice): Promise<HeldModel<M>> {
    if (choice.runId === null) {
      const load = baseShips(choice.preset, model) ? base : undefined;
      if (choice.which === 'previous') throw new Error(`${load ? 'The base' : 'An untrained'} ${model} has no previous generation; pick a run to compare generations.`);
      return load ? shipped(model, choice.preset, load) : untrained(model, choice.preset);
    }
    const runId = choice.runId;
    const db = await store();
    const run = await db.getRun(runId);
    if (!run) throw new Error(`No run ${runId} is stored here; pick another run in the Loop view.`);
    const last = configOfRun(run).iterations;
    const wanted = choice.iteration === 'latest' ? last : Math.min(choice.iteration, last);
    if (!Number.isInteger(wanted) || wanted < 0) throw new Error(`iteration must be a whole number ≥ 0 or 'latest'; got ${JSON.stringify(choice.iteration)}.`);
    const current = await newestUpTo(db, runId, model, wanted);
    if (!current) {
      const phase = model === 'planner' ? 'sft-planner' : 'sft-grounder';
      throw new Error(`Run ${run.name} has no trained ${model} yet (its ${phase} phase has not finished); step the loop further in the Loop view.`);
    }
    let found = current;
    if (choice.which === 'previous') {
      const previous = current.iteration > 0 ? await newestUpTo(db, runId, model, current.iteration - 1) : null;
      if (!previous) {
        throw new Error(`${SYMBOL[model]}${current.iteration} is the run's first ${model}; it has no previous generation to compare with (it was trained from ${model === 'grounder' ? 'fresh or base weights' : 'the seed data'}).`);
      }
      found = previous;
    }
    const k = found.iteration;
    const about: InspectModel = { untrained: false, iteration: k, label: `${SYMBOL[model]}${k}, the ${model} after iteration ${k}` };
    const id = checkpointId(runId, model, k);
    const record = found.record;
    return hold<M>(id, about, () => loadStored(db, id, model, record) as Promise<{ params: Params; cfg: ConfigOf<M> }>);
  }

  return {
    get,
    /** How many models are loaded now (for leak checks). */
    size: () => entries.size,
    /** Frees every idle model. */
    clear(): void {
      for (const [key, e] of entries) {
        if (e.users > 0) continue;
        disposeParams(e.params);
        entries.delete(key);
      }
    },
  };
}

export type ModelCache = ReturnType<typeof createModelCache>;
