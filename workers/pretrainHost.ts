/**
 * The base-model pretraining job of this worker: one at a time, polled for
 * status, its files picked up when done. What each model's recipe is lives
 * in src/pretrain; this file only runs recipes in order and keeps the state
 * a caller polls.
 */
import type { Paint } from '../src/learn/stepCheck';
import type { BaseRecipe } from '../src/pretrain/recipeTypes';
import type { BaseManifest, BaseModelName, PretrainOptions, PretrainResult, PretrainStatus } from '../src/pretrain/baseTypes';
import { baseFileName } from '../src/pretrain/baseTypes';

interface PretrainDeps {
  paint: () => Promise<Paint>;
  backend: () => string | null;
  recipes: Record<BaseModelName, BaseRecipe>;
  now?: () => number;
  /** The first error the GPU reported (a kernel that failed to compile computes garbage), or null. */
  deviceFault?: () => string | null;
}

const IDLE: PretrainStatus = { state: 'idle', model: null, stage: '', step: 0, steps: 0, loss: null, etaMs: null };

function base64(bytes: Uint8Array): string {
  let s = '';
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s);
}

function fromBase64(text: string, model: BaseModelName): Uint8Array {
  try {
    return Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
  } catch {
    throw new Error(`The base ${model} to measure is not base64.`);
  }
}

export function checkPretrainOptions(o: PretrainOptions): void {
  if (o.preset !== 'tiny' && o.preset !== 'demo') throw new Error(`preset must be tiny or demo (base models ship for those); got ${JSON.stringify(o.preset)}.`);
  if (!Number.isSafeInteger(o.seed) || o.seed < 0) throw new Error(`seed must be an integer ≥ 0; got ${o.seed}.`);
  if (!(o.scale > 0 && o.scale <= 4)) throw new Error(`scale must be a number with 0 < scale ≤ 4; got ${o.scale}.`);
  if (o.models.length === 0 || o.models.some((m) => m !== 'grounder' && m !== 'planner')) throw new Error(`models must list grounder and/or planner; got ${JSON.stringify(o.models)}.`);
  const measured = Object.keys(o.measure ?? {});
  if (measured.some((m) => !o.models.includes(m as BaseModelName))) throw new Error(`measure may only hold weights of the listed models (${o.models.join(', ')}); got ${measured.join(', ')}.`);
}

export function createPretrainHost(deps: PretrainDeps) {
  const now = deps.now ?? (() => performance.now());
  let status: PretrainStatus = { ...IDLE };
  let result: PretrainResult | null = null;
  let stageKey = '';
  let stageStart = 0;
  let stageFirstStep = 0;

  async function run(o: PretrainOptions, backend: string): Promise<void> {
    const paint = await deps.paint();
    const manifest: BaseManifest = { preset: o.preset, seed: o.seed, backend, scale: o.scale, createdAt: new Date().toISOString(), models: [], figures: [] };
    const files: PretrainResult['files'] = [];
    for (const model of o.models) {
      const t0 = now();
      status = { ...status, model, stage: 'starting', step: 0, steps: 0, loss: null, etaMs: null };
      const from = o.measure?.[model];
      const trained = await deps.recipes[model]({
        preset: o.preset,
        seed: o.seed,
        scale: o.scale,
        paint,
        from: from === undefined ? undefined : fromBase64(from, model),
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
        seed: manifest.seed, backend, scale: o.scale, createdAt: manifest.createdAt,
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
      status = { ...IDLE, state: 'running' };
      void run(o, backend).then(
        () => void (status = { ...status, state: 'done', etaMs: 0 }),
        (e: unknown) => void (status = { ...status, state: 'failed', error: e instanceof Error ? e.message : String(e) }),
      );
    },
    status: (): PretrainStatus => ({ ...status }),
    result(): PretrainResult {
      if (!result) throw new Error(status.state === 'running' ? 'Pretraining is still running; poll pretrainStatus until it is done.' : 'No pretraining job has finished in this tab.');
      return result;
    },
  };
}
