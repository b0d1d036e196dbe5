import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { test, expect, type Page } from '@playwright/test';
import { strFromU8, unzipSync } from 'fflate';
import type { StepSample } from '../../src/coevo/records';
import { screenOf } from '../../src/world/env';
import { stateBefore } from '../../src/world/suites';
import type { Screen } from '../../src/world/types';

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
 * IndexedDB in the worker. Like a trained run it stores no screenshots, so
 * both exports render every state: the app in its engine worker, the command
 * line in headless Chromium's render page. The test then checks the command
 * line's folder as acceptance 1 asks (test/e2e/fixtures/check-export.ts), and
 * that its images hold the pixels the app's renderer draws for each row's
 * state (decoded by the browser, against its own PNG of a fresh render).
 */

const RUN_ID = 'e2e-trl';

function tsx(args: string[]): string {
  const r = spawnSync('npx', ['tsx', ...args], { encoding: 'utf8', timeout: 120_000 });
  if (r.status !== 0) throw new Error(`tsx ${args.join(' ')} exited ${r.status}: ${r.stdout}${r.stderr}`);
  return r.stdout;
}

/** Per pair of PNGs: both sizes, and how many RGB values differ, decoded by the browser. */
async function pixelDifferences(page: Page, pairs: { exported: Uint8Array; screen: Screen }[]): Promise<{ sizes: number[]; differing: number; opaque: boolean }[]> {
  return page.evaluate(async (list) => {
    const rendered = await window.coevoRender!.renderScreens(list.map((p) => p.screen), 1);
    const decode = async (bytes: Uint8Array) => {
      const bitmap = await createImageBitmap(new Blob([new Uint8Array(bytes)], { type: 'image/png' }), { premultiplyAlpha: 'none', colorSpaceConversion: 'none' });
      const ctx = new OffscreenCanvas(bitmap.width, bitmap.height).getContext('2d')!;
      ctx.drawImage(bitmap, 0, 0);
      return { w: bitmap.width, h: bitmap.height, px: ctx.getImageData(0, 0, bitmap.width, bitmap.height).data };
    };
    const out = [];
    for (let i = 0; i < list.length; i++) {
      const a = await decode(list[i].exported);
      const b = await decode(Uint8Array.from(atob(rendered[i].png), (c) => c.charCodeAt(0)));
      let differing = 0;
      let opaque = true;
      for (let k = 0; k < Math.min(a.px.length, b.px.length); k++) {
        if ((k & 3) === 3) opaque &&= b.px[k] === 255;
        else if (a.px[k] !== b.px[k]) differing++;
      }
      out.push({ sizes: [a.w, a.h, b.w, b.h], differing, opaque });
    }
    return out;
  }, pairs);
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

function withoutFile(files: Record<string, Uint8Array>, name: string): Record<string, Uint8Array> {
  const { [name]: _dropped, ...rest } = files;
  return rest;
}

/** Where two JSON-lines texts differ: structure and strings exactly, numbers within `tol` (relative, at least absolute). */
function jsonlMismatches(a: string, b: string, tol: number): string[] {
  const out: string[] = [];
  const walk = (x: unknown, y: unknown, at: string, line: number) => {
    if (typeof x === 'number' && typeof y === 'number') {
      if (Math.abs(x - y) > tol * Math.max(1, Math.abs(x), Math.abs(y))) out.push(`line ${line}: ${at}: ${x} vs ${y}`);
    } else if (x !== null && y !== null && typeof x === 'object' && typeof y === 'object' && Array.isArray(x) === Array.isArray(y)) {
      const keys = new Set([...Object.keys(x), ...Object.keys(y)]);
      for (const k of keys) walk((x as Record<string, unknown>)[k], (y as Record<string, unknown>)[k], at ? `${at}.${k}` : k, line);
    } else if (x !== y) out.push(`line ${line}: ${at}: ${JSON.stringify(x)} vs ${JSON.stringify(y)}`);
  };
  const la = a.trim().split('\n');
  const lb = b.trim().split('\n');
  if (la.length !== lb.length) return [`${la.length} lines vs ${lb.length}`];
  la.forEach((l, i) => walk(JSON.parse(l), JSON.parse(lb[i]), '', i + 1));
  return out;
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

  // The same files, byte for byte, except the rewards the checks expect: those come from Math.exp in two JS engines
  // (the page's and Node's), and Chromium 156.0.8078.114 gives exp(-0.6) one ulp below Node 20's, so a softmax summed
  // to 0.9999999999999999 on one side is 1 on the other. Those are compared as numbers, to 1e-12.
  const CHECKS = 'reward_checks.jsonl';
  expect(differences(withoutFile(ui, CHECKS), withoutFile(cli, CHECKS))).toEqual([]);
  expect(CHECKS in ui && CHECKS in cli).toBe(true);
  expect(jsonlMismatches(strFromU8(ui[CHECKS]), strFromU8(cli[CHECKS]), 1e-12)).toEqual([]);
  expect(jsonlMismatches('{"a":[1,0.5]}', '{"a":[1,0.5000001]}', 1e-12)).toEqual(['line 1: a.1: 0.5 vs 0.5000001']);

  // Acceptance 1 on this real render: schemas, images at the rows' sizes, every kind of data set, python3's json.
  const checked = tsx(['test/e2e/fixtures/check-export.ts', info.outputPath('cli-trl')]);
  const verdict = JSON.parse(checked.trim().split('\n').pop()!) as { rows: number; images: number; errors: number };
  expect(verdict.errors).toBe(0);
  expect(verdict.rows).toBeGreaterThan(100);

  // Each image is its row's state as the app's renderer draws it: rows of both platforms, and one pair
  // deliberately mismatched, which must differ (the comparison can fail).
  const samples = new Map(strFromU8(unzipSync(new Uint8Array(readFileSync(archive)))['samples.jsonl']).trim().split('\n').map((l) => JSON.parse(l) as StepSample).map((s) => [s.id, s]));
  const rows = strFromU8(cli['datasets/d3/grounder_grpo.jsonl']).trim().split('\n').map((l) => JSON.parse(l) as { images: string[]; coevo_id: string });
  const picked = [...rows.filter((r) => samples.get(r.coevo_id)!.platform === 'web').slice(0, 3), ...rows.filter((r) => samples.get(r.coevo_id)!.platform === 'mobile').slice(0, 3)];
  expect(picked.length).toBe(6);
  const screenOfRow = (r: { coevo_id: string }) => screenOf(stateBefore(samples.get(r.coevo_id)!.task, samples.get(r.coevo_id)!.stepIndex));
  const pairs = picked.map((r) => ({ exported: cli[r.images[0]], screen: screenOfRow(r) }));
  const other = picked.find((r) => r.images[0] !== picked[0].images[0] && samples.get(r.coevo_id)!.platform === 'web')!;
  pairs.push({ exported: cli[picked[0].images[0]], screen: screenOfRow(other) });
  const harness = await page.context().newPage();
  await harness.goto('/render.html');
  await harness.waitForFunction(() => window.coevoRender !== undefined);
  await harness.evaluate(() => window.coevoRender!.ready);
  const diffs = await pixelDifferences(harness, pairs);
  for (const [i, d] of diffs.slice(0, 6).entries()) {
    const { width, height } = pairs[i].screen;
    expect(d.sizes, picked[i].coevo_id).toEqual([width, height, width, height]);
    expect(d.opaque).toBe(true);
    expect(d.differing, picked[i].coevo_id).toBe(0);
  }
  expect(diffs[6].differing).toBeGreaterThan(100);
  console.log(`checked ${verdict.rows} rows and ${verdict.images} images; ${((Date.now() - t0) / 1000).toFixed(1)} s in all`);
});
