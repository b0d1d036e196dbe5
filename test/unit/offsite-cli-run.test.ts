/**
 * `npm run offsite` end to end at a very small size, for the planner: the
 * built app in headless Chromium on WASM, driven by the command's own driver
 * (offsite-cli-harness.ts says what is checked of report.json); here also
 * report.md's table and the progress lines (phases, the whole run's bar,
 * ETA). The grounder's run (the app's renderer painting its screens) takes
 * longer and is in test/slow/offsite-cli-grounder.test.ts.
 */
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CHROMIUM_PATH } from '../../scripts/lib/browser-app';
import { checkReport, runSmallOffsite } from './offsite-cli-harness';

describe.skipIf(!existsSync(CHROMIUM_PATH))('npm run offsite in the built app', () => {
  it('planner: every row finite, only the end units sent back, both files, progress with phases and ETA', async () => {
    const { r, json, markdown, lines } = await runSmallOffsite('planner', ['--test-states', '2']);
    checkReport(json, 'planner', 2);
    // The file holds what the command returned (a share with no gain, NaN, is null in JSON: compare the rows).
    expect(json.comparison.rows).toEqual(r.report.comparison.rows);
    expect(json.info.command).toContain('--agent planner');
    expect(markdown).toContain('| row | emulator (α, β) | exact match | 95% interval | n | loss (nats/token) |');
    expect(lines.some((l) => /^harmonizers and importance .*all \[.*\] \d+\/4 steps · ETA/.test(l))).toBe(true);
    // One "done" line per phase the report times, in its order, however short the phase (full fine-tuning is one step here).
    const ended = lines.flatMap((l) => /^\s*(.+): done, \S+ into the comparison$/.exec(l)?.[1] ?? []);
    expect(ended).toEqual(Object.keys(json.comparison.seconds));
  }, 300_000);
});
