/**
 * One offsite comparison for the grounder at a small size (Node, tfjs WASM):
 * the shipped tiny base grounder is the model owner's M; the owner learns
 * harmonizers and importance on public grounding examples of training
 * tasks and ships ScaleOT emulators at α = 0.5, β = 1 (one of the two middle
 * units, text.blocks.0.mlp and blocks.0.attn, replaced by its harmonizer)
 * and α = 0, β = 0.25 (both kept, the region attention at rank 8 of 32);
 * the data owner tunes the end units (text.blocks.0.attn, blocks.0.mlp) on
 * private grounding instructions of the held-out sites and domain
 * (suites.ts cross-site and cross-domain web tasks, seed 77, split by task:
 * half for tuning, the other half's items for the test). Rows: zero-shot,
 * emulator fine-tuning, plug-in, full fine-tuning, and Offsite-Tuning's
 * uniform drop at α = 0.5; click-in-box accuracy with Wilson intervals, and
 * the grounder SFT loss on the same items.
 *
 * The assertions are what this small run can show and can fail: every row
 * on the same held-out test items with an interval around its rate; full
 * fine-tuning and every plug-in lower the private test loss below
 * zero-shot's; the emulators ship fewer values than M and no replaced
 * unit's. The printed table is what docs/offsite.md records.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import * as tf from '../../src/models/tf';
import '@tensorflow/tfjs-backend-wasm';
import { importCheckpoint } from '../../src/models/checkpoint';
import { disposeParams } from '../../src/models/params';
import type { GrounderConfig } from '../../src/models/grounder';
import { defaultTokenizer } from '../../src/text/vocab';
import { comparisonTable, DEFAULT_OFFSITE, type OffsiteSettings } from '../../src/offsite/compare';
import { compareGrounderOffsite } from '../../src/offsite/compareGrounder';
import { grounderPrivateSet, grounderPublicExamples } from '../../src/offsite/grounderPrivateSet';
import { offsiteMarkdown, offsiteReport } from '../../src/offsite/report';
import { OFFSITE_DEFAULTS } from '../../src/offsite/jobTypes';

beforeAll(async () => {
  await tf.setBackend('wasm');
  await tf.ready();
});

// The defaults are npm run offsite's (OFFSITE_DEFAULTS.grounder); the default size fits about 6 minutes; a larger run: OFFSITE_TASKS=40 OFFSITE_TUNE_STEPS=30 OFFSITE_REPLACE_STEPS=24 (docs/offsite.md).
const env = (name: string, fallback: number) => (process.env[name] ? Number(process.env[name]) : fallback);
const SETTINGS: OffsiteSettings = {
  ...DEFAULT_OFFSITE,
  replaceSteps: env('OFFSITE_REPLACE_STEPS', OFFSITE_DEFAULTS.grounder.replaceSteps),
  tuneSteps: env('OFFSITE_TUNE_STEPS', OFFSITE_DEFAULTS.grounder.tuneSteps),
  batchSize: OFFSITE_DEFAULTS.grounder.batchSize,
  // The grounder's own SFT rate (learn-grounder-sft); the planner's 1e-3 barely moves it in 30 steps.
  tuneLr: env('OFFSITE_TUNE_LR', OFFSITE_DEFAULTS.grounder.tuneLr),
  ...(process.env.OFFSITE_LORA ? { lora: { rank: env('OFFSITE_LORA', 4), alpha: 2 * env('OFFSITE_LORA', 4), lr: env('OFFSITE_LORA_LR', 5e-3) } } : {}),
};
/** Tasks per held-out split (cross-site and cross-domain), half of all of them for the test. */
const TASKS = env('OFFSITE_TASKS', OFFSITE_DEFAULTS.grounder.tasks);

describe('offsite tuning, grounder, tiny base', () => {
  it('all rows on the private held-out items; tuning lowers the private loss in M', async () => {
    const t0 = performance.now();
    const { config, params } = importCheckpoint(new Uint8Array(readFileSync(join(__dirname, '../../public/base/tiny-grounder.safetensors'))));
    const cfg = config as GrounderConfig;
    const priv = grounderPrivateSet(77, TASKS);
    const trainIds = new Set(priv.train.map((s) => s.taskId));
    expect(priv.test.some((s) => trainIds.has(s.taskId))).toBe(false);
    expect(priv.test.every((s) => s.split === 'cross-site' || s.split === 'cross-domain')).toBe(true);
    const c = await compareGrounderOffsite({
      full: params,
      cfg,
      tok: defaultTokenizer(),
      publicExamples: grounderPublicExamples(77, OFFSITE_DEFAULTS.grounder.publicItems),
      privateTrain: priv.train,
      privateTest: priv.test,
      settings: SETTINGS,
      onProgress: (phase, step, total) => {
        if (step === total) console.log(`  ${phase}: ${total} steps done at ${((performance.now() - t0) / 1000).toFixed(0)} s`);
      },
    });
    const wall = (performance.now() - t0) / 1000;
    disposeParams(params);
    const splits = (items: typeof priv.test) => ['cross-site', 'cross-domain'].map((s) => `${items.filter((x) => x.split === s).length} ${s}`).join(', ');
    const privateSet = `cross-site and cross-domain web tasks, seed 77: ${priv.trainTasks} tuning tasks (${priv.train.length} items), ${priv.testTasks} test tasks (${priv.test.length} items: ${splits(priv.test)})`;
    console.log(`offsite grounder, tiny, scales ${JSON.stringify(SETTINGS.scales)}: ${privateSet}; wall ${wall.toFixed(0)} s`);
    console.log(comparisonTable(c, 'click-in-box accuracy', 'grounder SFT loss'));
    console.log(`score history: ${JSON.stringify(c.scoreHistory.map((s) => s.map((x) => +x.toFixed(3))))}`);
    console.log(`seconds: ${JSON.stringify(Object.fromEntries(Object.entries(c.seconds).map(([k, v]) => [k, +v.toFixed(1)])))}`);
    const report = offsiteReport({ agent: 'grounder', preset: 'tiny', backend: 'wasm (Node)', privateSet, wallSeconds: wall }, c);
    const dir = join(tmpdir(), 'coevo-offsite-grounder');
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
    expect(c.emulators[2].units.find((u) => u.id === 'blocks.0.attn')?.rank).toBe(8);
  }, 900_000);
});
