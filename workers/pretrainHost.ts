/**
 * The base-model pretraining job of this worker: one at a time, polled for
 * status, its files picked up when done. What each model's recipe is lives
 * in src/pretrain; this file only runs recipes in order and keeps the state
 * a caller polls.
 */
import type { Paint } from '../src/learn/stepCheck';
import type { BaseRecipe } from '../src/pretrain/recipeTypes';
import type { BaseManifest, BaseModelName, PretrainCheckpointFile, PretrainOptions, PretrainResult, PretrainStatus } from '../src/pretrain/baseTypes';
import { baseFileName } from '../src/pretrain/baseTypes';
import { resumeFileName } from '../src/pretrain/resumeKey';
import { styleWeightsProblem } from '../src/pretrain/styleWeights';
import { crc32 } from '../src/bytes/crc32';
import type { RealPageRenderer } from '../src/pretrain/realPool';
import type { RealScreenInput } from '../src/realScreens/suiteInput';

interface PretrainDeps {
  paint: () => Promise<Paint>;
  backend: () => string | null;
  recipes: Record<BaseModelName, BaseRecipe>;
  now?: () => number;
  /** The first error the GPU reported (a kernel that failed to compile computes garbage), or null. */
  deviceFault?: () => string | null;
  /** Draws real training pages in the page, or null where no page registered a renderer (then realShare > 0 fails). */
  realPages?: () => RealPageRenderer | null;
  /** The held-out real-screen suite from the page, or null without one (then the manifest has no real-screen rows). */
  realSuite?: () => Promise<RealScreenInput[] | null>;
}

const IDLE: PretrainStatus = { state: 'idle', model: null, stage: '', step: 0, steps: 0, loss: null, etaMs: null };

function base64(bytes: Uint8Array): string {
  let s = '';
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s);
}

function fromBase64(text: string, what: string): Uint8Array {
  try {
    return Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
  } catch {
    throw new Error(`${what} is not base64.`);
  }
}

export function checkPretrainOptions(o: PretrainOptions): void {
  if (o.preset !== 'tiny' && o.preset !== 'demo') throw new Error(`preset must be tiny or demo (base models ship for those); got ${JSON.stringify(o.preset)}.`);
  if (!Number.isSafeInteger(o.seed) || o.seed < 0) throw new Error(`seed must be an integer ≥ 0; got ${o.seed}.`);
  if (!(o.scale > 0 && o.scale <= 4)) throw new Error(`scale must be a number with 0 < scale ≤ 4; got ${o.scale}.`);
  if (o.models.length === 0 || o.models.some((m) => m !== 'grounder' && m !== 'planner')) throw new Error(`models must list grounder and/or planner; got ${JSON.stringify(o.models)}.`);
  const measured = Object.keys(o.measure ?? {});
  if (measured.some((m) => !o.models.includes(m as BaseModelName))) throw new Error(`measure may only hold weights of the listed models (${o.models.join(', ')}); got ${measured.join(', ')}.`);
  const resumed = Object.keys(o.resume ?? {});
  if (resumed.some((m) => !o.models.includes(m as BaseModelName))) throw new Error(`resume may only hold checkpoints of the listed models (${o.models.join(', ')}); got ${resumed.join(', ')}.`);
  if (resumed.some((m) => measured.includes(m))) throw new Error('A model is either measured (which trains nothing) or resumed, not both.');
  const tuned = Object.keys(o.tune ?? {});
  if (tuned.some((m) => !o.models.includes(m as BaseModelName))) throw new Error(`tune may only hold weights of the listed models (${o.models.join(', ')}); got ${tuned.join(', ')}.`);
  if (tuned.some((m) => measured.includes(m))) throw new Error('A model is either measured (which trains nothing) or tuned, not both.');
  if (o.realShare !== undefined) {
    if (typeof o.realShare !== 'number' || !(o.realShare >= 0 && o.realShare <= 1)) throw new Error(`realShare must be a number with 0 ≤ realShare ≤ 1 (the share of the grounder's examples from real-DOM pages); got ${o.realShare}.`);
    if (o.realShare > 0 && !o.models.includes('grounder')) throw new Error('realShare mixes real-DOM pages into the grounder\'s pretraining; this job does not train the grounder.');
    if (o.realShare > 0 && o.measure?.grounder !== undefined) throw new Error('realShare applies to training; a measured grounder trains nothing.');
  }
  if (o.tuneStyles !== undefined) {
    const problem = styleWeightsProblem(o.tuneStyles);
    if (problem) throw new Error(`tuneStyles ${problem}.`);
    if (o.tune?.grounder === undefined) throw new Error('tuneStyles weighs the styles of a grounder tune; this job tunes no grounder.');
  }
  if (o.trainAdded !== undefined && typeof o.trainAdded !== 'boolean') throw new Error(`trainAdded must be true or false; got ${JSON.stringify(o.trainAdded)}.`);
  if (o.trainAdded && Object.keys(o.tune ?? {}).length === 0) throw new Error('trainAdded trains the blocks growth adds to a tuned start; this job tunes nothing.');
  for (const [m, every] of Object.entries(o.checkpointEvery ?? {})) {
    if (!Number.isSafeInteger(every) || every < 0) throw new Error(`checkpointEvery.${m} must be an integer ≥ 0 (0: no checkpoints); got ${every}.`);
  }
}

export function createPretrainHost(deps: PretrainDeps) {
  const now = deps.now ?? (() => performance.now());
  let status: PretrainStatus = { ...IDLE };
  let result: PretrainResult | null = null;
  let stageKey = '';
  let stageStart = 0;
  let stageFirstStep = 0;
  // The latest checkpoint of each model, kept as bytes and encoded only when fetched (most are overwritten unread).
  let held: Partial<Record<BaseModelName, Omit<PretrainCheckpointFile, 'base64'> & { bytes: Uint8Array }>> = {};
  let handed = 0;

  async function run(o: PretrainOptions, backend: string): Promise<void> {
    const paint = await deps.paint();
    const manifest: BaseManifest = { preset: o.preset, seed: o.seed, backend, scale: o.scale, createdAt: new Date().toISOString(), models: [], figures: [] };
    const files: PretrainResult['files'] = [];
    for (const model of o.models) {
      const t0 = now();
      status = { ...status, model, stage: 'starting', step: 0, steps: 0, loss: null, etaMs: null };
      const from = o.measure?.[model];
      const startB64 = o.tune?.[model];
      const start = startB64 === undefined ? undefined : fromBase64(startB64, `The base ${model} to tune`);
      const resume = o.resume?.[model];
      const every = o.checkpointEvery?.[model] ?? 0;
      const trained = await deps.recipes[model]({
        preset: o.preset,
        seed: o.seed,
        scale: o.scale,
        backend,
        paint,
        from: from === undefined ? undefined : fromBase64(from, `The base ${model} to measure`),
        resume: resume === undefined ? undefined : fromBase64(resume, `The ${model} checkpoint to resume`),
        ...(start === undefined ? {} : { start }),
        realShare: o.realShare ?? 0,
        ...(model === 'grounder' && o.tuneStyles ? { tuneStyles: o.tuneStyles } : {}),
        ...(start && o.trainAdded ? { trainAdded: true } : {}),
        realPages: deps.realPages?.() ?? null,
        realSuite: deps.realSuite,
        checkpoints:
          every > 0
            ? {
                every,
                save(c) {
                  held = { ...held, [model]: { model, name: resumeFileName(o.preset, model), stage: c.stage, step: c.step, steps: c.steps, seq: ++handed, bytes: c.bytes } };
                  status = { ...status, checkpoints: handed };
                },
              }
            : undefined,
        onProgress(p) {
          const key = `${model}/${p.stage}`;
          // Steps count from the model's first stage: the pace is this stage's time over this stage's steps.
          if (key !== stageKey) [stageKey, stageStart, stageFirstStep] = [key, now(), p.step];
          const perStep = p.step > stageFirstStep ? (now() - stageStart) / (p.step - stageFirstStep) : null;
          status = { ...status, model, stage: p.stage, step: p.step, steps: p.steps, loss: p.loss, etaMs: perStep === null ? null : perStep * (p.steps - p.step) };
        },
      });
      const file = baseFileName(o.preset, model);
      files.push({ name: file, base64: base64(trained.bytes) });
      manifest.models.push({
        model, file, bytes: trained.bytes.length, parameters: trained.parameters, steps: trained.steps, wallSeconds: Math.round((now() - t0) / 100) / 10,
        seed: manifest.seed, backend, scale: o.scale, createdAt: manifest.createdAt, ...(trained.data ? { data: trained.data } : {}),
        ...(start ? { tunedFrom: { bytes: start.length, crc32: crc32(start) } } : {}),
        ...(start && o.trainAdded ? { trained: 'added blocks' as const } : {}),
      });
      manifest.figures.push(...trained.figures);
      const fault = deps.deviceFault?.() ?? null;
      if (fault) throw new Error(`The GPU reported an error while the base ${model} trained, so its weights cannot be trusted and nothing was written: ${fault}. Pretrain with --backend wasm.`);
    }
    result = { manifest, files };
  }

  return {
    async start(o: PretrainOptions): Promise<void> {
      checkPretrainOptions(o);
      if (status.state === 'running') throw new Error(`A pretraining job is already running (${status.model}, ${status.stage}); wait for it to finish.`);
      const backend = deps.backend();
      if (!backend) throw new Error('Choose a backend (useBackend) before pretraining.');
      result = null;
      held = {};
      handed = 0;
      status = { ...IDLE, state: 'running', checkpoints: 0 };
      void run(o, backend).then(
        () => void (status = { ...status, state: 'done', etaMs: 0 }),
        (e: unknown) => void (status = { ...status, state: 'failed', error: e instanceof Error ? e.message : String(e) }),
      );
    },
    status: (): PretrainStatus => ({ ...status }),
    /** The latest checkpoint of each model of this job (also after it failed: that is when one is needed). */
    checkpoints(): PretrainCheckpointFile[] {
      return Object.values(held).map(({ bytes, ...c }) => ({ ...c, base64: base64(bytes) }));
    },
    result(): PretrainResult {
      if (!result) throw new Error(status.state === 'running' ? 'Pretraining is still running; poll pretrainStatus until it is done.' : 'No pretraining job has finished in this tab.');
      return result;
    },
  };
}
