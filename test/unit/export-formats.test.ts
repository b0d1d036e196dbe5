/**
 * Acceptance 1 of issue 32: an exported folder loads with Python's standard
 * json and every row validates against a schema written from the trainers'
 * documentation (export-schemas.ts), for TRL and ms-swift, for every kind of
 * data set (seed D0, distilled Ek, curated Dk, planner GRPO prompts).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildTrainerExport, type TrainerExport } from '../../src/export/build';
import type { DatasetKind, TrainerFormat } from '../../src/export/types';
import { pythonFiles } from '../../scripts/export/python-files';
import { standInRenderer, tinyRunBundle } from './export-fixtures';
import { swiftRowErrors, trlRowErrors, useOf } from './export-schemas';

const KINDS: DatasetKind[] = ['seed', 'distilled', 'curated', 'planner-grpo'];
const exports: Partial<Record<TrainerFormat, TrainerExport>> = {};

beforeAll(async () => {
  const bundle = await tinyRunBundle(160);
  for (const f of ['trl', 'swift'] as const) exports[f] = await buildTrainerExport(bundle, f, pythonFiles(), standInRenderer);
}, 120_000);

const lines = (bytes: Uint8Array) => new TextDecoder().decode(bytes).split('\n').filter((l) => l.length > 0);

describe.each(['trl', 'swift'] as const)('%s export', (format) => {
  it('has every kind of data set, and every row of every file follows the documented schema', () => {
    const { files, summary } = exports[format]!;
    expect(new Set(summary.datasets.map((d) => d.kind))).toEqual(new Set(KINDS));
    const check = format === 'trl' ? trlRowErrors : swiftRowErrors;
    let rows = 0;
    for (const d of summary.datasets) {
      const expected = d.kind === 'planner-grpo' ? ['planner_grpo.jsonl'] : ['grounder_grpo.jsonl', 'grounder_sft.jsonl', 'planner_sft.jsonl'];
      expect(Object.keys(d.rows).sort()).toEqual(expected.sort());
      for (const file of expected) {
        const list = lines(files[`datasets/${d.name}/${file}`]).map((l) => JSON.parse(l) as unknown);
        expect(list.length, `${d.name}/${file}`).toBe(d.rows[file]);
        expect(list.length).toBeGreaterThan(0);
        for (const [i, row] of list.entries()) {
          expect(check(row, useOf(file)), `${d.name}/${file} row ${i}`).toEqual([]);
          for (const image of (row as { images: string[] }).images) expect(files[image], image).toBeDefined();
        }
        rows += list.length;
      }
    }
    expect(rows).toBeGreaterThan(500);
  });

  it('a row that breaks the documented format is caught (the schema can fail)', () => {
    const { files, summary } = exports[format]!;
    const d = summary.datasets.find((x) => x.kind === 'seed')!;
    const row = JSON.parse(lines(files[`datasets/${d.name}/grounder_grpo.jsonl`])[0]) as Record<string, unknown>;
    const check = format === 'trl' ? trlRowErrors : swiftRowErrors;
    expect(check({ ...row, images: 'images/a.png' }, 'grpo-grounding')).not.toEqual([]);
    expect(check({ ...row, target_box: null }, 'grpo-grounding')).not.toEqual([]);
    const other = format === 'trl' ? swiftRowErrors : trlRowErrors;
    expect(other(row, 'grpo-grounding')).not.toEqual([]);
  });

  it("loads with Python's standard json module: every .jsonl line and every .json file", () => {
    const { files } = exports[format]!;
    const dir = mkdtempSync(join(tmpdir(), `coevo-export-${format}-`));
    for (const [path, bytes] of Object.entries(files)) {
      if (!/\.jsonl?$/.test(path)) continue;
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), bytes);
    }
    const script = [
      'import json, pathlib, sys',
      'root = pathlib.Path(sys.argv[1]); n = 0',
      'for p in sorted(root.rglob("*.jsonl")):',
      '    for line in p.read_text(encoding="utf-8").splitlines():',
      '        json.loads(line); n += 1',
      'for p in sorted(root.rglob("*.json")): json.loads(p.read_text(encoding="utf-8")); n += 1',
      'print(n)',
    ].join('\n');
    const n = Number(execFileSync('python3', ['-c', script, dir], { encoding: 'utf8' }).trim());
    const expected = Object.entries(files).reduce((s, [p, b]) => s + (p.endsWith('.jsonl') ? lines(b).length : p.endsWith('.json') ? 1 : 0), 0);
    expect(n).toBe(expected);
  });

  it('carries the rewards, the grammar, a launch example and a model card per checkpoint', () => {
    const { files } = exports[format]!;
    for (const f of ['rewards.py', 'grammar.json', 'reward_checks.jsonl', 'manifest.json', 'README.md', `launch_${format}.sh`]) expect(files[f], f).toBeDefined();
    if (format === 'trl') {
      expect(files['train_trl.py']).toBeDefined();
      expect(new TextDecoder().decode(files['accelerate_zero3.yaml'])).toContain('distributed_type: DEEPSPEED');
      expect(new TextDecoder().decode(files['launch_trl.sh'])).toMatch(/accelerate launch --config_file accelerate_zero3\.yaml train_trl\.py --task grounder-grpo/);
    } else {
      const sh = new TextDecoder().decode(files['launch_swift.sh']);
      expect(sh).toMatch(/swift rlhf --rlhf_type grpo/);
      expect(sh).toMatch(/--external_plugins rewards\.py/);
      expect(sh).toMatch(/--reward_funcs coevo_format coevo_point --reward_weights 1 2/);
    }
    const cards = Object.keys(files).filter((p) => p.endsWith('.card.json'));
    expect(cards.length).toBe(2);
    for (const c of cards) {
      const card = JSON.parse(new TextDecoder().decode(files[c])) as { format: string; preset: string; parameters: number; provenance: { run: { id: string } }; weights: string };
      expect(card).toMatchObject({ format: 'coevo-model-card', preset: 'tiny', provenance: { run: { id: 'tiny' } } });
      expect(card.parameters).toBeGreaterThan(0);
      expect(files[`models/${card.weights}`]).toBeDefined();
    }
  });
});
