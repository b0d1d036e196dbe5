/**
 * Ships a finished run as the app's example (public/example/): checks the
 * archive with the app's own importer checks (readArchive) and against the
 * example recipe, then writes the zip and its provenance manifest.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readArchive } from '../../src/coevo/archive';
import { EXAMPLE_ARCHIVE, EXAMPLE_MANIFEST, EXAMPLE_RECIPE, exampleCommand, type ExampleProvenance } from '../../src/example/provenance';

export const REGENERATE = 'npm run example';

/** The manifest for `zip`, or an Error that says why this zip cannot be the example. */
export function exampleProvenance(zip: Uint8Array, commit: string, note?: string): ExampleProvenance {
  if (!/^[0-9a-f]{7,40}$/.test(commit)) throw new Error(`"${commit}" is not a git commit id.`);
  const { run, phases, checkpoints, samples } = readArchive(zip);
  const r = EXAMPLE_RECIPE;
  const wanted: Record<string, string | number> = { preset: r.preset, seed: r.seed, iterations: r.iterations };
  for (const s of r.set) {
    const [key, value] = s.split('=');
    wanted[key] = Number.isFinite(Number(value)) ? Number(value) : value;
  }
  for (const [key, value] of Object.entries(wanted)) {
    if (run.config[key] !== value) throw new Error(`this run has ${key} = ${String(run.config[key])}, but the example recipe (${exampleCommand()}) has ${value}.`);
  }
  if (run.status !== 'done' || run.finishedAt === undefined) throw new Error(`this run is ${run.status}, not finished; the example must be a finished run.`);
  if (run.backend !== r.backend) throw new Error(`this run trained on ${run.backend}, but the example recipe says --backend ${r.backend}.`);
  if (phases.length === 0 || checkpoints.length === 0 || samples.length === 0) throw new Error('this run has no phases, checkpoints or samples; the example must show every view.');
  return {
    file: EXAMPLE_ARCHIVE,
    bytes: zip.length,
    sha256: createHash('sha256').update(zip).digest('hex'),
    runId: run.id,
    name: run.name,
    preset: r.preset,
    seed: r.seed,
    iterations: r.iterations,
    backend: run.backend,
    command: exampleCommand(),
    regenerate: REGENERATE,
    startedAt: new Date(run.createdAt).toISOString(),
    finishedAt: new Date(run.finishedAt).toISOString(),
    commit,
    ...(note ? { note } : {}),
  };
}

/** Writes the zip and its manifest into `dir` (public/example/); returns the manifest. */
export function shipExample(dir: string, zip: Uint8Array, commit: string, note?: string): ExampleProvenance {
  const provenance = exampleProvenance(zip, commit, note);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, EXAMPLE_ARCHIVE), zip);
  writeFileSync(join(dir, EXAMPLE_MANIFEST), `${JSON.stringify(provenance, null, 2)}\n`);
  return provenance;
}
