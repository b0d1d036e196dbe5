import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { test, expect, type Page } from '@playwright/test';
import { unzipSync } from 'fflate';

/**
 * Issue 32, acceptance 3, from the UI: the run list's "TRL" button
 * downloads a zip holding the same files, byte for byte, as
 * `npm run export -- --archive RUN.zip --format trl --zip FILE` on that
 * run's archive (window.coevo.exportRun).
 *
 * The run is imported rather than trained (training one on WASM takes
 * minutes): the unit tests' export fixture (test/unit/export-fixtures.ts,
 * D0, three distilled iterations with dropped samples, planner GRPO groups,
 * two checkpoints) is stored and archived in Node by
 * test/e2e/fixtures/trl-run-archive.ts, then imported through
 * window.coevo.importRun, so the button reads it from the browser's own
 * IndexedDB in the worker.
 */

const RUN_ID = 'e2e-trl';

function tsx(args: string[]): string {
  const r = spawnSync('npx', ['tsx', ...args], { encoding: 'utf8', timeout: 120_000 });
  if (r.status !== 0) throw new Error(`tsx ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return r.stdout;
}

async function open(page: Page, query = ''): Promise<void> {
  await page.goto(`/?backend=wasm${query}`);
  await page.waitForFunction(() => window.coevo !== undefined);
  await page.evaluate(() => window.coevo?.ready());
}

/** Paths that differ between two zips' entries (names on one side only, or other bytes); [] when they hold the same files. */
function differences(a: Record<string, Uint8Array>, b: Record<string, Uint8Array>): string[] {
  const out: string[] = [];
  for (const p of new Set([...Object.keys(a), ...Object.keys(b)])) {
    if (!(p in a)) out.push(`${p}: only in the second`);
    else if (!(p in b)) out.push(`${p}: only in the first`);
    else if (!Buffer.from(a[p]).equals(Buffer.from(b[p]))) out.push(`${p}: bytes differ (${a[p].length} vs ${b[p].length})`);
  }
  return out.sort();
}

test('run list → TRL downloads the same files as npm run export on the run archive', async ({ page }, info) => {
  test.setTimeout(150_000);
  const t0 = Date.now();
  const fixture = info.outputPath('fixture-run.zip');
  tsx(['test/e2e/fixtures/trl-run-archive.ts', fixture, '60', RUN_ID]);

  await open(page);
  const imported = await page.evaluate((b) => window.coevo!.importRun(b), new Uint8Array(readFileSync(fixture)));
  expect(imported.id).toBe(RUN_ID);
  // A fresh load lists it. (Not &run=: the fixture has no stored co-evolution config, so the Loop view cannot load it to resume; the run list and the export need none.)
  await open(page);

  // The UI: the run's row in the run list, its TRL button, the browser's download.
  const row = page.locator(`[data-testid="coevo-run"][data-run="${RUN_ID}"]`);
  const button = row.getByTestId('export-trl');
  await expect(button).toBeEnabled();
  const downloading = page.waitForEvent('download');
  await button.click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe(`coevo-${RUN_ID}-trl.zip`);
  const uiPath = info.outputPath('ui-trl.zip');
  await download.saveAs(uiPath);
  expect(await download.failure()).toBeNull();
  await expect(button).toHaveText(/TRL/); // the button is back: the export finished without an error
  await expect(page.locator('section[aria-labelledby="coevo-runs-h"]').getByRole('alert')).toHaveCount(0);

  // The command line, on the archive the app exports of the same stored run.
  const archive = info.outputPath('run.zip');
  writeFileSync(archive, await page.evaluate((id) => window.coevo!.exportRun(id), RUN_ID));
  const cliPath = info.outputPath('cli-trl.zip');
  const stdout = tsx(['scripts/export/main.ts', '--archive', archive, '--format', 'trl', '--out', info.outputPath('cli-trl'), '--zip', cliPath]);
  expect(stdout).toMatch(/wrote \d+ files/);

  const uiZip = new Uint8Array(readFileSync(uiPath));
  const cliZip = new Uint8Array(readFileSync(cliPath));
  const ui = unzipSync(uiZip);
  const cli = unzipSync(cliZip);
  const names = Object.keys(cli).sort();
  const bytes = names.reduce((n, p) => n + cli[p].length, 0);
  console.log(`TRL export: UI zip ${uiZip.length} bytes, CLI zip ${cliZip.length} bytes, ${names.length} files, ${bytes} bytes unzipped; ${((Date.now() - t0) / 1000).toFixed(1)} s`);

  // Not vacuous: every data set of the run is there, with rows, and the comparison does see a changed byte.
  expect(names.length).toBeGreaterThan(50);
  for (const p of ['rewards.py', 'launch_trl.sh', 'datasets/d0/grounder_grpo.jsonl', 'datasets/d0/planner_sft.jsonl', 'datasets/e1/grounder_sft.jsonl', 'datasets/d3/planner_sft.jsonl', 'datasets/planner-grpo-1/planner_grpo.jsonl']) {
    expect(names, p).toContain(p);
    expect(cli[p].length, p).toBeGreaterThan(0);
  }
  expect(names.filter((p) => p.endsWith('.png')).length).toBeGreaterThan(10);
  const tampered = { ...cli, [names[0]]: Uint8Array.from(cli[names[0]], (x, i) => (i === 0 ? x ^ 1 : x)) };
  expect(differences(cli, tampered)).toEqual([`${names[0]}: bytes differ (${cli[names[0]].length} vs ${cli[names[0]].length})`]);

  // The same files, byte for byte; both zips are written the same way (sorted entries, one fixed mtime), so the zips are equal too.
  expect(differences(ui, cli)).toEqual([]);
  expect(Buffer.from(uiZip).equals(Buffer.from(cliZip))).toBe(true);
});
