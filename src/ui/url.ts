/** View state that lives in the URL, so a view can be shared and replayed. */
export type BackendChoice = 'webgpu' | 'wasm' | 'auto';

export const VIEW_NAMES = ['loop', 'grpo', 'grounder', 'data', 'metrics', 'playground', 'offsite', 'world'] as const;
export type ViewName = (typeof VIEW_NAMES)[number];

/** The model presets a run can start from (src/models/presets.ts; repeated here because that module pulls in model code). */
export const PRESET_CHOICES = ['tiny', 'demo', 'full'] as const;
export type PresetChoice = (typeof PRESET_CHOICES)[number];

/** Where a new run's weights come from: the shipped base models or random initialisation. */
export const START_CHOICES = ['base', 'scratch'] as const;
export type StartChoice = (typeof START_CHOICES)[number];

/** Everything the lab shows that a shared link must reproduce. */
export interface LabUrlState {
  view: ViewName;
  /** The run on show. */
  run: string | null;
  /** The selected iteration; null = the latest. */
  it: number | null;
  /** Preset and seed of the next new run; null preset = the backend's default. */
  preset: PresetChoice | null;
  seed: number;
  /** Start of the next new run; null = base where the preset ships base models, else scratch. */
  start: StartChoice | null;
  backend: BackendChoice;
  demo: boolean;
  explain: boolean;
}

export const DEFAULT_SEED = 1;

export function backendFromUrl(search: string = location.search): BackendChoice {
  const v = new URLSearchParams(search).get('backend');
  return v === 'webgpu' || v === 'wasm' ? v : 'auto';
}

/** ?threads=N: the WASM backend's thread count (1 = the single-threaded build); null = one per core. */
export function threadsFromUrl(search: string = location.search): number | null {
  const n = wholeNumber(new URLSearchParams(search).get('threads'), 1);
  return n === null ? null : Math.min(n, 64);
}

export function viewFromUrl(search: string = location.search): ViewName {
  const v = new URLSearchParams(search).get('view');
  if (v === 'lab') return 'loop'; // links from before the lab had views
  return VIEW_NAMES.find((n) => n === v) ?? 'loop';
}

function flag(v: string | null): boolean {
  return v === '1' || v === 'true';
}

function wholeNumber(v: string | null, min: number): number | null {
  if (v === null || v.trim() === '') return null;
  const n = Number(v);
  return Number.isInteger(n) && n >= min ? n : null;
}

export function parseLabUrl(search: string = location.search): LabUrlState {
  const q = new URLSearchParams(search);
  const preset = q.get('preset');
  const start = q.get('start');
  const run = q.get('run');
  return {
    view: viewFromUrl(search),
    run: run && run.trim() !== '' ? run : null,
    it: wholeNumber(q.get('it'), 0),
    preset: PRESET_CHOICES.find((p) => p === preset) ?? null,
    seed: wholeNumber(q.get('seed'), 0) ?? DEFAULT_SEED,
    start: START_CHOICES.find((c) => c === start) ?? null,
    backend: backendFromUrl(search),
    demo: flag(q.get('demo')),
    explain: flag(q.get('explain')),
  };
}

/** The query string for `patch` applied over `search`: defaults are left out, so plain links stay short; other parameters are kept. */
export function labSearch(search: string, patch: Partial<LabUrlState>): string {
  const q = new URLSearchParams(search);
  const put = (key: string, value: string | null) => (value === null ? q.delete(key) : q.set(key, value));
  if ('view' in patch) put('view', patch.view === undefined || patch.view === 'loop' ? null : patch.view);
  if ('run' in patch) put('run', patch.run ?? null);
  if ('it' in patch) put('it', patch.it === null || patch.it === undefined ? null : String(patch.it));
  if ('preset' in patch) put('preset', patch.preset ?? null);
  if ('seed' in patch) put('seed', patch.seed === undefined || patch.seed === DEFAULT_SEED ? null : String(patch.seed));
  if ('start' in patch) put('start', patch.start ?? null);
  if ('backend' in patch) put('backend', patch.backend === undefined || patch.backend === 'auto' ? null : patch.backend);
  if ('demo' in patch) put('demo', patch.demo ? '1' : null);
  if ('explain' in patch) put('explain', patch.explain ? '1' : null);
  const s = q.toString();
  return s ? `?${s}` : '';
}

/** Writes `patch` into the address bar; `push` adds a history entry (view and run changes), so Back returns to the previous view. */
export function writeLabUrl(patch: Partial<LabUrlState>, push = false): void {
  const url = new URL(location.href);
  url.search = labSearch(url.search, patch);
  if (url.href === location.href) return;
  if (push) history.pushState(null, '', url);
  else history.replaceState(null, '', url);
}

export function setUrlParam(key: string, value: string | null): void {
  const url = new URL(location.href);
  if (value === null) url.searchParams.delete(key);
  else url.searchParams.set(key, value);
  history.replaceState(null, '', url);
}

export function intFromUrl(key: string, fallback: number, search: string = location.search): number {
  const v = Number(new URLSearchParams(search).get(key));
  return Number.isInteger(v) && v > 0 ? v : fallback;
}

export function stringFromUrl(key: string, search: string = location.search): string | null {
  return new URLSearchParams(search).get(key);
}
