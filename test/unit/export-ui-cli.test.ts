/**
 * Issue 32, acceptance 3: the run list's "Export for TRL" (the worker's
 * trainerExportZip with the Python files the app bundles, ?raw) and
 * `npm run export` (the same files read from disk) must give the same
 * files. The Python half is checked here; the whole comparison, screenshots
 * drawn by the app's renderer in both, needs a browser and is in
 * test/e2e/export-trl.spec.ts.
 */
import { describe, expect, it } from 'vitest';
import { BUNDLED_PYTHON } from '../../src/export/pythonAssets';
import { pythonFiles } from '../../scripts/export/python-files';

describe('Export for TRL (UI) and npm run export (CLI)', () => {
  it('the app bundles the same Python files the command line copies', () => {
    expect(BUNDLED_PYTHON).toEqual(pythonFiles());
    expect(Object.keys(BUNDLED_PYTHON).length).toBe(3);
  });
});
