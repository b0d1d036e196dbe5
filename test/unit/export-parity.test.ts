/**
 * Acceptance 2 of issue 32: Debian's python3 runs the exported rewards.py on
 * the exported rows (reward_checks.jsonl: answers to every distinct grounder
 * and planner GRPO row, the recorded GRPO groups and the worked examples,
 * with the rewards src/learn/rewards.ts gives them) and agrees to 1e-6, through
 * the plain functions, the TRL reward functions and the ms-swift ORM classes.
 * A corrupted expectation must make it fail, so the check is not vacuous.
 * rewards.py must also import without TRL or ms-swift, and register its ORMs
 * when swift.plugin exists.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildTrainerExport } from '../../src/export/build';
import { pythonFiles } from '../../scripts/export/python-files';
import { standInRenderer, tinyRunBundle } from './export-fixtures';

const dirs: Record<string, string> = {};

beforeAll(async () => {
  const bundle = await tinyRunBundle(700);
  for (const format of ['trl', 'swift'] as const) {
    const { files } = await buildTrainerExport(bundle, format, pythonFiles(), standInRenderer);
    const dir = mkdtempSync(join(tmpdir(), `coevo-parity-${format}-`));
    for (const [path, bytes] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), bytes);
    }
    dirs[format] = dir;
  }
}, 180_000);

interface CheckResult {
  checks: number;
  max_abs_diff: number;
  failures: unknown[];
}

function runCheck(dir: string, file = 'reward_checks.jsonl'): { status: number | null; result: CheckResult } {
  const r = spawnSync('python3', ['rewards.py', '--check', file], { cwd: dir, encoding: 'utf8' });
  if (r.error) throw r.error;
  return { status: r.status, result: JSON.parse(r.stdout) as CheckResult };
}

describe.each(['trl', 'swift'] as const)('%s export', (format) => {
  it('Python and TypeScript rewards agree to 1e-6 on every exported row and every worked example', () => {
    const { status, result } = runCheck(dirs[format]);
    const lines = readFileSync(join(dirs[format], 'reward_checks.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { file: string | null; row: number | null; reward: string });
    const rows = new Set(lines.filter((l) => l.file !== null).map((l) => `${l.file}#${l.row}`));
    console.log(`${format}: ${result.checks} checks on ${rows.size} exported rows (+ ${lines.filter((l) => l.file === null).length} worked / recorded), max |Python - TypeScript| = ${result.max_abs_diff}`);
    expect(result.failures).toEqual([]);
    expect(status).toBe(0);
    expect(result.checks).toBe(lines.length);
    expect(rows.size).toBeGreaterThanOrEqual(1000);
    expect(lines.some((l) => l.reward === 'grounding') && lines.some((l) => l.reward === 'plan')).toBe(true);
    expect(result.max_abs_diff).toBeLessThanOrEqual(1e-6);
  });

  it('fails when one expected reward is off by 1e-5 (the check can fail)', () => {
    const dir = dirs[format];
    const lines = readFileSync(join(dir, 'reward_checks.jsonl'), 'utf8').trim().split('\n');
    for (const [i, kind] of [[lines.findIndex((l) => l.includes('"reward":"plan"') && l.includes('"file":"datasets')), 'plan'], [lines.findIndex((l) => l.includes('"reward":"grounding"')), 'grounding']] as const) {
      const c = JSON.parse(lines[i]) as { expected: { total: number } };
      c.expected.total += 1e-5;
      const bad = [...lines];
      bad[i] = JSON.stringify(c);
      writeFileSync(join(dir, `bad_${kind}.jsonl`), bad.join('\n') + '\n');
      const { status, result } = runCheck(dir, `bad_${kind}.jsonl`);
      expect(status, kind).toBe(1);
      expect(result.failures.length).toBe(1);
    }
  });
});

describe('rewards.py on plain python3', () => {
  it('imports without TRL or ms-swift, and registers its ORM plugins in swift.plugin.orms when ms-swift is there', () => {
    const dir = dirs.trl;
    const plain = execFileSync('python3', ['-c', 'import rewards, json; print(json.dumps(sorted(rewards.orms)))'], { cwd: dir, encoding: 'utf8' });
    expect(JSON.parse(plain)).toEqual(['coevo_format', 'coevo_grounding', 'coevo_plan', 'coevo_point']);
    // A stand-in swift.plugin with the documented ORM base class and orms registry.
    const fake = mkdtempSync(join(tmpdir(), 'fake-swift-'));
    mkdirSync(join(fake, 'swift', 'plugin'), { recursive: true });
    writeFileSync(join(fake, 'swift', '__init__.py'), '');
    writeFileSync(join(fake, 'swift', 'plugin', '__init__.py'), 'class ORM:\n    pass\norms = {}\n');
    const script = 'import rewards\nfrom swift.plugin import ORM, orms\nassert orms["coevo_point"] is rewards.CoevoPoint and issubclass(rewards.CoevoPoint, ORM)\nprint(orms["coevo_grounding"]()(["(5, 5)", "nope"], target_box=[[0, 0, 10, 10], [0, 0, 10, 10]], screen_width=[100, 100], screen_height=[100, 100]))';
    const out = execFileSync('python3', ['-c', script], { cwd: dir, encoding: 'utf8', env: { ...process.env, PYTHONPATH: fake } });
    const [inside, malformed] = JSON.parse(out.trim()) as number[];
    expect(malformed).toBe(0);
    expect(inside).toBeGreaterThan(4.9); // 1 + 2 * (1 + decay near 1)
  });

  it('the plan reward says what to do when no grounder pool is set', () => {
    const r = spawnSync('python3', ['-c', 'import rewards\nrewards.plan_reward([[{"content": "click the \\"OK\\" button"}]], action_type=["CLICK"], action_value=[None], target_box=[[0, 0, 5, 5]])'], { cwd: dirs.trl, encoding: 'utf8', env: { ...process.env, COEVO_GROUNDER_POOL: '' } });
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain('needs a grounder pool');
  });
});
