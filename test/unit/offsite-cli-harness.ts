/**
 * Runs `npm run offsite`'s driver (scripts/lib/offsite-run.ts) against the
 * built app (dist/, rebuilt when stale, as the command does) in headless
 * Chromium on WASM at a very small size, and checks what the command
 * promises of report.json: every row with finite figures and an interval
 * around its rate, the emulators' replaced units and sizes, and what each
 * tuning sent back being exactly the end units' tensors (the names are read
 * off the app's result, so a weight of M leaking into them fails). Used by
 * test/unit/offsite-cli-run.test.ts (planner) and
 * test/slow/offsite-cli-grounder.test.ts.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { builtApp } from '../../scripts/lib/cli';
import { parseOffsiteArgs } from '../../scripts/lib/offsite-args';
import { runOffsiteCommand } from '../../scripts/lib/offsite-run';
import { ProgressPrinter } from '../../scripts/lib/progress';
import { readCheckpoint } from '../../src/models/checkpoint';
import { allowedAdapterNames } from '../../src/offsite/adapters';
import type { OffsiteReport } from '../../src/offsite/report';
import type { OffsiteModelConfig } from '../../src/offsite/units';

const ROOT = join(__dirname, '../..');

/** 4 private tasks, 1 step of each training phase, batch 2, one emulator scale; `extra` flags after those. */
export async function runSmallOffsite(agent: 'planner' | 'grounder', extra: string[]) {
  const outRoot = mkdtempSync(join(tmpdir(), 'coevo-offsite-cli-'));
  const out = join(outRoot, agent);
  const argv = ['--agent', agent, '--tasks', '4', '--public', '4', '--batch', '2', '--replace-steps', '1', '--tune-steps', '1', '--emulator-scale', '0.5:1', '--backend', 'wasm', '--out', out, ...extra];
  const parsed = parseOffsiteArgs(argv);
  if (parsed.help) throw new Error('help');
  const lines: string[] = [];
  const printer = new ProgressPrinter({ write: (t) => lines.push(...t.split('\n').filter(Boolean)), isTTY: false }, 0);
  const t0 = performance.now();
  const r = await runOffsiteCommand(parsed.args, { serve: builtApp(printer), printer, pollMs: 200, command: `npm run offsite -- ${argv.join(' ')}` });
  const phases = Object.entries(r.report.comparison.seconds).map(([k, v]) => `${k} ${v.toFixed(1)}`).join(', ');
  console.log(`offsite ${agent}, very small: ${((performance.now() - t0) / 1000).toFixed(0)} s (the comparison ${r.report.info.wallSeconds.toFixed(0)} s: ${phases})`);
  const json = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as OffsiteReport;
  const markdown = readFileSync(join(out, 'report.md'), 'utf8');
  rmSync(outRoot, { recursive: true, force: true });
  return { r, json, markdown, lines };
}

export function checkReport(json: OffsiteReport, agent: 'planner' | 'grounder', tests: number): void {
  const c = json.comparison;
  expect(json.info).toMatchObject({ agent, preset: 'tiny' });
  expect(json.info.backend).toMatch(/^wasm/);
  // A dist built from inside vitest (NODE_ENV=test) used to be a development build, single-threaded: the command would then measure one thread.
  if (availableParallelism() > 1) expect(json.info.backend).not.toContain('wasm, 1 thread');
  expect(c.rows.map((r) => r.name)).toEqual(['zero-shot', 'full fine-tuning', 'emulator fine-tuning', 'plug-in', 'offsite-tuning emulator fine-tuning', 'offsite-tuning plug-in']);
  for (const r of c.rows) {
    expect(r.n).toBe(tests);
    for (const x of [r.exact, r.loss, r.interval.low, r.interval.high]) expect(Number.isFinite(x)).toBe(true);
    expect(r.interval.low).toBeLessThanOrEqual(r.exact);
    expect(r.interval.high).toBeGreaterThanOrEqual(r.exact);
  }
  expect(json.summary).toHaveLength(1);
  expect(Number.isFinite(json.summary[0].privacyGap.value)).toBe(true);
  expect(c.emulators.map((e) => [e.method, e.scale.alpha, e.units.filter((u) => u.role === 'replaced').length])).toEqual([
    ['scaleot', 0.5, 1],
    ['uniform-drop', 0.5, 1],
  ]);
  // The adapters-only guarantee, on what the app's tuning actually sent back.
  const { config } = readCheckpoint(new Uint8Array(readFileSync(join(ROOT, `public/base/tiny-${agent}.safetensors`))));
  const allowed = [...allowedAdapterNames(config as OffsiteModelConfig)].sort();
  for (const e of c.emulators) {
    expect(e.size).toBeLessThan(c.fullSize);
    expect(e.adapters.kind).toBe('end-units');
    expect(e.adapters.units).toEqual(e.units.filter((u) => u.role === 'adapter').map((u) => u.id));
    expect(e.adapters.tensors).toEqual(allowed);
    expect(e.adapters.size).toBe(c.adapterSize);
  }
  expect(c.adapterSize).toBeLessThan(c.fullSize / 2);
}
