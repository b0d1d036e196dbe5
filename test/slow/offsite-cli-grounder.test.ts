/**
 * `npm run offsite` end to end at a very small size, for the grounder: the
 * built app in headless Chromium on WASM, its renderer painting the screens
 * (test/unit/offsite-cli-harness.ts says what is checked). About 40–60 s
 * under load, mostly six evaluations at the grounder's padded batch of 16;
 * the planner's run is in test/unit/offsite-cli-run.test.ts.
 */
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CHROMIUM_PATH } from '../../scripts/lib/browser-app';
import { checkReport, runSmallOffsite } from '../unit/offsite-cli-harness';

describe.skipIf(!existsSync(CHROMIUM_PATH))('npm run offsite in the built app, grounder', () => {
  it('every row finite, only the end units sent back, on the real renderer’s screens', async () => {
    const { json, markdown } = await runSmallOffsite('grounder', []);
    // One test item per test task: half of the 4 + 4 held-out tasks (fewer where the two splits share a task).
    const tests = json.comparison.rows[0].n;
    expect(tests).toBeGreaterThanOrEqual(2);
    checkReport(json, 'grounder', tests);
    expect(markdown).toContain('click-in-box accuracy');
  }, 300_000);
});
