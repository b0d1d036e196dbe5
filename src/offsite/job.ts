/**
 * One offsite comparison as the app runs it (`npm run offsite`): the
 * shipped base of the asked agent is the model owner's M, the private and
 * public sets are the slow tests' (privateSet.ts, grounderPrivateSet.ts),
 * and the result is the report the slow tests write (report.ts). The only
 * difference from the slow tests is where it runs: in the app's worker, on
 * its backend, with the real renderer's pixels for the grounder.
 */
import type { BaseLoader } from '../coevo/phases/context';
import { eventTurn } from '../learn/eventTurn';
import type { Paint } from '../learn/stepCheck';
import { importCheckpoint } from '../models/checkpoint';
import type { GrounderConfig } from '../models/grounder';
import { disposeParams, type Params } from '../models/params';
import type { PlannerConfig } from '../models/planner';
import { defaultTokenizer } from '../text/vocab';
import { DEFAULT_OFFSITE, plannerAgent, type OffsiteComparison, type OffsiteSettings } from './compare';
import { grounderAgent } from './compareGrounder';
import { runComparison } from './comparison';
import { grounderPrivateSet, grounderPublicExamples } from './grounderPrivateSet';
import { checkOffsiteOptions, type OffsiteOptions } from './jobTypes';
import { replacedCount } from './layerReplace';
import { ownPrivateSet } from './ownPrivateSet';
import { plannerPrivateSet, plannerPublicStates } from './privateSet';
import type { PrivateTile } from '../ownScreen/privateTile';
import { offsiteReport, type OffsiteReport } from './report';
import { modelUnits, sandwich, type OffsiteModelConfig } from './units';

export interface OffsiteJobDeps {
  loadBase: BaseLoader;
  paint: Paint;
  /** The backend in words, for the report (e.g. "wasm, 2 threads"). */
  backend: string;
  onPhase?: (phase: string) => void;
  onProgress?: (phase: string, step: number, steps: number) => void;
}

export function offsiteSettings(o: OffsiteOptions): OffsiteSettings {
  return {
    ...DEFAULT_OFFSITE,
    scales: o.scales.map((s) => ({ ...s })),
    replaceSteps: o.replaceSteps,
    tuneSteps: o.tuneSteps,
    batchSize: o.batchSize,
    tuneLr: o.tuneLr,
    seed: o.seed,
    ...(o.lora ? { lora: { ...o.lora } } : {}),
    ...(o.distill ? { distill: o.distill } : {}),
    ...(o.tuneTable ? { tuneTable: true } : {}),
    ...(o.tuneOutside ? { tuneOutside: true } : {}),
    ...(o.wholeLr !== undefined ? { wholeLr: o.wholeLr } : {}),
    ...(o.harmonizerLr !== undefined ? { harmonizerLr: o.harmonizerLr } : {}),
    ...(o.maskGroup !== undefined ? { maskGroup: o.maskGroup } : {}),
  };
}

/**
 * Training steps of the whole comparison: the owner's harmonizer steps, full
 * fine-tuning, and one adapter tuning per emulator (ScaleOT at every scale,
 * uniform drop where it drops a unit: at α = 0 it is the same emulator).
 */
export function offsiteTrainingSteps(o: Pick<OffsiteOptions, 'replaceSteps' | 'tuneSteps' | 'scales'>, cfg: OffsiteModelConfig): number {
  const middle = sandwich(modelUnits(cfg)).middle.length;
  const tunings = o.scales.reduce((n, s) => n + 1 + (replacedCount(s.alpha, middle) > 0 ? 1 : 0), 0);
  return o.replaceSteps + o.tuneSteps * (1 + tunings);
}

/** The base of the asked agent, refused when the file holds the other one. */
async function loadAgent(o: OffsiteOptions, load: BaseLoader): Promise<{ cfg: OffsiteModelConfig; params: Params }> {
  const { config, params } = importCheckpoint(await load(o.agent, o.preset));
  if (config.model !== o.agent) {
    disposeParams(params);
    throw new Error(`The shipped base ${o.agent} of preset '${o.preset}' holds a ${config.model}; re-ship it with npm run pretrain.`);
  }
  return { cfg: config as OffsiteModelConfig, params };
}

/** `own`: the marked screenshots' tiles, for options.privateSet 'own-screenshots'. */
export async function runOffsiteJob(o: OffsiteOptions, d: OffsiteJobDeps, onTotal?: (steps: number) => void, own: readonly PrivateTile[] = []): Promise<OffsiteReport> {
  checkOffsiteOptions(o);
  const ownSet = o.privateSet === 'own-screenshots' ? ownPrivateSet(own, o.dataSeed) : null;
  const t0 = performance.now();
  const { cfg, params } = await loadAgent(o, d.loadBase);
  try {
    onTotal?.(offsiteTrainingSteps(o, cfg));
    const tok = defaultTokenizer();
    const settings = offsiteSettings(o);
    // An event turn after each phase start and step: in a worker, the progress polls get in only then (eventTurn.ts).
    const callbacks = {
      settings,
      onPhase: async (phase: string) => {
        d.onPhase?.(phase);
        await eventTurn();
      },
      onProgress: async (phase: string, step: number, steps: number) => {
        d.onProgress?.(phase, step, steps);
        await eventTurn();
      },
    };
    let comparison: OffsiteComparison;
    let privateSet: string;
    if (cfg.model === 'planner') {
      const priv = plannerPrivateSet(o.dataSeed, o.tasks, 0.5, o.testStates ?? Infinity);
      privateSet = `cross-site tasks, seed ${o.dataSeed}: ${priv.trainTasks} tuning tasks (${priv.train.length} states), ${priv.testTasks} test tasks (${priv.test.length} states)`;
      comparison = await runComparison({
        agent: plannerAgent(params, cfg as PlannerConfig, tok),
        publicItems: plannerPublicStates(o.dataSeed, o.publicItems),
        privateTrain: priv.train,
        privateTest: priv.test,
        ...callbacks,
      });
    } else if (ownSet) {
      privateSet = `your marked screenshots, split with seed ${o.dataSeed}: ${ownSet.train.length} to tune on, ${ownSet.test.length} to test`;
      comparison = await runComparison({
        agent: grounderAgent(params, cfg as GrounderConfig, tok, ownSet.paint(d.paint)),
        publicItems: grounderPublicExamples(o.dataSeed, o.publicItems),
        privateTrain: ownSet.train,
        privateTest: ownSet.test,
        ...callbacks,
      });
    } else {
      const priv = grounderPrivateSet(o.dataSeed, o.tasks);
      const splits = ['cross-site', 'cross-domain'].map((s) => `${priv.test.filter((x) => x.split === s).length} ${s}`).join(', ');
      privateSet = `cross-site and cross-domain web tasks, seed ${o.dataSeed}: ${priv.trainTasks} tuning tasks (${priv.train.length} items), ${priv.testTasks} test tasks (${priv.test.length} items: ${splits})`;
      comparison = await runComparison({
        agent: grounderAgent(params, cfg as GrounderConfig, tok, d.paint),
        publicItems: grounderPublicExamples(o.dataSeed, o.publicItems),
        privateTrain: priv.train,
        privateTest: priv.test,
        ...callbacks,
      });
    }
    return offsiteReport({ agent: o.agent, preset: o.preset, backend: d.backend, privateSet, wallSeconds: (performance.now() - t0) / 1000 }, comparison);
  } finally {
    disposeParams(params);
  }
}
