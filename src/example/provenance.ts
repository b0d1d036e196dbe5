/**
 * The example run that ships with the app (public/example/): a finished tiny
 * run made by `npm run coevo`, and the manifest that says where it came from.
 * The page reads the manifest to find the run and label it; `npm run example`
 * writes both; a unit test checks that they agree with each other.
 */

/** The recipe: the `npm run coevo` arguments the shipped run was made with. */
export const EXAMPLE_RECIPE = {
  preset: 'tiny',
  iterations: 1,
  seed: 2,
  backend: 'wasm',
  set: ['evalSize=8'],
} as const;

export const EXAMPLE_DIR = 'example';
export const EXAMPLE_ARCHIVE = 'tiny-run.zip';
export const EXAMPLE_MANIFEST = 'tiny-run.json';

/** The command that makes the run, as a person types it. */
export function exampleCommand(out = 'DIR'): string {
  const r = EXAMPLE_RECIPE;
  const set = r.set.map((s) => ` --set ${s}`).join('');
  return `npm run coevo -- --preset ${r.preset} --iterations ${r.iterations} --seed ${r.seed} --backend ${r.backend}${set} --out ${out}`;
}

/** public/example/tiny-run.json. */
export interface ExampleProvenance {
  /** The archive beside this file. */
  file: string;
  bytes: number;
  sha256: string;
  runId: string;
  /** The run's name as stored in the archive. */
  name: string;
  preset: string;
  seed: number;
  iterations: number;
  backend: string;
  /** The command that made the run. */
  command: string;
  /** The command that makes it again and ships it here. */
  regenerate: string;
  /** When the run started and finished (ISO 8601, UTC), from the archive's run.json. */
  startedAt: string;
  finishedAt: string;
  /** The git commit of the code that trained it. */
  commit: string;
  /** Anything a reader should know about how it was made. */
  note?: string;
}

function need<T>(ok: boolean, value: T, what: string): T {
  if (!ok) throw new Error(`The example run's manifest (${EXAMPLE_MANIFEST}) is not valid: ${what}.`);
  return value;
}

/** The manifest from its JSON, checked field by field (the page trusts nothing it fetches). */
export function parseProvenance(value: unknown): ExampleProvenance {
  const o = need(typeof value === 'object' && value !== null && !Array.isArray(value), value as Record<string, unknown>, 'it is not a JSON object');
  const text = (k: string, max = 1000): string => need(typeof o[k] === 'string' && (o[k] as string).length > 0 && (o[k] as string).length <= max, o[k] as string, `${k} must be a non-empty string`);
  const int = (k: string): number => need(Number.isInteger(o[k]) && (o[k] as number) >= 0, o[k] as number, `${k} must be a whole number ≥ 0`);
  const out: ExampleProvenance = {
    file: text('file', 200),
    bytes: int('bytes'),
    sha256: need(typeof o.sha256 === 'string' && /^[0-9a-f]{64}$/.test(o.sha256), o.sha256 as string, 'sha256 must be 64 hex digits'),
    runId: text('runId', 256),
    name: text('name', 256),
    preset: text('preset', 40),
    seed: int('seed'),
    iterations: int('iterations'),
    backend: text('backend', 40),
    command: text('command'),
    regenerate: text('regenerate'),
    startedAt: text('startedAt', 40),
    finishedAt: text('finishedAt', 40),
    commit: need(typeof o.commit === 'string' && /^[0-9a-f]{7,40}$/.test(o.commit), o.commit as string, 'commit must be a git commit id'),
  };
  if (o.note !== undefined) out.note = text('note', 4000);
  return out;
}
