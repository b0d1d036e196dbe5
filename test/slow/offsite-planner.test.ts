/**
 * One offsite comparison for the planner at a small size (Node, tfjs WASM):
 * the shipped tiny base planner is the model owner's M; the owner learns
 * harmonizers and importance on public training-template states and ships
 * ScaleOT emulators at two scales: α = 0.5, β = 1 (one of the two middle
 * units replaced by its harmonizer) and α = 0, β = 0.25 (both kept, the
 * middle attention unit at rank 12 of 48); the data owner tunes the end units on private cross-site tasks
 * (sites no planner training draws from; seed 77, half the tasks for
 * tuning, the other half's states for the test). Rows: zero-shot, emulator
 * fine-tuning, plug-in, full fine-tuning, and Offsite-Tuning's uniform drop
 * at the same size (emulator fine-tuning and plug-in; at α = 0 it would be
 * the same emulator, so only at α = 0.5).
 *
 * The test asserts what this small run can show: the rows are all there on
 * the same test states with intervals; tuning lowers the private test loss
 * for full fine-tuning and for plug-in; the emulator ships fewer weights
 * than M and no replaced unit's. The acceptance figures of issue 31 (plug-in
 * ≥ 90% of full fine-tuning's gain, a clear privacy gap, RL above uniform
 * drop) need more steps and more test states than fit here; the printed
 * table is what docs/offsite.md records.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import * as tf from '../../src/models/tf';
import '@tensorflow/tfjs-backend-wasm';
import { importCheckpoint } from '../../src/models/checkpoint';
import { disposeParams } from '../../src/models/params';
import type { PlannerConfig } from '../../src/models/planner';
import { defaultTokenizer } from '../../src/text/vocab';
import { compareOffsite, comparisonTable, DEFAULT_OFFSITE, type OffsiteSettings } from '../../src/offsite/compare';
import { plannerPrivateSet, plannerPublicStates } from '../../src/offsite/privateSet';
import { offsiteMarkdown, offsiteReport } from '../../src/offsite/report';
import { OFFSITE_DEFAULTS } from '../../src/offsite/jobTypes';

beforeAll(async () => {
  await tf.setBackend('wasm');
  await tf.ready();
});

// The defaults are npm run offsite's (OFFSITE_DEFAULTS.planner), so that the command reproduces this test. A larger run: OFFSITE_TASKS=60 OFFSITE_TEST_STATES=96 OFFSITE_TUNE_STEPS=60 OFFSITE_REPLACE_STEPS=40 (docs/offsite.md).
const env = (name: string, fallback: number) => (process.env[name] ? Number(process.env[name]) : fallback);
// OFFSITE_LORA=r: LoRA of rank r (alpha 2r, lr OFFSITE_LORA_LR or 5e-3) on every unit the emulator keeps, instead of the end units' weights.
const SETTINGS: OffsiteSettings = {
  ...DEFAULT_OFFSITE,
  replaceSteps: env('OFFSITE_REPLACE_STEPS', OFFSITE_DEFAULTS.planner.replaceSteps),
  tuneSteps: env('OFFSITE_TUNE_STEPS', OFFSITE_DEFAULTS.planner.tuneSteps),
  batchSize: OFFSITE_DEFAULTS.planner.batchSize,
  rlEvery: 4,
  candidates: 4,
  ...(process.env.OFFSITE_LORA ? { lora: { rank: env('OFFSITE_LORA', 4), alpha: 2 * env('OFFSITE_LORA', 4), lr: env('OFFSITE_LORA_LR', 5e-3) } } : {}),
};
const TASKS = env('OFFSITE_TASKS', OFFSITE_DEFAULTS.planner.tasks);
const TEST_STATES = env('OFFSITE_TEST_STATES', OFFSITE_DEFAULTS.planner.testStates ?? Infinity);

describe('offsite tuning, planner, tiny base', () => {
  it('all rows on the private held-out states; tuning lowers the private loss in M', async () => {
    const t0 = performance.now();
    const { config, params } = importCheckpoint(new Uint8Array(readFileSync(join(__dirname, '../../public/base/tiny-planner.safetensors'))));
    const cfg = config as PlannerConfig;
    const priv = plannerPrivateSet(77, TASKS, 0.5, TEST_STATES);
    const trainIds = new Set(priv.train.map((s) => s.task.id));
    expect(priv.test.some((s) => trainIds.has(s.task.id))).toBe(false);
    const c = await compareOffsite({
      full: params,
      cfg,
      tok: defaultTokenizer(),
      publicStates: plannerPublicStates(77, OFFSITE_DEFAULTS.planner.publicItems),
      privateTrain: priv.train,
      privateTest: priv.test,
      settings: SETTINGS,
      onProgress: (phase, step, total) => {
        if (step === total) console.log(`  ${phase}: ${total} steps done at ${((performance.now() - t0) / 1000).toFixed(0)} s`);
      },
    });
    const wall = (performance.now() - t0) / 1000;
    disposeParams(params);
    console.log(`offsite planner, tiny, scales ${JSON.stringify(SETTINGS.scales)}: private ${priv.trainTasks} tuning tasks (${priv.train.length} states), ${priv.testTasks} test tasks (${priv.test.length} states); wall ${wall.toFixed(0)} s`);
    console.log(comparisonTable(c));
    for (const e of c.emulators) {
      const units = e.units.map((u) => `${u.id} ${u.role}${u.rank !== undefined ? ` rank ${u.rank}` : ''}${u.score !== undefined ? ` (score ${u.score.toFixed(3)})` : ''}`);
      console.log(`${e.method} α ${e.scale.alpha} β ${e.scale.beta}: ${e.size} values shipped; ${units.join(', ')}`);
    }
    console.log(`full model ${c.fullSize} values, adapters ${c.adapterSize}`);
    console.log(`score history: ${JSON.stringify(c.scoreHistory.map((s) => s.map((x) => +x.toFixed(3))))}`);
    console.log(`seconds: ${JSON.stringify(Object.fromEntries(Object.entries(c.seconds).map(([k, v]) => [k, +v.toFixed(1)])))}`);
    const report = offsiteReport({ agent: 'planner', preset: 'tiny', backend: 'wasm (Node)', privateSet: `cross-site tasks, seed 77: ${priv.trainTasks} tuning tasks (${priv.train.length} states), ${priv.testTasks} test tasks (${priv.test.length} states)`, wallSeconds: wall }, c);
    // Beside the printed table, the files `npm run offsite` writes (report.ts), from Node.
    const dir = join(tmpdir(), 'coevo-offsite');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'report.json'), JSON.stringify(report, null, 2));
    writeFileSync(join(dir, 'report.md'), offsiteMarkdown(report));
    console.log(`${offsiteMarkdown(report)}\nwrote ${dir}/report.json and report.md`);

    const perScale = ['emulator fine-tuning', 'plug-in', 'offsite-tuning emulator fine-tuning', 'offsite-tuning plug-in'];
    expect(c.rows.map((r) => r.name)).toEqual(['zero-shot', 'full fine-tuning', ...perScale, 'emulator fine-tuning', 'plug-in']);
    for (const r of c.rows) {
      expect(r.n).toBe(priv.test.length);
      expect(r.interval.low).toBeLessThanOrEqual(r.exact);
      expect(r.interval.high).toBeGreaterThanOrEqual(r.exact);
      expect(Number.isFinite(r.loss)).toBe(true);
    }
    const row = (n: string) => c.rows.find((r) => r.name === n)!;
    expect(row('full fine-tuning').loss).toBeLessThan(row('zero-shot').loss);
    for (const r of c.rows.filter((x) => x.name === 'plug-in')) expect(r.loss).toBeLessThan(row('zero-shot').loss);
    expect(c.emulators.map((e) => [e.method, e.scale.alpha, e.units.filter((u) => u.role === 'replaced').length])).toEqual([
      ['scaleot', 0.5, 1],
      ['uniform-drop', 0.5, 1],
      ['scaleot', 0, 0],
    ]);
    for (const e of c.emulators) expect(e.size).toBeLessThan(c.fullSize);
    expect(c.emulators[2].units.find((u) => u.id === 'blocks.1.attn')?.rank).toBe(12);
  }, 900_000);
});
