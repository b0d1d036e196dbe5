/**
 * The example run that ships in public/example/ (issue 29): its manifest
 * parses, names the zip beside it by size and sha256, and is what the
 * shipping code (`npm run example`) writes for that zip; the zip passes the
 * app's importer checks and holds a finished run of the recipe with every
 * phase of its plan, both agents' checkpoints of every iteration, groups and
 * samples, so that every view has something to show.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readArchive } from '../../src/coevo/archive';
import { phasePlan } from '../../src/coevo/machine';
import { checkpointId } from '../../src/coevo/runState';
import { EXAMPLE_ARCHIVE, EXAMPLE_DIR, EXAMPLE_MANIFEST, EXAMPLE_RECIPE, exampleCommand, parseProvenance } from '../../src/example/provenance';
import { exampleProvenance, REGENERATE } from '../../scripts/example/ship';

const ROOT = join(__dirname, '../..');
const DIR = join(ROOT, 'public', EXAMPLE_DIR);
const zip = new Uint8Array(readFileSync(join(DIR, EXAMPLE_ARCHIVE)));
const raw: unknown = JSON.parse(readFileSync(join(DIR, EXAMPLE_MANIFEST), 'utf8'));
const scripts = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;

describe('the shipped example run', () => {
  const about = parseProvenance(raw);

  it('is the zip its manifest describes, small enough to ship (≤ 5 MB)', () => {
    expect(about.file).toBe(EXAMPLE_ARCHIVE);
    expect(zip.length).toBe(about.bytes);
    expect(createHash('sha256').update(zip).digest('hex')).toBe(about.sha256);
    expect(zip.length).toBeLessThanOrEqual(5 * 1024 * 1024);
  });

  it('has the manifest the shipping code writes for it, with a command that exists', () => {
    const { note, ...written } = about;
    expect(note === undefined || note.length > 0).toBe(true);
    expect(exampleProvenance(zip, about.commit)).toEqual(written);
    expect(about.command).toBe(exampleCommand());
    expect(about.regenerate).toBe(REGENERATE);
    expect(scripts[REGENERATE.replace('npm run ', '')]).toMatch(/scripts\/example\/main\.ts/);
    expect(scripts.coevo).toBeDefined();
  });

  it('passes the importer and holds a finished run of the recipe with what every view shows', () => {
    const bundle = readArchive(zip);
    const { run } = bundle;
    expect(run.id).toBe(about.runId);
    expect(run.name).toBe(about.name);
    expect(run.status).toBe('done');
    expect(run.config).toMatchObject({ preset: EXAMPLE_RECIPE.preset, seed: EXAMPLE_RECIPE.seed, iterations: EXAMPLE_RECIPE.iterations, evalSize: 8 });
    const plan = phasePlan({ iterations: EXAMPLE_RECIPE.iterations });
    expect(bundle.phases.map((p) => `${p.iteration}/${p.phase}`)).toEqual(plan.map((c) => `${c.iteration}/${c.phase}`));
    const ids = bundle.checkpoints.map((c) => c.id).sort();
    const wanted = [];
    for (let k = 0; k <= EXAMPLE_RECIPE.iterations; k++) wanted.push(checkpointId(run.id, 'planner', k), checkpointId(run.id, 'grounder', k));
    expect(ids).toEqual(wanted.sort());
    expect(bundle.groups?.length).toBeGreaterThan(0);
    expect(new Set(bundle.samples.map((s) => s.iteration))).toEqual(new Set([0, 1]));
    expect(bundle.metrics.length).toBeGreaterThan(0);
  });

  it('refuses to ship a run under a commit that is not one', () => {
    expect(() => exampleProvenance(zip, 'main')).toThrow(/not a git commit id/);
  });
});

describe('the example manifest parser', () => {
  it('refuses a manifest with a field missing or of the wrong kind, naming the field', () => {
    const good = raw as Record<string, unknown>;
    expect(() => parseProvenance({ ...good, sha256: 'abc' })).toThrow(/sha256 must be 64 hex digits/);
    expect(() => parseProvenance({ ...good, runId: undefined })).toThrow(/runId must be a non-empty string/);
    expect(() => parseProvenance({ ...good, seed: -1 })).toThrow(/seed must be a whole number/);
    expect(() => parseProvenance([good])).toThrow(/not a JSON object/);
  });
});
