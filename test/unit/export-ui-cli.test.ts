/**
 * Acceptance 3 of issue 32: the run list's "Export for TRL" zip holds exactly
 * the files `npm run export -- --format trl` writes. The button's worker call
 * is trainerExportZip (workers/coevoHost.ts) with the Python files the app
 * bundles (?raw); the command line reads the run's archive zip and the Python
 * files from disk. Both are run here on the same stored run and compared file
 * by file, byte for byte.
 */
import 'fake-indexeddb/auto';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { exportRun } from '../../src/coevo/archive';
import { trainerExportZip } from '../../src/export/fromStore';
import { BUNDLED_PYTHON } from '../../src/export/pythonAssets';
import { Store } from '../../src/store/store';
import { pythonFiles } from '../../scripts/export/python-files';
import { tinyRunBundle } from './export-fixtures';

function filesUnder(dir: string): Record<string, Uint8Array> {
  const out: Record<string, Uint8Array> = {};
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else out[relative(dir, p)] = new Uint8Array(readFileSync(p));
    }
  };
  walk(dir);
  return out;
}

describe('Export for TRL (UI) and npm run export (CLI)', () => {
  it('the app bundles the same Python files the command line copies', () => {
    expect(BUNDLED_PYTHON).toEqual(pythonFiles());
  });

  it('give the same files for the same stored run', async () => {
    const store = await Store.open('export-ui-cli-test');
    const bundle = await tinyRunBundle(60, 'ui-cli');
    await store.restoreRun(bundle);
    const uiZip = await trainerExportZip(store, 'ui-cli', 'trl', BUNDLED_PYTHON);
    const ui = unzipSync(uiZip);

    const dir = mkdtempSync(join(tmpdir(), 'coevo-export-cli-'));
    const archive = join(dir, 'run.zip');
    writeFileSync(archive, await exportRun(store, 'ui-cli'));
    const out = join(dir, 'out');
    const r = spawnSync('npx', ['tsx', 'scripts/export/main.ts', '--format', 'trl', '--archive', archive, '--out', out], { encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/wrote \d+ files/);
    const cli = filesUnder(out);

    expect(Object.keys(ui).sort()).toEqual(Object.keys(cli).sort());
    for (const path of Object.keys(cli)) expect(Buffer.from(ui[path]).equals(Buffer.from(cli[path])), path).toBe(true);
    expect(Object.keys(cli)).toContain('datasets/d0/grounder_grpo.jsonl');
    store.close();
  }, 120_000);
});
